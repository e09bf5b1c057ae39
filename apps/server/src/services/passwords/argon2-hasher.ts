// Password hashes are argon2id with the OWASP-recommended minimum cost (19 MiB, 2 passes).
import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '@rooms/api';

const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function createArgon2Hasher(): PasswordHasher {
  // Checked against when an account does not exist, so that answer costs the same time as a wrong password.
  let decoy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, OPTIONS),
    async verify(stored, password) {
      if (stored === null) {
        decoy ??= hash('decoy password', OPTIONS);
        await verify(await decoy, password);
        return false;
      }
      try {
        return await verify(stored, password);
      } catch {
        return false;
      }
    },
  };
}
