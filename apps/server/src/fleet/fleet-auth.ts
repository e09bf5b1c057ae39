// This process's part in the fleet's credentials, by role: what it checks the calls it takes with (its audience
// and the verify key) and how it signs the calls it makes. Control planes hold the signing key; agents and
// gateways enrol. Each route then says which roles may call it (`checkCaller`).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyRequest } from 'fastify';
import type { TConfig } from '../env';
import { controlCaller, EnrolledCaller, type TFleetCaller } from './fleet-callers';
import { CONTROL_AUDIENCE, checkFleetCall, type TCredential, type TFleetRole } from './fleet-credentials';

declare module 'fastify' {
  interface FastifyInstance {
    /** How this process checks and signs the fleet's calls (fleet/fleet-auth.ts). */
    fleetAuth: TFleetAuth;
  }
}

export interface TFleetAuth {
  /** What calls to this process are signed for: an agent's address, CONTROL_AUDIENCE on a control plane. */
  audience: string | undefined;
  /** The key credentials are checked with; an agent that enrols learns it then, unless configured. */
  verifyKey(): KeyObject | undefined;
  /** How this process signs its calls; absent where it makes none (an agent without CONTROL_URL). */
  caller: TFleetCaller | undefined;
  /** An agent's or a gateway's enrolment; an agent registers through it with CONTROL_URL. */
  enrolled: EnrolledCaller | undefined;
  /** A control plane's: what it issues credentials with, and the join tokens it admits. */
  authority:
    | {
        signingKey: KeyObject;
        joinTokens: { agent: string | undefined; gateway: string | undefined };
      }
    | undefined;
  close(): void;
}

interface TLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export function createFleetAuth(config: TConfig, log: TLog): TFleetAuth {
  const { signingKey, verifyKey, joinTokens } = config.fleet;
  const name = config.agent.name ?? `${hostname()}/${process.pid}`;
  if (config.role === 'all' || config.role === 'control') {
    if (!signingKey) throw new Error('a control plane needs the fleet signing key');
    const ownVerifyKey = createPublicKey(signingKey);
    return {
      audience: CONTROL_AUDIENCE,
      verifyKey: () => ownVerifyKey,
      caller: controlCaller(signingKey, name),
      enrolled: undefined,
      authority: { signingKey, joinTokens },
      close() {},
    };
  }
  const role = config.role;
  const joinToken = joinTokens[role];
  // An agent enrols only to reach the control plane (CONTROL_URL); a gateway always, to reach the agents.
  const controlUrl = role === 'agent' ? config.controlUrl : (config.controlUrl ?? config.publicUrl);
  const enrolled =
    controlUrl && joinToken
      ? new EnrolledCaller({
          role,
          controlUrl,
          joinToken,
          name: role === 'agent' ? (config.agent.address ?? name) : name,
          address: config.agent.address,
          verifyKey,
          log,
        })
      : undefined;
  if (role === 'gateway') enrolled?.start();
  return {
    audience: role === 'agent' ? config.agent.address : undefined,
    verifyKey: () => verifyKey ?? enrolled?.verifyKey(),
    caller: enrolled,
    enrolled,
    authority: undefined,
    close: () => enrolled?.close(),
  };
}

export type TCallerCheck =
  | { ok: true; caller: TCredential }
  | { ok: false; status: 401 | 403; reason: string };

/** Whether the request is a fleet call signed for this process, by a process of one of `roles`. */
export function checkCaller(
  request: FastifyRequest,
  auth: TFleetAuth,
  roles: readonly TFleetRole[],
): TCallerCheck {
  if (!auth.audience) return { ok: false, status: 401, reason: 'this process takes no fleet calls' };
  const checked = checkFleetCall(request.headers.authorization, {
    verifyKey: auth.verifyKey(),
    audience: auth.audience,
    method: request.method,
    path: request.url,
  });
  if (!checked.ok) return { ok: false, status: 401, reason: checked.reason };
  if (!roles.includes(checked.caller.role)) {
    return {
      ok: false,
      status: 403,
      reason: `a credential of role ${checked.caller.role} does not call this`,
    };
  }
  return checked;
}
