// Sessions: an opaque token for the client, its hash in the database, valid one day like the cookie.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Session, type User, type UserRole } from '@rooms/db';
import type { TRequestInfo } from '../../context';
import type { SessionCache } from './session-cache';
import { newSessionToken, sha256Hex } from './tokens';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** A session an administrator opens as a user lasts long enough to look around, not a day. */
export const IMPERSONATED_SESSION_TTL_MS = 60 * 60 * 1000;

/**
 * The signed-in user as a request sees it: read when the session was resolved, shared by the requests that reuse
 * it from the session cache, so frozen. A procedure that changes the user loads the entity (`em.findOneOrFail`).
 */
export interface TAccount {
  readonly id: string;
  readonly username: string;
  readonly email: string;
  readonly avatar: string;
  readonly level: number;
  readonly role: UserRole;
  readonly lastLoginIp: string | null;
  readonly lastLoginAt: Date | null;
  /** The sign-in before the latest: the profile's last login. */
  readonly previousLoginIp: string | null;
  readonly previousLoginAt: Date | null;
  readonly createdAt: Date;
}

export interface TSessionUser {
  sessionId: string;
  user: TAccount;
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

/**
 * The live session for a token, or null when it is unknown, expired, revoked or its user is disabled. With a cache,
 * a token seen within the cache's lifetime costs no query: revocations and account changes reach it as events.
 */
export async function resolveSession(
  /** Or a function giving it, so that a token found in the cache needs no entity manager at all. */
  em: EntityManager | (() => EntityManager),
  token: string,
  now: Date,
  cache?: SessionCache,
): Promise<TSessionUser | null> {
  if (token.length < 16 || token.length > 128) return null;
  const tokenHash = sha256Hex(token);
  const cached = cache?.get(tokenHash);
  if (cached) return cached.expiresAt > now ? cached : null;
  const generation = cache?.generation();
  const session = await (typeof em === 'function' ? em() : em).findOne(
    Session,
    { tokenHash, revokedAt: null, expiresAt: { $gt: now } },
    { populate: ['user', 'impersonator'] },
  );
  if (!session || session.user.disabled) return null;
  const impersonator = session.impersonator;
  // A session an administrator opened as someone else ends with their standing as administrator.
  if (impersonator && (impersonator.disabled || impersonator.role !== 'admin')) return null;
  const resolved: TSessionUser = Object.freeze({
    sessionId: session.id,
    user: accountOf(session.user),
    expiresAt: session.expiresAt,
    impersonator: impersonator
      ? Object.freeze({ id: impersonator.id, email: impersonator.email, username: impersonator.username })
      : null,
  });
  if (cache && generation !== undefined) cache.remember(tokenHash, resolved, generation);
  return resolved;
}

function accountOf(user: User): TAccount {
  return Object.freeze({
    id: user.id,
    username: user.username,
    email: user.email,
    avatar: user.avatar,
    level: user.level,
    role: user.role,
    lastLoginIp: user.lastLoginIp ?? null,
    lastLoginAt: user.lastLoginAt ?? null,
    previousLoginIp: user.previousLoginIp ?? null,
    previousLoginAt: user.previousLoginAt ?? null,
    createdAt: user.createdAt,
  });
}

export async function revokeSession(em: EntityManager, sessionId: string, now: Date): Promise<void> {
  await em.nativeUpdate(Session, { id: sessionId, revokedAt: null }, { revokedAt: now });
}

/**
 * Ends the sessions an administrator opened as other people (sign-in links); returns their ids, which is how their
 * sockets are found (they belong to the people, not to the administrator).
 */
export async function revokeSessionsOpenedBy(
  em: EntityManager,
  adminId: string,
  now: Date,
): Promise<string[]> {
  const opened = await em.find(Session, { impersonator: adminId, revokedAt: null }, { fields: ['id'] });
  if (opened.length === 0) return [];
  const ids = opened.map((session) => session.id);
  await em.nativeUpdate(Session, { id: { $in: ids }, revokedAt: null }, { revokedAt: now });
  return ids;
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
