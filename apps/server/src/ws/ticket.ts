// Short-lived, single-use tickets for the room WebSocket: `<payload>.<signature>`, both base64url, the payload
// JSON { r: roomId, u: userId or null for a guest, g: the browser's id, s: the session of a signed-in user, k: 1 for a
// knock ticket, e: expiry
// epoch ms, n: nonce }, signed with HMAC-SHA256
// under a key derived from the app secret (so a ticket can never pass for another signed value of the app).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { OnceStore } from '@rooms/api';
import { ROOM_TICKET_TTL_MS } from '@rooms/api/room-protocol';

export interface TTicketClaims {
  roomId: string;
  userId: string | null;
  /** The guest's browser (./guest-id.ts), so a ban outlives a new nickname and a new ticket. */
  guestId: string | null;
  /** The session the ticket was fetched with: a socket is not opened, and is closed, once it ends. */
  sessionId: string | null;
  /** A knock ticket (the room's knock link): the socket may only ask to be let in. */
  knock: boolean;
  expiresAt: number;
  nonce: string;
}

interface TTicketPayload {
  r: string;
  u: string | null;
  g?: string | null;
  s?: string | null;
  k?: 1;
  e: number;
  n: string;
}

export class TicketBook {
  private readonly key: Buffer;

  /**
   * `spent`: where used nonces are kept until they expire anyway. A ticket is issued by the control plane and may
   * be redeemed on any gateway, so they live in PostgreSQL (services/once-store.ts), never in one process.
   */
  constructor(
    appSecret: string,
    private readonly spent: OnceStore,
    private readonly ttlMs = ROOM_TICKET_TTL_MS,
  ) {
    this.key = createHmac('sha256', appSecret).update('room-socket-ticket/v1').digest();
  }

  issue(
    roomId: string,
    userId: string | null,
    now: number,
    guestId: string | null = null,
    sessionId: string | null = null,
    knock = false,
  ): { ticket: string; expiresAt: number } {
    const expiresAt = now + this.ttlMs;
    const payload: TTicketPayload = {
      r: roomId,
      u: userId,
      g: guestId,
      s: sessionId,
      ...(knock ? { k: 1 as const } : {}),
      e: expiresAt,
      n: randomBytes(16).toString('base64url'),
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return { ticket: `${body}.${this.sign(body)}`, expiresAt };
  }

  /** The claims of a valid, unexpired ticket for this room, spending it; null otherwise (or spent before). */
  async redeem(ticket: string, roomId: string, now: number): Promise<TTicketClaims | null> {
    const claims = this.verify(ticket, now);
    if (!claims || claims.roomId !== roomId) return null;
    const first = await this.spent.claim(`room-ticket:${claims.nonce}`, new Date(claims.expiresAt));
    return first ? claims : null;
  }

  private verify(ticket: string, now: number): TTicketClaims | null {
    if (ticket.length > 1024) return null;
    const [body, signature, extra] = ticket.split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    let payload: TTicketPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TTicketPayload;
    } catch {
      return null;
    }
    if (typeof payload.e !== 'number' || payload.e <= now) return null;
    return {
      roomId: payload.r,
      userId: payload.u,
      guestId: payload.g ?? null,
      sessionId: payload.s ?? null,
      knock: payload.k === 1,
      expiresAt: payload.e,
      nonce: payload.n,
    };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
