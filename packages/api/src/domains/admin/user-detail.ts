// Everything the admin's user page shows about one account, read in parallel.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Payment, planOf, Room, Session } from '@rooms/db';
import { balanceCents, currentSubscription, entriesOf, toDollars } from '../billing';
import { adminPaymentView } from './payments';
import { reportsAgainst } from './reports';
import { findUser } from './users';

export async function userDetail(em: EntityManager, userId: string, now: Date) {
  const user = await findUser(em, userId);
  const [plan, subscription, balance, ledger, payments, rooms, sessions, reports] = await Promise.all([
    planOf(em, user.id, now),
    currentSubscription(em, user.id, now),
    balanceCents(em, user.id),
    entriesOf(em, user.id, 50),
    em.find(Payment, { user: user.id }, { populate: ['user'], orderBy: { createdAt: 'desc' }, limit: 50 }),
    em.find(Room, { owner: user.id }, { populate: ['region'], orderBy: { createdAt: 'desc' } }),
    em.find(
      Session,
      { user: user.id, revokedAt: null, expiresAt: { $gt: now } },
      { populate: ['impersonator'], orderBy: { createdAt: 'desc' } },
    ),
    reportsAgainst(em, user.id),
  ]);
  return {
    user,
    plan: {
      id: plan.id,
      name: plan.name,
      expiresAt: subscription?.expiresAt ?? null,
      autoRenew: subscription?.autoRenew ?? false,
    },
    balance: toDollars(balance),
    ledger: ledger.map((entry) => ({
      id: entry.id,
      amount: toDollars(entry.amountCents),
      kind: entry.kind,
      note: entry.note ?? null,
      createdAt: entry.createdAt,
    })),
    payments: payments.map(adminPaymentView),
    rooms: rooms.map((room) => ({
      id: room.id,
      name: room.name,
      state: room.state,
      isPublic: room.isPublic,
      hiddenFromSquare: room.hiddenFromSquare,
      region: room.region.code,
      createdAt: room.createdAt,
      lastStartedAt: room.lastStartedAt ?? null,
    })),
    sessions: sessions.map((session) => ({
      id: session.id,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      ip: session.ip ?? null,
      userAgent: session.userAgent ?? null,
      impersonatedBy: session.impersonator?.email ?? null,
    })),
    reports,
  };
}
