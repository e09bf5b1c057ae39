// What the processes of a fleet show one another (ARCHITECTURE.md, "Fleet credentials"). A credential says who its
// holder is (role, name, for an agent its agent ids and address), which key it holds and until when, signed with the
// fleet's signing key, which only control planes have. It never travels alone: each call carries it with the call
// itself (audience, method, path, time) signed by the holder's own key, which never leaves its process. So a process
// that receives a call learns nothing it could use elsewhere: the credential without the holder's key signs
// nothing, and the signed call names this process and this request only.
import { type KeyObject, sign, verify } from 'node:crypto';
import { z } from 'zod';
import { publicKeyOfBytes } from './fleet-keys';

export const FLEET_ROLES = ['control', 'agent', 'gateway'] as const;
export type TFleetRole = (typeof FLEET_ROLES)[number];

/** How long a credential holds; its holder renews it at half time, so a control plane may be away that long. */
export const CREDENTIAL_LIFETIME_MS = 60 * 60_000;
/** How old a signed call may be, and how far ahead of this clock (machines' clocks differ a little). */
export const CALL_SIGNATURE_MS = 60_000;
/** Calls to a control plane are signed for this audience; calls to an agent for its address (AGENT_ADDRESS). */
export const CONTROL_AUDIENCE = 'control';

const ZKeyText = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'must be an Ed25519 public key (32 bytes, base64url)');

const ZCredential = z.object({
  v: z.literal(1),
  role: z.enum(FLEET_ROLES),
  /** The holder's name, for the logs: a pod's, a machine's. */
  sub: z.string().max(300),
  /** The holder's public key: calls signed by its private half carry this credential. */
  key: ZKeyText,
  /** An agent process's agent ids (one per zone it serves): it heartbeats as these and no other. */
  agents: z.array(z.uuid()).max(64),
  /** An agent's address, where it registered. */
  address: z.string().max(300).nullable(),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type TCredential = z.infer<typeof ZCredential>;
export type TCredentialClaims = Omit<TCredential, 'v' | 'iat' | 'exp'>;

const ZSignedCall = z.object({
  aud: z.string().max(300),
  m: z.string().max(16),
  p: z.string().max(2048),
  iat: z.number().int(),
});

// Each signature covers its kind too, so nothing signed as one can pass for the other.
const CREDENTIAL_CONTEXT = 'rooms-fleet-credential/v1.';
const CALL_CONTEXT = 'rooms-fleet-call/v1.';

function seal(context: string, payload: object, key: KeyObject): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(null, Buffer.from(context + body), key).toString('base64url')}`;
}

function unseal(context: string, sealed: string, key: KeyObject): unknown {
  const [body, signature, extra] = sealed.split('.');
  if (!body || !signature || extra !== undefined) return null;
  try {
    if (!verify(null, Buffer.from(context + body), key, Buffer.from(signature, 'base64url'))) return null;
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

export function issueCredential(
  signingKey: KeyObject,
  claims: TCredentialClaims,
  now = Date.now(),
  lifetimeMs = CREDENTIAL_LIFETIME_MS,
): string {
  return seal(CREDENTIAL_CONTEXT, { v: 1, ...claims, iat: now, exp: now + lifetimeMs }, signingKey);
}

/** The credential's claims when the fleet's key signed it (expired or not); null otherwise. */
export function readCredential(credential: string, verifyKey: KeyObject): TCredential | null {
  const parsed = ZCredential.safeParse(unseal(CREDENTIAL_CONTEXT, credential, verifyKey));
  return parsed.success ? parsed.data : null;
}

export interface TFleetCall {
  /** The process called: an agent's address, or CONTROL_AUDIENCE. */
  audience: string;
  method: string;
  /** The request's path (a query is not part of it). */
  path: string;
}

const pathOf = (path: string) => new URL(path, 'http://fleet').pathname;

/** The Authorization header of one call: the credential, and the call signed with its holder's private key. */
export function fleetAuthorization(
  credential: string,
  holderKey: KeyObject,
  call: TFleetCall,
  now = Date.now(),
): string {
  const signed = seal(
    CALL_CONTEXT,
    { aud: call.audience, m: call.method.toUpperCase(), p: pathOf(call.path), iat: now },
    holderKey,
  );
  return `Fleet ${credential} ${signed}`;
}

export type TCallCheck = { ok: true; caller: TCredential } | { ok: false; reason: string };

/** Whether `authorization` is a call of a process of this install, signed for `expected`, and by whom. */
export function checkFleetCall(
  authorization: string | undefined,
  expected: TFleetCall & { verifyKey: KeyObject | undefined },
  now = Date.now(),
): TCallCheck {
  if (!expected.verifyKey) return { ok: false, reason: 'this process does not know the fleet’s key yet' };
  const parts = /^Fleet ([\w-]+\.[\w-]+) ([\w-]+\.[\w-]+)$/.exec(authorization ?? '');
  if (!parts) return { ok: false, reason: 'the call carries no fleet credential' };
  const caller = readCredential(parts[1]!, expected.verifyKey);
  if (!caller) return { ok: false, reason: 'the credential is not signed with this install’s fleet key' };
  if (caller.exp <= now) return { ok: false, reason: 'the credential has expired' };
  const call = ZSignedCall.safeParse(
    unseal(CALL_CONTEXT, parts[2]!, publicKeyOfBytes(Buffer.from(caller.key, 'base64url'))),
  );
  if (!call.success) return { ok: false, reason: 'the call is not signed by the credential’s holder' };
  if (Math.abs(now - call.data.iat) > CALL_SIGNATURE_MS)
    return { ok: false, reason: 'the call was signed too long ago (or the clocks disagree)' };
  if (call.data.aud !== expected.audience)
    return { ok: false, reason: 'the call was signed for another process' };
  if (call.data.m !== expected.method.toUpperCase() || call.data.p !== pathOf(expected.path))
    return { ok: false, reason: 'the call was signed for another request' };
  return { ok: true, caller };
}
