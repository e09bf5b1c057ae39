import { Region, Room } from '@rooms/db';
import { z } from 'zod';
import type { TContext } from '../../context';
import { liveRoomViews } from '../../domains/admin';
import { isAdministrator, protectedProcedure } from '../../trpc';
import { ZServerState } from './get-server-state.types';

export const getServerState = protectedProcedure
  .meta({
    summary:
      'The zones, the servers serving them with their capacity and load, and room start times of the last hour.',
  })
  .input(z.object({}).optional())
  .output(ZServerState)
  .query(async ({ ctx }) => {
    const [regions, running] = await Promise.all([
      ctx.em.find(Region, { enabled: true }, { orderBy: { sortOrder: 'asc', code: 'asc' } }),
      ctx.em.find(Room, { state: 'running' }, { fields: ['id', 'region'] }),
    ]);
    const node = ctx.services.node.state();
    const nodeReply = { ...node, startedAt: node.startedAt.toISOString() };
    return {
      // One server serves every enabled zone today; several nodes per zone arrive with the node registry.
      regions: regions.map((region) => ({
        code: region.code,
        name: region.name,
        description: region.description,
        runningRooms: running.filter((room) => room.region.id === region.id).length,
        nodes: [nodeReply],
      })),
      updatedAt: ctx.services.now().toISOString(),
      details: (await isAdministrator(ctx.em, ctx.session)) ? await serverDetails(ctx) : null,
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
