// The keys of a room's offered downloads (./room-files-out.ts): `<expiry>.<signature>`, the expiry in base 36
// epoch ms and the signature HMAC-SHA256 of the room, the offer and the expiry, under a key derived from the app
// secret (distinct from the tickets'). Whoever holds the secret can tell a key of this room and this offer, still
// valid, from anything else without asking the room: a gateway refuses a forged, expired or other room's key before
// it calls the room's agent (../../fleet/gateway-downloads.ts). The hub that made the offer still holds the key
// itself, and honours it once, for the member in control it was offered to.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Longer than any key this makes: what is longer is refused unread. */
const MAX_KEY_LENGTH = 128;

export class DownloadKeys {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    this.key = createHmac('sha256', appSecret).update('room-download-key/v1').digest();
  }

  /** The key of offer `downloadId` of room `roomId`, good until `expiresAt` (epoch ms). */
  issue(roomId: string, downloadId: string, expiresAt: number): string {
    const expiry = expiresAt.toString(36);
    return `${expiry}.${this.sign(roomId, downloadId, expiry)}`;
  }

  /** Whether `key` was issued for this room and offer and has not expired at `now`. */
  check(roomId: string, downloadId: string, key: string, now: number): boolean {
    if (key.length > MAX_KEY_LENGTH) return false;
    const [expiry, signature, extra] = key.split('.');
    if (!expiry || !signature || extra !== undefined || !/^[0-9a-z]{1,12}$/.test(expiry)) return false;
    const expected = Buffer.from(this.sign(roomId, downloadId, expiry));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    return Number.parseInt(expiry, 36) > now;
  }

  private sign(roomId: string, downloadId: string, expiry: string): string {
    return createHmac('sha256', this.key).update(`${roomId}\n${downloadId}\n${expiry}`).digest('base64url');
  }
}
