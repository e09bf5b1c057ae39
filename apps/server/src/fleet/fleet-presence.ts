// Who is inside each room and who knocks at its door, for the control plane's answers (the dashboard asks before
// stopping a room with people in it; the square shows the count; an owner outside the room hears of knocks): this
// process's own hubs answer at once, other agents' rooms as their last heartbeat reported them (at most a heartbeat
// old).
import type { MikroORM } from '@mikro-orm/postgresql';
import { fleet, type RoomPresence } from '@rooms/api';
import { KNOCKS_PENDING_MAX, type TKnock, ZKnock } from '@rooms/api/room-protocol';
import { z } from 'zod';

interface TLog {
  warn(object: object, message: string): void;
}

export interface TFleetPresenceOptions {
  orm: MikroORM;
  /** The rooms on this process's own hubs (nobody and no knock for a room not here). */
  local: RoomPresence;
  /** This process's own agents, whose reports the local answers make stale. */
  ownAgents(): ReadonlySet<string>;
  log: TLog;
}

/** An agent's report of the knocks at its rooms' doors; a report that does not read so counts as none. */
const ZReportedKnocks = z.record(z.string(), z.array(ZKnock).max(KNOCKS_PENDING_MAX));

export function startFleetPresence(options: TFleetPresenceOptions): RoomPresence & { close(): void } {
  let reported = new Map<string, number>();
  let knocking = new Map<string, TKnock[]>();
  let failing = false;
  const refresh = async () => {
    try {
      const rows = await options.orm.em.fork().execute<
        {
          id: string;
          members: Record<string, number> | null;
          knocks: unknown;
        }[]
      >(
        `select id, report->'members' as members, report->'knocks' as knocks from room_agents where state <> 'lost'`,
      );
      const own = options.ownAgents();
      const next = new Map<string, number>();
      const nextKnocks = new Map<string, TKnock[]>();
      for (const row of rows) {
        if (own.has(row.id)) continue;
        for (const [roomId, count] of Object.entries(row.members ?? {})) {
          if (typeof count === 'number') next.set(roomId, (next.get(roomId) ?? 0) + count);
        }
        const knocks = ZReportedKnocks.safeParse(row.knocks ?? {});
        if (!knocks.success) continue;
        for (const [roomId, waiting] of Object.entries(knocks.data))
          nextKnocks.set(roomId, [...(nextKnocks.get(roomId) ?? []), ...waiting]);
      }
      reported = next;
      knocking = nextKnocks;
      failing = false;
    } catch (error) {
      if (!failing) options.log.warn({ err: error }, 'could not read the agents’ member counts');
      failing = true;
    }
  };
  void refresh();
  const timer = setInterval(() => void refresh(), fleet.HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return {
    memberCount: (roomId) => options.local.memberCount(roomId) || (reported.get(roomId) ?? 0),
    knocks: (roomId) => {
      const here = options.local.knocks(roomId);
      return here.length > 0 ? here : (knocking.get(roomId) ?? []);
    },
    close: () => clearInterval(timer),
  };
}
