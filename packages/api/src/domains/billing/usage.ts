// Room time: a running room spends its owner's monthly free time quota first, then the time quota of the
// subscription they hold. Charging happens in ticks of the metering job (and when a room is stopped); how far a
// room was charged is stored (room_meters), so a restart neither forgets nor double-charges.
import type { EntityManager } from '@mikro-orm/postgresql';
import { planOf, Room } from '@rooms/db';
import { lockAccount } from './ledger';
import { currentSubscription } from './subscriptions';

/** 'YYYY-MM' of the UTC calendar month the free quota is counted in. */
export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** The first moment of the next UTC month, when the free quota starts again. */
export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export interface TQuota {
  /** Seconds left of this month's free time quota. */
  freeSeconds: number;
  /** Seconds left of the held subscription's time quota. */
  timeSeconds: number;
  freeResetsAt: Date;
}

async function freeUsedSeconds(em: EntityManager, userId: string, now: Date): Promise<number> {
  const [row] = await em.execute<{ free_used_seconds: number }[]>(
    'select free_used_seconds from usage_months where user_id = ? and month = ?',
    [userId, monthOf(now)],
  );
  return row?.free_used_seconds ?? 0;
}

export async function quotaOf(em: EntityManager, userId: string, now: Date): Promise<TQuota> {
  const [plan, subscription, used] = await Promise.all([
    planOf(em, userId, now),
    currentSubscription(em, userId, now),
    freeUsedSeconds(em, userId, now),
  ]);
  return {
    freeSeconds: Math.max(0, plan.freeTimeQuotaMinutes * 60 - used),
    timeSeconds: subscription?.timeQuotaSeconds ?? 0,
    freeResetsAt: nextMonthStart(now),
  };
}

export function hasTimeLeft(quota: TQuota): boolean {
  return quota.freeSeconds + quota.timeSeconds > 0;
}

/**
 * Charges `seconds` of room time to the user under the account lock: free quota first, then the subscription's.
 * Returns the quota left afterwards. Time beyond both is not owed: the caller stops the rooms.
 */
export function chargeTime(em: EntityManager, userId: string, seconds: number, now: Date): Promise<TQuota> {
  return em.transactional(async (tx) => {
    await lockAccount(tx, userId);
    const quota = await quotaOf(tx, userId, now);
    const fromFree = Math.min(Math.max(0, Math.floor(seconds)), quota.freeSeconds);
    if (fromFree > 0) {
      await tx.execute(
        `insert into usage_months (id, user_id, month, free_used_seconds) values (gen_random_uuid(), ?, ?, ?)
         on conflict (user_id, month) do update set free_used_seconds = usage_months.free_used_seconds + excluded.free_used_seconds`,
        [userId, monthOf(now), fromFree],
      );
    }
    const fromTime = Math.min(Math.max(0, Math.floor(seconds) - fromFree), quota.timeSeconds);
    if (fromTime > 0) {
      const subscription = await currentSubscription(tx, userId, now);
      if (subscription) {
        await tx.execute(
          'update subscriptions set time_quota_seconds = greatest(0, time_quota_seconds - ?) where id = ?',
          [fromTime, subscription.id],
        );
      }
    }
    return {
      freeSeconds: quota.freeSeconds - fromFree,
      timeSeconds: quota.timeSeconds - fromTime,
      freeResetsAt: quota.freeResetsAt,
    };
  });
}

/**
 * Moves a room's meter to `now` and returns the seconds it ran since the last charge, at most `maxSeconds` (a
 * room row left 'running' by a server that died must not bill the hours nobody metered). The row update is the
 * claim: two processes metering the same room at once cannot both count the same seconds.
 */
export async function advanceMeter(
  em: EntityManager,
  room: { id: string; lastStartedAt?: Date | null },
  now: Date,
  maxSeconds: number,
): Promise<number> {
  const started = room.lastStartedAt ?? now;
  const previous = await em.transactional(async (tx) => {
    // Creates the meter when missing, then locks it: a concurrent tick waits here and then reads this one's end.
    await tx.execute(
      `insert into room_meters (id, room_id, metered_until) values (gen_random_uuid(), ?, ?)
       on conflict (room_id) do nothing`,
      [room.id, started],
    );
    const [row] = await tx.execute<{ metered_until: Date | string }[]>(
      'select metered_until from room_meters where room_id = ? for update',
      [room.id],
    );
    await tx.execute('update room_meters set metered_until = greatest(metered_until, ?) where room_id = ?', [
      now,
      room.id,
    ]);
    return row ? new Date(row.metered_until) : started;
  });
  const from = Math.max(previous.getTime(), started.getTime());
  const seconds = Math.floor((now.getTime() - from) / 1000);
  return Math.max(0, Math.min(seconds, maxSeconds));
}

/** Rooms whose browsers are live according to the database, with their owners. */
export interface TLiveRoom {
  id: string;
  lastStartedAt: Date | null;
  ownerId: string;
}

export async function liveRooms(em: EntityManager, ownerId?: string): Promise<TLiveRoom[]> {
  const rooms = await em.find(
    Room,
    { state: { $in: ['starting', 'running'] }, ...(ownerId ? { owner: ownerId } : {}) },
    { fields: ['id', 'lastStartedAt', 'owner'] },
  );
  return rooms.map((room) => ({
    id: room.id,
    lastStartedAt: room.lastStartedAt ?? null,
    ownerId: room.owner.id,
  }));
}
