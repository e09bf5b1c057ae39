// The relay's book of sockets: the cap on sockets that never join, and which sockets a session end reaches.
import type { TRoomErrorCode } from '@rooms/api/room-protocol';
import { describe, expect, it } from 'vitest';
import type { TJoinIdentity } from '../rooms/hub/room-hub';
import { ConnectionBook, MAX_UNJOINED_PER_ADDRESS, MAX_UNJOINED_PER_PERSON } from './connection-book';

function connection(identity: TJoinIdentity) {
  return {
    identity,
    ended: undefined as TRoomErrorCode | undefined,
    end(code: TRoomErrorCode) {
      this.ended = code;
    },
  };
}

describe('sockets waiting to join', () => {
  it('are capped per account, and joining or leaving frees a place', () => {
    const book = new ConnectionBook();
    const waiting = Array.from({ length: MAX_UNJOINED_PER_PERSON }, () => connection({ userId: 'max' }));
    for (const socket of waiting) expect(book.admit(socket)).toBe(true);
    expect(book.admit(connection({ userId: 'max' }))).toBe(false);
    // Another account, even at the same address, has its own places.
    expect(book.admit(connection({ userId: 'ann', ip: '10.0.0.1' }))).toBe(true);

    book.joined(waiting[0]!);
    expect(book.admit(connection({ userId: 'max' }))).toBe(true);
    book.remove(waiting[1]!);
    expect(book.admit(connection({ userId: 'max' }))).toBe(true);
    expect(book.admit(connection({ userId: 'max' }))).toBe(false);
  });

  it('are capped per guest browser, and more loosely per guest address', () => {
    const book = new ConnectionBook();
    const guest = (guestId: string) => connection({ userId: null, guestId, ip: '10.0.0.9' });
    for (let i = 0; i < MAX_UNJOINED_PER_PERSON; i++) expect(book.admit(guest('browser-1'))).toBe(true);
    expect(book.admit(guest('browser-1'))).toBe(false);
    for (let i = MAX_UNJOINED_PER_PERSON; i < MAX_UNJOINED_PER_ADDRESS; i++) {
      expect(book.admit(guest(`browser-${i}`))).toBe(true);
    }
    expect(book.admit(guest('browser-new'))).toBe(false);
    expect(book.admit(connection({ userId: null, guestId: 'elsewhere', ip: '10.0.0.10' }))).toBe(true);
  });
});

describe('a session end', () => {
  it('ends the sockets of that session, or of every session of the user but the one kept', async () => {
    const book = new ConnectionBook();
    const laptop = connection({ userId: 'max', sessionId: 's1' });
    const phone = connection({ userId: 'max', sessionId: 's2' });
    const other = connection({ userId: 'ann', sessionId: 's3' });
    const guest = connection({ userId: null, guestId: 'g' });
    for (const socket of [laptop, phone, other, guest]) book.admit(socket);

    expect(book.endSessions({ userId: 'max', exceptSessionId: 's1' })).toBe(1);
    expect([laptop.ended, phone.ended]).toEqual([undefined, 'SESSION_ENDED']);
    expect(book.endSessions({ sessionId: 's1' })).toBe(1);
    expect(laptop.ended).toBe('SESSION_ENDED');

    // The periodic re-check ends what the database no longer knows as live.
    expect(await book.recheckSessions(async () => new Set(['s3']))).toBe(0);
    expect(await book.recheckSessions(async () => new Set())).toBe(1);
    expect([other.ended, guest.ended]).toEqual(['SESSION_ENDED', undefined]);
    expect(book.size).toBe(1);
  });
});
