// The public square: running rooms their owners made public, busiest first.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Room } from '@rooms/db';
import { publicRoomThumbnailPath, type TPublicRoom } from '../../routers/room/share.types';
import type { RoomPresence } from '../../services/ports';

export async function publicSquare(em: EntityManager, presence: RoomPresence): Promise<TPublicRoom[]> {
  // Private and stopped rooms never show; a room that stops drops out at the next refresh.
  const rooms = await em.find(
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
    memberCount: presence.memberCount(room.id),
    maxConnections: room.maxConnections,
    startedAt: room.lastStartedAt ?? null,
    thumbnailUrl: publicRoomThumbnailPath(room.id),
  }));
  // Stable for equal counts: the newest started first, as the query ordered them.
  return items.sort((left, right) => right.memberCount - left.memberCount);
}
