import { describe, expect, it } from 'vitest';
import { TicketBook } from './ticket';

const secret = 'a-secret-that-is-long-enough-for-hmac-keys';
const now = 1_700_000_000_000;

describe('room tickets', () => {
  it('are redeemed once, for their room, before they expire', () => {
    const book = new TicketBook(secret);
    const { ticket, expiresAt } = book.issue('room-1', 'user-1', now);
    expect(expiresAt).toBe(now + 60_000);
    expect(book.redeem(ticket, 'room-2', now)).toBeNull();
    expect(book.redeem(ticket, 'room-1', now + 1000)).toMatchObject({ roomId: 'room-1', userId: 'user-1' });
    expect(book.redeem(ticket, 'room-1', now + 2000)).toBeNull();
  });

  it('carry a guest as a null user', () => {
    const book = new TicketBook(secret);
    expect(book.redeem(book.issue('room-1', null, now).ticket, 'room-1', now)?.userId).toBeNull();
  });

  it('expire after 60 seconds', () => {
    const book = new TicketBook(secret);
    const { ticket } = book.issue('room-1', null, now);
    expect(book.redeem(ticket, 'room-1', now + 60_000)).toBeNull();
  });

  it('are refused when tampered with or signed with another secret', () => {
    const book = new TicketBook(secret);
    const { ticket } = book.issue('room-1', 'user-1', now);
    const [body, signature] = ticket.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), u: 'owner' }),
    ).toString('base64url');
    expect(book.redeem(`${forged}.${signature}`, 'room-1', now)).toBeNull();
    expect(new TicketBook(`${secret}-other`).redeem(ticket, 'room-1', now)).toBeNull();
    expect(book.redeem('garbage', 'room-1', now)).toBeNull();
    expect(book.redeem(`${ticket}.x`, 'room-1', now)).toBeNull();
  });
});
