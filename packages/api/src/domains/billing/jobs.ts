// The scheduled billing work, one function per job; apps/server runs them on its PostgreSQL job queue. Each is
// safe to run in several processes at once: the rows they change are claimed under locks.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RoomEngine } from '../../services/room-engine';
import { meterRunningRooms, notify, stopRoomsBeyondPlan } from './enforcement';
import { expireUnpaidPayments } from './payments';
import { dueExpiries, settleExpiry } from './subscriptions';

interface TLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TJobDeps {
  em: EntityManager;
  rooms: RoomEngine;
  now: Date;
  log: TLog;
}

/** The longest stretch one metering tick charges a room (see advanceMeter): a few ticks' worth. */
export const METER_MAX_SECONDS = 5 * 60;

export async function runPaymentExpiry({ em, now, log }: TJobDeps): Promise<number> {
  const expired = await expireUnpaidPayments(em, now);
  if (expired > 0) log.info({ expired }, 'unpaid bills expired');
  return expired;
}

/** Renews or lets lapse every subscription whose period is over; a lapse stops the rooms the fallback plan does not allow. */
export async function runRenewals(deps: TJobDeps): Promise<{ renewed: number; lapsed: number }> {
  const { em, now, log } = deps;
  let renewed = 0;
  let lapsed = 0;
  for (const id of await dueExpiries(em, now)) {
    const outcome = await settleExpiry(em.fork(), id, now);
    if (!outcome) continue;
    if (outcome.kind === 'renewed') {
      renewed += 1;
      await notify(em, outcome.userId, 'plan-renewed', { planName: outcome.planName });
    } else {
      lapsed += 1;
      const roomsStopped = await stopRoomsBeyondPlan({ ...deps, em: em.fork() }, outcome.userId);
      await notify(em, outcome.userId, 'plan-lapsed', { planName: outcome.planName, roomsStopped });
    }
  }
  if (renewed + lapsed > 0) log.info({ renewed, lapsed }, 'subscriptions renewed or lapsed');
  return { renewed, lapsed };
}

export async function runMetering(deps: TJobDeps): Promise<{ charged: number; stopped: number }> {
  const result = await meterRunningRooms(deps, METER_MAX_SECONDS);
  if (result.stopped > 0) deps.log.info(result, 'rooms stopped: their owners ran out of room time');
  return result;
}
