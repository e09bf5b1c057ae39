// How many people are inside each room, for the control plane's answers (the dashboard asks before stopping a
// room with people in it; the square shows it): this process's own hubs count at once, other agents' rooms as
// their last heartbeat reported them (at most a heartbeat old).
import type { MikroORM } from '@mikro-orm/postgresql';
import { fleet, type RoomPresence } from '@rooms/api';

interface TLog {
  warn(object: object, message: string): void;
}

export interface TFleetPresenceOptions {
  orm: MikroORM;
  /** People in the room on this process's own hubs (0 when none here). */
  local(roomId: string): number;
  /** This process's own agents, whose reports the local count makes stale. */
  ownAgents(): ReadonlySet<string>;
  log: TLog;
}

export function startFleetPresence(options: TFleetPresenceOptions): RoomPresence & { close(): void } {
  let reported = new Map<string, number>();
  let failing = false;
  const refresh = async () => {
    try {
      const rows = await options.orm.em
        .fork()
        .execute<{ id: string; members: Record<string, number> | null }[]>(
          `select id, report->'members' as members from room_agents where state <> 'lost'`,
        );
      const own = options.ownAgents();
      const next = new Map<string, number>();
      for (const row of rows) {
        if (own.has(row.id) || !row.members) continue;
        for (const [roomId, count] of Object.entries(row.members)) {
          if (typeof count === 'number') next.set(roomId, (next.get(roomId) ?? 0) + count);
        }
      }
      reported = next;
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
    memberCount: (roomId) => options.local(roomId) || (reported.get(roomId) ?? 0),
    close: () => clearInterval(timer),
  };
}
