// GET /ws/room/:roomId/downloads/:downloadId?key=…: the controller's browser saves a file the room downloaded.
// Served where the room's hub is, beside the room's socket (../rooms/hub/room-files-out.ts holds the offers). The
// key is the capability: random, single use, sent only to the controller over their socket, and honoured only while
// that person still controls the room. The answer is always an attachment of opaque or plainly safe type, never
// sniffed, so nothing of the file runs in our origin; the file is deleted once sent.
import { createReadStream } from 'node:fs';
import { AppError, errorSpec, type TAppErrorCode } from '@rooms/api';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { attachmentDisposition } from '../rooms/engine/download-name';
import { discard } from '../rooms/hub/room-files-out';
import type { RoomRelay } from './room-relay';

const ZDownloadRequest = z.object({
  params: z.object({
    roomId: z.string().min(1).max(128),
    downloadId: z.uuid(),
  }),
  query: z.object({ key: z.string().min(1).max(128) }),
});

export const ROOM_DOWNLOAD_PATH = '/ws/room/:roomId/downloads/:downloadId';

export function registerRoomDownloadRoute(app: FastifyInstance, relay: Pick<RoomRelay, 'hub'>): void {
  app.get(ROOM_DOWNLOAD_PATH, async (request, reply) => {
    const parsed = ZDownloadRequest.safeParse({ params: request.params, query: request.query });
    if (!parsed.success) return refuse(reply, 'DOWNLOAD_LINK_INVALID');
    const { roomId, downloadId } = parsed.data.params;
    const file = relay.hub(roomId)?.takeDownload(downloadId, parsed.data.query.key);
    if (!file) return refuse(reply, 'DOWNLOAD_NOT_AVAILABLE');
    const stream = createReadStream(file.path);
    // Sent, cut short or failed: the one fetch is spent and the file goes.
    stream.once('close', () => void discard(file.path));
    return reply
      .header('Content-Type', file.mime)
      .header('Content-Length', String(file.size))
      .header('Content-Disposition', attachmentDisposition(file.name))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "sandbox; default-src 'none'")
      .header('Cache-Control', 'no-store')
      .send(stream);
  });
}

function refuse(reply: FastifyReply, code: TAppErrorCode): FastifyReply {
  const error = new AppError(code);
  return reply
    .code(errorSpec(code).status)
    .header('Cache-Control', 'no-store')
    .send({ msg: 'error', data: error.message });
}
