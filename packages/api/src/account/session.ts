// Sessions: an opaque token for the client, its hash in the database, valid one day like the cookie (spec §4/§9).
import type { EntityManager } from '@mikro-orm/postgresql';
import { Session, type User } from '@rooms/db';
import type { TRequestInfo } from '../context';
import { newSessionToken, sha256Hex } from './tokens';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** A session an administrator opens as a user lasts long enough to look around, not a day. */
export const IMPERSONATED_SESSION_TTL_MS = 60 * 60 * 1000;

export interface TSessionUser {
  sessionId: string;
  user: User;
  expiresAt: Date;
  /** The administrator who opened this session through a sign-in link; null for the user's own. */
  impersonator: { id: string; email: string; username: string } | null;
}

export async function createSession(
  em: EntityManager,
  user: User,
  request: TRequestInfo,
  now: Date,
  impersonator: User | null = null,
): Promise<string> {
  const token = newSessionToken();
  em.create(Session, {
    id: crypto.randomUUID(),
    user,
    tokenHash: sha256Hex(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + (impersonator ? IMPERSONATED_SESSION_TTL_MS : SESSION_TTL_MS)),
    ip: request.ip,
    userAgent: request.userAgent?.slice(0, 512) ?? null,
    impersonator,
  });
  await em.flush();
  return token;
}

/** The live session for a token, or null when it is unknown, expired, revoked or its user is disabled. */
export async function resolveSession(
  em: EntityManager,
  token: string,
  now: Date,
): Promise<TSessionUser | null> {
  if (token.length < 16 || token.length > 128) return null;
  const session = await em.findOne(
    Session,
    { tokenHash: sha256Hex(token), revokedAt: null, expiresAt: { $gt: now } },
    { populate: ['user', 'impersonator'] },
  );
  if (!session || session.user.disabled) return null;
  const impersonator = session.impersonator;
  return {
    sessionId: session.id,
    user: session.user,
    expiresAt: session.expiresAt,
    impersonator: impersonator
      ? { id: impersonator.id, email: impersonator.email, username: impersonator.username }
      : null,
  };
}

export async function revokeSession(em: EntityManager, sessionId: string, now: Date): Promise<void> {
  await em.nativeUpdate(Session, { id: sessionId, revokedAt: null }, { revokedAt: now });
}

/** Ends every session of a user, except the one given (the device that changed the password). */
export async function revokeUserSessions(
  em: EntityManager,
  userId: string,
  now: Date,
  keepSessionId?: string,
): Promise<void> {
  await em.nativeUpdate(
    Session,
    { user: userId, revokedAt: null, ...(keepSessionId ? { id: { $ne: keepSessionId } } : {}) },
    { revokedAt: now },
  );
}
