// Processes of a fleet as tests play them: a credential issued with the install's signing key (as a control plane's
// enrolment would issue it) and a key of its own that signs each call.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import {
  CREDENTIAL_LIFETIME_MS,
  fleetAuthorization,
  issueCredential,
  type TCredentialClaims,
  type TFleetRole,
} from '../fleet/fleet-credentials';
import { publicKeyText } from '../fleet/fleet-keys';

export interface TTestFleetProcess {
  credential: string;
  /** The Authorization header of a call to `audience`, signed now (or at `at`). */
  call(audience: string, method: string, path: string, at?: number): string;
}

export function fleetProcess(
  signingKey: KeyObject,
  role: TFleetRole,
  claims: Partial<Omit<TCredentialClaims, 'role' | 'key'>> = {},
  options: { issuedAt?: number; lifetimeMs?: number } = {},
): TTestFleetProcess {
  const holder = generateKeyPairSync('ed25519');
  const credential = issueCredential(
    signingKey,
    { sub: `test ${role}`, agents: [], address: null, ...claims, role, key: publicKeyText(holder.publicKey) },
    options.issuedAt ?? Date.now(),
    options.lifetimeMs ?? CREDENTIAL_LIFETIME_MS,
  );
  return {
    credential,
    call: (audience, method, path, at) =>
      fleetAuthorization(credential, holder.privateKey, { audience, method, path }, at),
  };
}

/** A header with one character of its call's signature changed: its holder did not sign that. */
export function tampered(authorization: string): string {
  const at = authorization.length - 20;
  const changed = authorization[at] === 'A' ? 'B' : 'A';
  return `${authorization.slice(0, at)}${changed}${authorization.slice(at + 1)}`;
}
