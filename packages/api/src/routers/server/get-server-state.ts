import { Region, Room } from '@rooms/db';
import { z } from 'zod';
import type { TContext } from '../../context';
import { liveRoomViews } from '../../domains/admin';
import { AGENT_LOST_AFTER_MS, liveAgents } from '../../domains/fleet';
import type { TNodeState } from '../../services/node-monitor';
import { isAdministrator, protectedProcedure } from '../../trpc';
import { type TServerNode, type TServerView, ZServerNode, ZServerState } from './get-server-state.types';

/** A server's state as /serverstate shows it, and as its fleet heartbeat reports it. */
export function toServerNode(state: TNodeState): TServerNode {
  return { ...state, startedAt: state.startedAt.toISOString() };
}

export const getServerState = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/server/getServerState', tag: 'Server', errors: [] } })
  .meta({
    summary:
      'The zones, the servers serving them with their rooms against capacity and room start times of the last hour; each server’s host (name, CPU, memory) for administrators only.',
  })
  .input(z.object({}).optional())
  .output(ZServerState)
  .query(async ({ ctx }) => {
    const [regions, running, agents, admin] = await Promise.all([
      ctx.em.find(Region, { enabled: true }, { orderBy: { sortOrder: 'asc', code: 'asc' } }),
      ctx.em.find(Room, { state: 'running' }, { fields: ['id', 'region'] }),
      liveAgents(ctx.em),
      isAdministrator(ctx.em, ctx.session),
    ]);
    // Every server of a zone as its last heartbeat described it (this one as it is now); one silent past the
    // threshold is left out (the sweep is about to mark it lost). A zone no server has registered in yet shows
    // this one, which serves it.
    const heardSince = ctx.services.now().getTime() - AGENT_LOST_AFTER_MS;
    const here = toServerNode(ctx.services.node.state());
    const view = ({ rooms, startLatency, ...host }: TServerNode): TServerView => ({
      rooms,
      startLatency,
      host: admin ? host : null,
    });
    const own = ctx.services.ownAgents();
    const nodesOf = (regionId: string) =>
      agents.flatMap((agent) => {
        if (agent.regionId !== regionId) return [];
        if (own.has(agent.id)) return [here];
        if (agent.heartbeatAt.getTime() <= heardSince) return [];
        const report = ZServerNode.safeParse(agent.report);
        return report.success ? [report.data] : [];
      });
    return {
      regions: regions.map((region) => {
        const nodes = nodesOf(region.id);
        return {
          code: region.code,
          name: region.name,
          description: region.description,
          runningRooms: running.filter((room) => room.region.id === region.id).length,
          nodes: (nodes.length > 0 ? nodes : [here]).map(view),
        };
      }),
      updatedAt: ctx.services.now().toISOString(),
      details: admin ? await serverDetails(ctx) : null,
    };
  });

async function serverDetails(ctx: TContext) {
  const { services } = ctx;
  const memory = process.memoryUsage();
  return {
    rooms: await liveRoomViews({
      em: ctx.em,
      rooms: services.rooms,
      presence: services.presence,
      now: services.now(),
    }),
    process: {
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      uptimeSeconds: Math.round(process.uptime()),
    },
  };
}
