// A participant's browser, named by a random id in a signed, HttpOnly cookie that POST /ws/ticket sets once per
// browser session, signed in or not. Tickets carry it, so a ban follows the person through a new nickname, a new
// ticket and a login; the cookie has no expiry (it ends with the browser session) and only travels to /ws/.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const GUEST_COOKIE = 'rooms_guest';

export class GuestIds {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    this.key = createHmac('sha256', appSecret).update('room-guest-id/v1').digest();
  }

  /** The guest id of a valid cookie in this Cookie header, else null. */
  fromCookieHeader(header: string | undefined): string | null {
    if (!header) return null;
    for (const part of header.split(';')) {
      const [name, value] = part.trim().split('=', 2);
      if (name === GUEST_COOKIE && value) return this.verify(value);
    }
    return null;
  }

  /** A fresh id and the Set-Cookie header that keeps it for this browser session. */
  issue(secure: boolean): { guestId: string; setCookie: string } {
    const guestId = randomBytes(16).toString('base64url');
    const value = `${guestId}.${this.sign(guestId)}`;
    const flags = ['Path=/ws/', 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])];
    return { guestId, setCookie: `${GUEST_COOKIE}=${value}; ${flags.join('; ')}` };
  }

  private verify(value: string): string | null {
    const [guestId, signature, extra] = value.split('.');
    if (!guestId || !signature || extra !== undefined || guestId.length > 64) return null;
    const expected = Buffer.from(this.sign(guestId));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) ? guestId : null;
  }

  private sign(guestId: string): string {
    return createHmac('sha256', this.key).update(guestId).digest('base64url');
  }
}
