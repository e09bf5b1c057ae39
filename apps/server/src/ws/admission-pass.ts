// The pass an admitted knocker's page keeps (knock/admitted): `<payload>.<signature>`, base64url, the payload JSON
// { r: roomId, u: userId or null, g: the browser's id, e: expiry epoch ms }, signed with HMAC-SHA256 under a key
// derived from the app secret (every role holds it, so the hub signs on whichever agent runs the room and POST
// /ws/ticket checks on the control plane). It stands for the share password: a member's ticket again for the same
// account or guest browser, after a dropped connection or the room's restart. Bans and removals still hold.
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Long enough for a day's session in the room. A pass outlives a restart and the knock link being turned off (as
 * people let in stay when the password changes); the owner keeps someone out by removing or banning them.
 */
export const ADMISSION_PASS_TTL_MS = 12 * 60 * 60_000;

interface TPassPayload {
  r: string;
  u: string | null;
  g: string | null;
  e: number;
}

export class AdmissionPasses {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    this.key = createHmac('sha256', appSecret).update('room-knock-admission/v1').digest();
  }

  issue(roomId: string, person: { userId: string | null; guestId?: string | null }, now: number): string {
    const payload: TPassPayload = {
      r: roomId,
      u: person.userId,
      g: person.guestId ?? null,
      e: now + ADMISSION_PASS_TTL_MS,
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /**
   * Whether the pass lets this caller in: signed here, unexpired, for this room, and for this account (signed in)
   * or this guest browser (not signed in), so a pass passed on to someone else is worth nothing.
   */
  admits(
    pass: string,
    roomId: string,
    caller: { userId: string | null; guestId: string },
    now: number,
  ): boolean {
    if (pass.length > 1024) return false;
    const [body, signature, extra] = pass.split('.');
    if (!body || !signature || extra !== undefined) return false;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    let payload: TPassPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TPassPayload;
    } catch {
      return false;
    }
    if (typeof payload.e !== 'number' || payload.e <= now || payload.r !== roomId) return false;
    return payload.u !== null
      ? payload.u === caller.userId
      : caller.userId === null && payload.g === caller.guestId;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
