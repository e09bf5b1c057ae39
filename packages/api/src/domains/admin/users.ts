// What an administrator (or the operator CLI) does to an account. Each action writes its audit row in the same
// transaction as the change, and ends sessions the way a logout does: revoked in the database, then announced so
// the room sockets opened with them close at once, in this process and every other.
import { randomUUID } from 'node:crypto';
import { QueryOrder } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Room, Session, User, type UserRole } from '@rooms/db';
import type { TServices } from '../../context';
import { AppError } from '../../errors';
import type { SessionEvents } from '../../services/ports';
import type { RoomEngine } from '../../services/room-engine';
import { sendEmailCode } from '../accounts/email-codes';
import { revokeSessionsOpenedBy, revokeUserSessions } from '../accounts/session';
import { appendEntry, balanceCents, grantPlan as grantSubscription, lockAccount } from '../billing';
import { formatDollars } from '../billing/money';
import { escapeLike, recordAudit, type TActor } from './audit';
import { keysetPage, keysetWhere, type TKeyset } from './keyset';
import { stopRooms } from './rooms';

export interface TAdminDeps {
  em: EntityManager;
  actor: TActor;
  now: Date;
  sessionEvents: SessionEvents;
  /**
   * This process's room engine. The CLI has none: the server stops a disabled user's rooms when it hears that
   * their sessions ended (apps/server services.ts).
   */
  rooms?: RoomEngine;
}

export async function findUser(em: EntityManager, userId: string): Promise<User> {
  const user = await em.findOne(User, userId);
  if (!user) throw new AppError('USER_NOT_FOUND');
  return user;
}

export interface TUserSearch extends TKeyset {
  query?: string;
  sort: 'createdAt' | 'lastLoginAt';
}

/** Accounts whose e-mail or name contains the query, newest sign-up (or login) first. */
export async function searchUsers(em: EntityManager, search: TUserSearch) {
  const where: Record<string, unknown>[] = [];
  if (search.query) {
    const pattern = `%${escapeLike(search.query)}%`;
    where.push({ $or: [{ email: { $ilike: pattern } }, { username: { $ilike: pattern } }] });
  }
  const after = keysetWhere(search.cursor, search.sort);
  if (after) where.push(after);
  const rows = await em.find(User, where.length ? { $and: where } : {}, {
    orderBy: { [search.sort]: QueryOrder.DESC_NULLS_LAST, id: QueryOrder.DESC },
    limit: search.limit + 1,
  });
  return keysetPage(rows, search.limit, (user) => user[search.sort] ?? null);
}

/**
 * Ends the user's sessions and, with their standing as administrator, those they opened as other people, and
 * tells whoever holds a connection opened with one (why, when the account was disabled).
 */
async function endSessions(deps: TAdminDeps, userId: string, disabled = false): Promise<void> {
  await revokeUserSessions(deps.em, userId, deps.now);
  await deps.sessionEvents.ended({ userId, ...(disabled ? { disabled } : {}) });
  for (const sessionId of await revokeSessionsOpenedBy(deps.em, userId, deps.now)) {
    await deps.sessionEvents.ended({ sessionId });
  }
}

/**
 * Disables or enables an account. Disabling ends the user's sessions (their sockets close) and stops their rooms;
 * the account cannot sign in until enabled again. An administrator cannot disable their own account.
 */
export async function setUserDisabled(deps: TAdminDeps, userId: string, disabled: boolean): Promise<User> {
  const { em } = deps;
  if (disabled && deps.actor.id === userId) throw new AppError('CANNOT_DISABLE_SELF');
  const user = await findUser(em, userId);
  const before = user.disabled;
  user.disabled = disabled;
  recordAudit(em, deps.actor, {
    action: disabled ? 'user.disable' : 'user.enable',
    targetType: 'user',
    targetId: user.id,
    targetLabel: user.email,
    before: { disabled: before },
    after: { disabled },
  });
  await em.flush();
  if (disabled) {
    await endSessions(deps, user.id, true);
    if (deps.rooms) await stopUserRooms({ em, rooms: deps.rooms, now: deps.now }, user.id);
  }
  return user;
}

/**
 * Stops every room of the user that runs on this engine (a disabled account's rooms do not keep running); their
 * members are told the room has ended because of it, not that it may be back.
 */
export async function stopUserRooms(
  deps: { em: EntityManager; rooms: RoomEngine; now: Date },
  userId: string,
): Promise<number> {
  const live = await deps.em.find(
    Room,
    { owner: userId, state: { $in: ['starting', 'running', 'crashed'] } },
    { fields: ['id'] },
  );
  return stopRooms(
    deps,
    live.map((room) => room.id),
    { reason: 'account-disabled', by: null },
  );
}

export async function setUserLevel(deps: TAdminDeps, userId: string, level: number): Promise<User> {
  const user = await findUser(deps.em, userId);
  recordAudit(deps.em, deps.actor, {
    action: 'user.setLevel',
    targetType: 'user',
    targetId: user.id,
    targetLabel: user.email,
    before: { level: user.level },
    after: { level },
  });
  user.level = level;
  // Kept apart too: the plans the user buys or lets lapse later never take this level away (billing levelFor).
  user.adminLevel = level;
  await deps.em.flush();
  return user;
}

/** Makes the account an administrator or takes that away (the CLI; the web has no button for it). */
export async function setUserRole(deps: TAdminDeps, userId: string, role: UserRole): Promise<User> {
  const user = await findUser(deps.em, userId);
  recordAudit(deps.em, deps.actor, {
    action: 'user.setRole',
    targetType: 'user',
    targetId: user.id,
    targetLabel: user.email,
    before: { role: user.role },
    after: { role },
  });
  user.role = role;
  await deps.em.flush();
  if (role !== 'admin') await endSessions(deps, user.id);
  return user;
}

export async function grantUserPlan(
  deps: TAdminDeps,
  input: { userId: string; planId: string; days: number },
): Promise<void> {
  const user = await findUser(deps.em, input.userId);
  await deps.em.transactional(async (tx) => {
    const { subscription, previous } = await grantSubscription(tx, input, deps.now);
    recordAudit(tx, deps.actor, {
      action: 'user.grantPlan',
      targetType: 'user',
      targetId: user.id,
      targetLabel: user.email,
      before: previous ? { plan: previous.plan.name, expiresAt: previous.expiresAt } : null,
      after: { plan: subscription.plan.name, expiresAt: subscription.expiresAt, days: input.days },
    });
    await tx.flush();
  });
}

/**
 * Credits (positive) or debits (negative) the balance through the ledger; the reason goes on the entry and the log.
 * A debit never takes the balance below zero: it is prepaid.
 */
export async function adjustBalance(
  deps: TAdminDeps,
  input: { userId: string; amountCents: number; reason: string },
): Promise<number> {
  const user = await findUser(deps.em, input.userId);
  return deps.em.transactional(async (tx) => {
    await lockAccount(tx, user.id);
    const before = await balanceCents(tx, user.id);
    if (before + input.amountCents < 0) {
      throw new AppError('ADJUSTMENT_EXCEEDS_BALANCE', {
        args: [formatDollars(before), formatDollars(-input.amountCents)],
      });
    }
    await appendEntry(tx, {
      userId: user.id,
      amountCents: input.amountCents,
      kind: 'adjustment',
      externalKey: `adjustment:${randomUUID()}`,
      note: input.reason,
    });
    const after = before + input.amountCents;
    recordAudit(tx, deps.actor, {
      action: 'user.adjustBalance',
      targetType: 'user',
      targetId: user.id,
      targetLabel: user.email,
      before: { balance: formatDollars(before) },
      after: { balance: formatDollars(after) },
      reason: input.reason,
    });
    await tx.flush();
    return after;
  });
}

/**
 * Mails the user a password-reset code, the same mail the reset screen sends. No captcha was solved for it, so
 * redeeming the code asks for a fresh one.
 */
export async function sendPasswordReset(
  deps: TAdminDeps & { services: Pick<TServices, 'mailer' | 'config' | 'now'> },
  userId: string,
): Promise<void> {
  const user = await findUser(deps.em, userId);
  await sendEmailCode(deps.em, deps.services, {
    email: user.email,
    purpose: 'reset',
    captchaPassToken: randomUUID(),
  });
  recordAudit(deps.em, deps.actor, {
    action: 'user.sendPasswordReset',
    targetType: 'user',
    targetId: user.id,
    targetLabel: user.email,
  });
  await deps.em.flush();
}

export async function endUserSessions(deps: TAdminDeps, userId: string): Promise<number> {
  const user = await findUser(deps.em, userId);
  const live = await deps.em.count(Session, { user: user.id, revokedAt: null, expiresAt: { $gt: deps.now } });
  recordAudit(deps.em, deps.actor, {
    action: 'user.endSessions',
    targetType: 'user',
    targetId: user.id,
    targetLabel: user.email,
    before: { sessions: live },
    after: { sessions: 0 },
  });
  await deps.em.flush();
  await endSessions(deps, user.id);
  return live;
}
