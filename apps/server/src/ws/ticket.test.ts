import { describe, expect, it } from 'vitest';
import { MemoryOnceStore } from '../testing/memory-once-store';
import { TicketBook } from './ticket';

const secret = 'a-secret-that-is-long-enough-for-hmac-keys';
const now = 1_700_000_000_000;

describe('room tickets', () => {
  it('are redeemed once, for their room, before they expire', async () => {
    const book = new TicketBook(secret, new MemoryOnceStore({ now: () => now }));
    const { ticket, expiresAt } = book.issue('room-1', 'user-1', now);
    expect(expiresAt).toBe(now + 60_000);
    expect(await book.redeem(ticket, 'room-2', now)).toBeNull();
    expect(await book.redeem(ticket, 'room-1', now + 1000)).toMatchObject({
      roomId: 'room-1',
      userId: 'user-1',
    });
    expect(await book.redeem(ticket, 'room-1', now + 2000)).toBeNull();
  });

  it('carry a guest as a null user', async () => {
    const book = new TicketBook(secret, new MemoryOnceStore({ now: () => now }));
    expect((await book.redeem(book.issue('room-1', null, now).ticket, 'room-1', now))?.userId).toBeNull();
  });

  it('expire after 60 seconds', async () => {
    const book = new TicketBook(secret, new MemoryOnceStore({ now: () => now }));
    const { ticket } = book.issue('room-1', null, now);
    expect(await book.redeem(ticket, 'room-1', now + 60_000)).toBeNull();
  });

  it('are refused when tampered with or signed with another secret', async () => {
    const book = new TicketBook(secret, new MemoryOnceStore({ now: () => now }));
    const { ticket } = book.issue('room-1', 'user-1', now);
    const [body, signature] = ticket.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), u: 'owner' }),
    ).toString('base64url');
    expect(await book.redeem(`${forged}.${signature}`, 'room-1', now)).toBeNull();
    expect(
      await new TicketBook(`${secret}-other`, new MemoryOnceStore({ now: () => now })).redeem(
        ticket,
        'room-1',
        now,
      ),
    ).toBeNull();
    expect(await book.redeem('garbage', 'room-1', now)).toBeNull();
    expect(await book.redeem(`${ticket}.x`, 'room-1', now)).toBeNull();
  });
});
