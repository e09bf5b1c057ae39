// GET /fleet/rooms/:roomId/downloads/:downloadId on a room agent: a gateway fetches a file the room offered its
// controller, for the controller's browser (./gateway-downloads.ts). Only a gateway's signed call is taken (never a
// browser, another agent, or the control plane), the offer's key comes in a header and is checked by the room's hub
// as a single server checks it (../ws/room-download-route.ts): signed for this room and offer, once, while the
// member it was offered to still controls the room. The file goes once, as it is, and is then deleted.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { refuseDownload, sendOfferedFile, ZDownloadParams } from '../ws/room-download-route';
import type { RoomRelay } from '../ws/room-relay';
import { checkCaller, type TFleetAuth } from './fleet-auth';

/** The offer's key, from the controller's link: in a header, so no log of the agent's URLs holds it. */
export const DOWNLOAD_KEY_HEADER = 'x-room-download-key';
/** What the gateway answers the browser with: the offer's name, size and type, as base64url JSON. */
export const DOWNLOAD_FILE_HEADER = 'x-room-download-file';

export const ZDownloadFile = z.object({
  name: z.string().min(1).max(200),
  size: z.number().int().nonnegative(),
  mime: z.string().min(1).max(200),
});

export const AGENT_DOWNLOAD_PATH = '/fleet/rooms/:roomId/downloads/:downloadId';

/** The agent's path for one offer, which the gateway's signed call names. */
export function agentDownloadPath(roomId: string, downloadId: string): string {
  return `/fleet/rooms/${encodeURIComponent(roomId)}/downloads/${encodeURIComponent(downloadId)}`;
}

export function registerAgentDownloads(
  app: FastifyInstance,
  options: { relay: Pick<RoomRelay, 'hub' | 'downloadKeys'>; auth: TFleetAuth },
): void {
  app.get(AGENT_DOWNLOAD_PATH, async (request, reply) => {
    const checked = checkCaller(request, options.auth, ['gateway']);
    if (!checked.ok) {
      return reply.code(checked.status).send({
        code: 'FORBIDDEN',
        message: `Only a gateway of this install may fetch a room's download: ${checked.reason}`,
      });
    }
    const params = ZDownloadParams.safeParse(request.params);
    const key = request.headers[DOWNLOAD_KEY_HEADER];
    if (!params.success || typeof key !== 'string' || key.length === 0 || key.length > 128)
      return refuseDownload(reply, 'DOWNLOAD_LINK_INVALID');
    const { roomId, downloadId } = params.data;
    if (!options.relay.downloadKeys.check(roomId, downloadId, key, Date.now()))
      return refuseDownload(reply, 'DOWNLOAD_NOT_AVAILABLE');
    const file = options.relay.hub(roomId)?.takeDownload(downloadId, key);
    if (!file) return refuseDownload(reply, 'DOWNLOAD_NOT_AVAILABLE');
    const described = { name: file.name, size: file.size, mime: file.mime };
    reply.header(DOWNLOAD_FILE_HEADER, Buffer.from(JSON.stringify(described)).toString('base64url'));
    return sendOfferedFile(reply, file);
  });
}
