import { Room } from '@rooms/db';
import { z } from 'zod';
import { publicProcedure } from '../../trpc';
import { publicRoomThumbnailPath, ZPublicRoom } from './share.types';

export const getPublicRoom = publicProcedure
  .meta({
    summary:
      'The public square: running rooms their owners made public, busiest first, each with a thumbnail address.',
  })
  .input(z.object({}).optional())
  .output(z.array(ZPublicRoom))
  .query(async ({ ctx }) => {
    // Private and stopped rooms never show; a room that stops drops out at the next refresh.
    const rooms = await ctx.em.find(
      Room,
      { isPublic: true, hiddenFromSquare: false, state: 'running' },
      { populate: ['region', 'owner'], orderBy: { lastStartedAt: 'desc', id: 'asc' }, limit: 200 },
    );
    const items = rooms.map((room) => ({
      id: room.id,
      name: room.name,
      remark: room.remark,
      owner: room.owner.username,
      region: { code: room.region.code, name: room.region.name },
      memberCount: ctx.services.presence.memberCount(room.id),
      maxConnections: room.maxConnections,
      startedAt: room.lastStartedAt ?? null,
      thumbnailUrl: publicRoomThumbnailPath(room.id),
    }));
    // Stable for equal counts: the newest started first, as the query ordered them.
    return items.sort((left, right) => right.memberCount - left.memberCount);
  });
