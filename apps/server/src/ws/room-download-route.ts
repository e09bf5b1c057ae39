// GET /ws/room/:roomId/downloads/:downloadId?key=…: the controller's browser saves a file the room downloaded.
// Served where the room's hub is, beside the room's socket (../rooms/hub/room-files-out.ts holds the offers); in a
// fleet, a gateway serves the same path and fetches the file from the room's agent (../fleet/gateway-downloads.ts,
// ../fleet/agent-downloads.ts), with what this module shares. The key is the capability: signed for the room and
// the offer (../rooms/hub/download-keys.ts), single use, sent only to the controller over their socket, and honoured
// only while that person still controls the room. The answer is always an attachment of opaque or plainly safe
// type, never sniffed, so nothing of the file runs in our origin; the file is deleted once sent.
import { createReadStream } from 'node:fs';
import { AppError, errorSpec, type TAppErrorCode } from '@rooms/api';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { attachmentDisposition } from '../rooms/engine/download-name';
import { discard, type TOfferedFile } from '../rooms/hub/room-files-out';
import type { RoomRelay } from './room-relay';

export const ZDownloadParams = z.object({
  roomId: z.string().min(1).max(128),
  downloadId: z.uuid(),
});

const ZDownloadRequest = z.object({
  params: ZDownloadParams,
  query: z.object({ key: z.string().min(1).max(128) }),
});

export const ROOM_DOWNLOAD_PATH = '/ws/room/:roomId/downloads/:downloadId';

/** The room, the offer and its key of a controller's fetch, or null when the request is not one. */
export function downloadRequestOf(request: {
  params: unknown;
  query: unknown;
}): { roomId: string; downloadId: string; key: string } | null {
  const parsed = ZDownloadRequest.safeParse({ params: request.params, query: request.query });
  return parsed.success ? { ...parsed.data.params, key: parsed.data.query.key } : null;
}

export function registerRoomDownloadRoute(
  app: FastifyInstance,
  relay: Pick<RoomRelay, 'hub' | 'downloadKeys'>,
): void {
  app.get(ROOM_DOWNLOAD_PATH, async (request, reply) => {
    const fetch = downloadRequestOf(request);
    if (!fetch) return refuseDownload(reply, 'DOWNLOAD_LINK_INVALID');
    const { roomId, downloadId, key } = fetch;
    if (!relay.downloadKeys.check(roomId, downloadId, key, Date.now()))
      return refuseDownload(reply, 'DOWNLOAD_NOT_AVAILABLE');
    const file = relay.hub(roomId)?.takeDownload(downloadId, key);
    if (!file) return refuseDownload(reply, 'DOWNLOAD_NOT_AVAILABLE');
    return sendOfferedFile(reply, file);
  });
}

/** Sends a taken offer's file as an attachment, and deletes it once the one fetch is over. */
export function sendOfferedFile(reply: FastifyReply, file: TOfferedFile): FastifyReply {
  const stream = createReadStream(file.path);
  // Sent, cut short or failed: the one fetch is spent and the file goes.
  stream.once('close', () => void discard(file.path));
  return withDownloadHeaders(reply, file).send(stream);
}

/** The headers of every download answer: an attachment of the offer's type and size, never sniffed or cached. */
export function withDownloadHeaders(
  reply: FastifyReply,
  file: Pick<TOfferedFile, 'name' | 'size' | 'mime'>,
): FastifyReply {
  return reply
    .header('Content-Type', file.mime)
    .header('Content-Length', String(file.size))
    .header('Content-Disposition', attachmentDisposition(file.name))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "sandbox; default-src 'none'")
    .header('Cache-Control', 'no-store');
}

export function refuseDownload(reply: FastifyReply, code: TAppErrorCode): FastifyReply {
  const error = new AppError(code);
  return reply
    .code(errorSpec(code).status)
    .header('Cache-Control', 'no-store')
    .send({ msg: 'error', data: error.message });
}
