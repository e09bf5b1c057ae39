// Placement under Agones (ROOM_RUNTIME=agones): a start first takes a room slot on an agent GameServer of the room's
// zone (AgonesRuntime: a GameServerAllocation through the Kubernetes API, an agent already running rooms before a
// Ready one), then the room is placed on that agent: the one registered under the GameServer's name (its pod's
// name, which agents report as AGENT_NAME). The rest of the start is the fleet's usual one. A slot taken for a start
// that then goes nowhere is given back by the agent itself (room-slots.ts).
import type { MikroORM } from '@mikro-orm/postgresql';
import { AppError } from '@rooms/api';
import type { AgonesRuntime } from './agones-runtime';

/** The agents a start may be placed on, for the room: here, the allocated GameServer's. */
export type TAllocateAgents = (roomId: string) => Promise<readonly string[]>;

export function agonesAllocator(orm: MikroORM, runtime: AgonesRuntime): TAllocateAgents {
  return async (roomId) => {
    const em = orm.em.fork();
    const [room] = await em.execute<{ region: string }[]>(
      'select g.code as region from rooms r join regions g on g.id = r.region_id where r.id = ?',
      [roomId],
    );
    if (!room) throw new AppError('ROOM_NOT_FOUND');
    const allocation = await runtime.allocate({ region: room.region });
    const agents = await em.execute<{ id: string }[]>(
      `select id from room_agents where state = 'active' and report->>'agentName' = ? order by registered_at desc`,
      [allocation.name],
    );
    if (agents.length === 0) {
      // Running in Agones but not (yet, or any more) in the fleet's registry: nothing to place the room on.
      throw new AppError('ROOMS_UNAVAILABLE', {
        cause: new Error(`the allocated GameServer ${allocation.name} is not a registered room agent`),
      });
    }
    return agents.map((agent) => agent.id);
  };
}
