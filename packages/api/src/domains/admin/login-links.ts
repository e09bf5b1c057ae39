// Signing in as a user (the /admintologinuser/{token} page): an administrator creates a one-time link; the first
// browser that opens it within five minutes gets a short-lived session of that user, marked with the administrator
// who opened it. Only the token's hash is stored, and spending it is one conditional update, so two browsers racing
// with the same link cannot both win.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminLoginToken, User } from '@rooms/db';
import type { TRequestInfo } from '../../context';
import { AppError } from '../../errors';
import { createSession } from '../accounts/session';
import { newSessionToken, sha256Hex } from '../accounts/tokens';
import { recordAudit, type TActor } from './audit';
import { findUser } from './users';

export const LOGIN_LINK_TTL_MS = 5 * 60 * 1000;

export async function createLoginLink(
  deps: { em: EntityManager; actor: TActor; now: Date; publicUrl: string },
  userId: string,
): Promise<{ url: string; expiresAt: Date }> {
  const { em, actor, now } = deps;
  if (!actor.id) throw new Error('A sign-in link is created by an administrator’s account');
  const user = await findUser(em, userId);
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + LOGIN_LINK_TTL_MS);
  const link = em.create(AdminLoginToken, {
    tokenHash: sha256Hex(token),
    user,
    admin: em.getReference(User, actor.id),
    createdAt: now,
    expiresAt,
    usedAt: null,
  });
  recordAudit(em, actor, {
    action: 'loginLink.create',
    targetType: 'user',
    targetId: user.id,
    targetLabel: user.email,
    after: { link: link.id, expiresAt },
  });
  await em.flush();
  return { url: `${deps.publicUrl}/admintologinuser/${token}`, expiresAt };
}

/**
 * Spends the link and opens the impersonated session; the token is refused when unknown, used, expired, or when
 * the user is disabled or the administrator is no longer one.
 */
export async function redeemLoginLink(
  deps: { em: EntityManager; now: Date; request: TRequestInfo },
  token: string,
): Promise<{ sessionToken: string; user: User }> {
  const { em, now, request } = deps;
  if (token.length < 16 || token.length > 128) throw new AppError('LOGIN_LINK_INVALID');
  const spent = await em.nativeUpdate(
    AdminLoginToken,
    { tokenHash: sha256Hex(token), usedAt: null, expiresAt: { $gt: now } },
    { usedAt: now },
  );
  if (spent !== 1) throw new AppError('LOGIN_LINK_INVALID');
  const link = await em.findOneOrFail(
    AdminLoginToken,
    { tokenHash: sha256Hex(token) },
    { populate: ['user', 'admin'] },
  );
  const { user, admin } = link;
  if (user.disabled || admin.disabled || admin.role !== 'admin') throw new AppError('LOGIN_LINK_INVALID');
  const sessionToken = await createSession(em, user, request, now, admin);
  recordAudit(
    em,
    { id: admin.id, label: admin.email, ip: request.ip },
    {
      action: 'loginLink.use',
      targetType: 'user',
      targetId: user.id,
      targetLabel: user.email,
      after: { link: link.id },
    },
  );
  await em.flush();
  return { sessionToken, user };
}
