// Where the data lives: an external PostgreSQL, or the embedded one the server runs in its data directory.
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { TEnv } from '../env';
import { REPO_ROOT } from '../paths';
import { optionalString } from './variable';

export const databaseVariables = {
  /** Unset: the server runs its own embedded PostgreSQL in DATA_DIR. */
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  // A relative directory is the repository's, as the default is: `npm start` runs in apps/server and `npm run cli`
  // in the root, and both must find the same database.
  DATA_DIR: z
    .string()
    .default(join(REPO_ROOT, '.data'))
    .transform((dir) => resolve(REPO_ROOT, dir)),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5488),
};

export function databaseConfig(env: TEnv) {
  return {
    /** Unset: the server runs its own embedded PostgreSQL in `dataDir`. */
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    embeddedPgPort: env.EMBEDDED_PG_PORT,
  };
}
