// What an administrator does while signed in as a user (the /admintologinuser/{token} page) is the administrator's
// doing, not the user's: every change made in such a session writes an audit row with the administrator as actor
// and the user as target, and so does every refused attempt at what cannot be undone (trpc.ts applies both).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSessionUser } from '../accounts/session';
import { recordAudit } from './audit';

/** The actions of these rows: `impersonation.<procedure>` for a change, this one for a refusal. */
export const IMPERSONATION_ACTION_PREFIX = 'impersonation.';
export const IMPERSONATION_REFUSED = 'impersonation.refused';

/** Keys whose values never reach the log: a share password typed while impersonating stays the user's secret. */
const SECRET_KEY = /pass(word)?|secret|token/i;
const MAX_KEYS = 20;
const MAX_TEXT = 200;

/**
 * What the call asked for, enough to tell what it changed: the input's top-level plain values, secrets hidden and
 * text cut short. The row is written only once the procedure has accepted the input, but its schema strips unknown
 * keys later than this sees them, so nothing here trusts the input's size.
 */
export function summarizeInput(input: unknown): Record<string, unknown> | null {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return null;
  const summary: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input).slice(0, MAX_KEYS)) {
    const name = key.slice(0, 64);
    if (value === undefined) continue;
    if (SECRET_KEY.test(name)) summary[name] = value === null || value === '' ? value : '(hidden)';
    else if (typeof value === 'string') summary[name] = value.slice(0, MAX_TEXT);
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) summary[name] = value;
  }
  return summary;
}

/** The id a call answered with (a created room's), when its answer has one. */
function answeredId(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null;
  const id = (output as { id?: unknown }).id;
  return typeof id === 'string' ? id.slice(0, 64) : null;
}

export interface TImpersonatedCall {
  /** The session's own view: the user it belongs to and the administrator who opened it. */
  session: TSessionUser & { impersonator: NonNullable<TSessionUser['impersonator']> };
  ip: string;
  /** The procedure's dotted path, e.g. `room.createRoom`. */
  path: string;
  input: unknown;
}

function actorAndTarget(call: TImpersonatedCall) {
  const { user, impersonator } = call.session;
  return {
    actor: { id: impersonator.id, label: impersonator.email, ip: call.ip },
    target: { targetType: 'user' as const, targetId: user.id, targetLabel: user.email },
  };
}

/**
 * Writes the row of a change the call made, on its own fork: the procedure has committed its work, and whatever it
 * left unflushed in the request's entity manager is not for this flush to write.
 */
export async function recordImpersonatedChange(
  em: EntityManager,
  call: TImpersonatedCall,
  output: unknown,
): Promise<void> {
  const fork = em.fork();
  const { actor, target } = actorAndTarget(call);
  const id = answeredId(output);
  recordAudit(fork, actor, {
    action: `${IMPERSONATION_ACTION_PREFIX}${call.path}`.slice(0, 64),
    ...target,
    after: { input: summarizeInput(call.input), ...(id ? { id } : {}) },
  });
  await fork.flush();
}

/** Writes the row of an attempt the session may not make (paying, deleting, the password). */
export async function recordImpersonationRefusal(em: EntityManager, call: TImpersonatedCall): Promise<void> {
  const fork = em.fork();
  const { actor, target } = actorAndTarget(call);
  recordAudit(fork, actor, {
    action: IMPERSONATION_REFUSED,
    ...target,
    after: { procedure: call.path, input: summarizeInput(call.input) },
  });
  await fork.flush();
}
