// GET /api/room/getPublicRoomThumbnail?id= — the public square's still of a running public room: a small JPEG
// from RoomSession.snapshot, never a second stream. One answer per room is kept for a few seconds, so a square
// full of viewers costs the room's browser one capture per interval. Private and stopped rooms have none.
import { publicRoomThumbnailPath } from '@rooms/api';
import { Room } from '@rooms/db';
import fp from 'fastify-plugin';

/** The thumbnail's width; the square shows it at about half that on a phone, a third on a desktop. */
export const THUMBNAIL_WIDTH = 320;
/** How long one capture serves every viewer; the square refreshes thumbnails every few seconds. */
export const THUMBNAIL_TTL_MS = 3000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PATH = publicRoomThumbnailPath('').split('?')[0] as string;

interface TCached {
  takenAt: number;
  still: Promise<Uint8Array | null>;
}

export const roomThumbnailsPlugin = fp(
  async (app) => {
    const cache = new Map<string, TCached>();

    async function capture(roomId: string): Promise<Uint8Array | null> {
      const room = await app.orm.em
        .fork()
        .findOne(Room, { id: roomId, isPublic: true, hiddenFromSquare: false }, { fields: ['id'] });
      const session = room ? app.roomRelay.liveSession(roomId) : undefined;
      if (!session) return null;
      return session.snapshot(THUMBNAIL_WIDTH).catch((error: unknown) => {
        app.log.warn({ err: error, roomId }, 'room thumbnail failed');
        return null;
      });
    }

    function stillOf(roomId: string): Promise<Uint8Array | null> {
      const now = Date.now();
      for (const [id, entry] of cache) if (now - entry.takenAt > THUMBNAIL_TTL_MS) cache.delete(id);
      let entry = cache.get(roomId);
      if (!entry) {
        const still = capture(roomId);
        entry = { takenAt: now, still };
        cache.set(roomId, entry);
        // A failed lookup is not kept: the next viewer asks again instead of getting the failure for seconds.
        still.catch(() => {
          if (cache.get(roomId)?.still === still) cache.delete(roomId);
        });
      }
      return entry.still;
    }

    app.get(PATH, async (request, reply) => {
      const id = (request.query as { id?: unknown }).id;
      const still = typeof id === 'string' && UUID.test(id) ? await stillOf(id) : null;
      if (!still) {
        return reply
          .code(404)
          .header('cache-control', 'no-store')
          .send({ msg: 'error', data: 'This room is not running' });
      }
      return reply
        .header('content-type', 'image/jpeg')
        .header('cache-control', `public, max-age=${THUMBNAIL_TTL_MS / 1000}`)
        .send(Buffer.from(still));
    });
  },
  { name: 'room-thumbnails', dependencies: ['database', 'room-relay'] },
);
