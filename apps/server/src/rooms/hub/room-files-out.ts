// What leaves a room for its controller, on the hub's side: copied text and refused downloads are told to the
// controller alone; a finished download is offered to the controller alone, with a single-use key to fetch it over
// HTTP (../../ws/room-download-route.ts; through a gateway, ../../fleet/gateway-downloads.ts). An offer holds while
// its controller stays in control, for OFFER_TTL_MS at most, for one fetch; then its file is deleted. Nobody else is
// ever told of it.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { DOWNLOAD_MAX_BYTES } from '@rooms/api/room-protocol';
import type { TRoomFileOut } from '../room-session';
import type { DownloadKeys } from './download-keys';
import type { HubPeer } from './hub-context';

/** Long enough to read the prompt and click; a file nobody fetched does not stay on the server's disk. */
export const OFFER_TTL_MS = 5 * 60_000;
/** Offers waiting per room; a newer one pushes the oldest out (its file deleted). */
export const MAX_WAITING_OFFERS = 3;

export interface TOfferedFile {
  path: string;
  name: string;
  size: number;
  mime: string;
}

interface TOffer extends TOfferedFile {
  key: Buffer;
  /** The member it was offered to: only while that member controls the room can it be fetched. */
  memberId: string;
  timer: NodeJS.Timeout;
}

export interface TRoomFilesOutOptions {
  roomId: string;
  /** The member in control of the room now, if anyone is. */
  controller(): { id: string; peer: HubPeer } | undefined;
  now(): number;
  ttlMs?: number;
  /**
   * Whether the fetch is served (../../ws/room-download-route.ts, or a gateway in front of this agent); where it is
   * not, the controller is told the file stayed in the room instead of given a dead link. True unless said.
   */
  served?: boolean;
  /** Signs each offer's key for the room, the offer and its expiry, so a gateway can check it (./download-keys.ts). */
  keys?: DownloadKeys;
}

export class RoomFilesOut {
  private readonly offers = new Map<string, TOffer>();

  constructor(private readonly options: TRoomFilesOutOptions) {}

  handle(event: TRoomFileOut): void {
    const controller = this.options.controller();
    switch (event.kind) {
      case 'copied':
        controller?.peer.send({ type: 'clipboard/copied', text: event.text, truncated: event.truncated });
        return;
      case 'download-refused':
        controller?.peer.send({
          type: 'download/refused',
          name: event.name,
          reason: event.reason,
          maxBytes: DOWNLOAD_MAX_BYTES,
        });
        return;
      case 'download':
        if (controller && this.options.served !== false) {
          this.offer(event, controller);
          return;
        }
        void discard(event.path);
        controller?.peer.send({
          type: 'download/refused',
          name: event.name,
          reason: 'unavailable',
          maxBytes: DOWNLOAD_MAX_BYTES,
        });
        return;
    }
  }

  /**
   * The offered file for one fetch, if `key` is its key and its member still controls the room; the offer ends
   * either way a right key is shown, and the caller deletes the file (`discard`) once it is sent.
   */
  take(id: string, key: string): TOfferedFile | undefined {
    const offer = this.offers.get(id);
    if (!offer) return undefined;
    const given = Buffer.from(key);
    if (given.length !== offer.key.length || !timingSafeEqual(given, offer.key)) return undefined;
    this.offers.delete(id);
    clearTimeout(offer.timer);
    if (this.options.controller()?.id !== offer.memberId) {
      void discard(offer.path);
      return undefined;
    }
    return { path: offer.path, name: offer.name, size: offer.size, mime: offer.mime };
  }

  /** The room stopped: every waiting file goes (the run's directory goes with the run as well). */
  close(): void {
    for (const id of [...this.offers.keys()]) this.drop(id);
  }

  private offer(file: TOfferedFile, controller: { id: string; peer: HubPeer }): void {
    while (this.offers.size >= MAX_WAITING_OFFERS) this.drop(this.offers.keys().next().value as string);
    const id = randomUUID();
    const ttl = this.options.ttlMs ?? OFFER_TTL_MS;
    const expiresAt = this.options.now() + ttl;
    const key =
      this.options.keys?.issue(this.options.roomId, id, expiresAt) ?? randomBytes(32).toString('base64url');
    const timer = setTimeout(() => this.drop(id), ttl);
    timer.unref();
    this.offers.set(id, { ...file, key: Buffer.from(key), memberId: controller.id, timer });
    controller.peer.send({
      type: 'download/offered',
      id,
      name: file.name,
      size: file.size,
      mime: file.mime,
      url: downloadPath(this.options.roomId, id, key),
      expiresAt,
    });
  }

  private drop(id: string): void {
    const offer = this.offers.get(id);
    if (!offer) return;
    this.offers.delete(id);
    clearTimeout(offer.timer);
    void discard(offer.path);
  }
}

/** Where the controller's browser fetches an offered file: beside the room's socket, so it reaches the same host. */
export function downloadPath(roomId: string, id: string, key: string): string {
  return `/ws/room/${encodeURIComponent(roomId)}/downloads/${encodeURIComponent(id)}?key=${encodeURIComponent(key)}`;
}

export function discard(path: string): Promise<void> {
  return rm(path, { force: true }).catch(() => {});
}
