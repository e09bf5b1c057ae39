import { describe, expect, it } from 'vitest';
import { ADMISSION_PASS_TTL_MS, AdmissionPasses } from './admission-pass';

const passes = new AdmissionPasses('s'.repeat(40));
const now = 1_800_000_000_000;

describe('an admitted knocker’s pass', () => {
  it('admits the same guest browser, or the same account, to the same room while it lasts', () => {
    const guest = passes.issue('room-1', { userId: null, guestId: 'browser-1' }, now);
    expect(passes.admits(guest, 'room-1', { userId: null, guestId: 'browser-1' }, now + 1000)).toBe(true);
    const user = passes.issue('room-1', { userId: 'user-1', guestId: 'browser-1' }, now);
    // An account's pass goes with the account, on any of its browsers.
    expect(passes.admits(user, 'room-1', { userId: 'user-1', guestId: 'browser-2' }, now)).toBe(true);
  });

  it('admits nobody else, nowhere else, not after it expires, and nothing forged or signed with another secret', () => {
    const guest = passes.issue('room-1', { userId: null, guestId: 'browser-1' }, now);
    expect(passes.admits(guest, 'room-1', { userId: null, guestId: 'browser-2' }, now)).toBe(false);
    // Signed in since: the pass was the guest browser's, not the account's.
    expect(passes.admits(guest, 'room-1', { userId: 'user-1', guestId: 'browser-1' }, now)).toBe(false);
    expect(passes.admits(guest, 'room-2', { userId: null, guestId: 'browser-1' }, now)).toBe(false);
    expect(
      passes.admits(guest, 'room-1', { userId: null, guestId: 'browser-1' }, now + ADMISSION_PASS_TTL_MS),
    ).toBe(false);
    const [body] = guest.split('.');
    const forgedBody = Buffer.from(
      JSON.stringify({ r: 'room-1', u: 'user-1', g: null, e: now + 60_000 }),
    ).toString('base64url');
    expect(
      passes.admits(
        `${forgedBody}.${guest.split('.')[1]}`,
        'room-1',
        { userId: 'user-1', guestId: 'x' },
        now,
      ),
    ).toBe(false);
    expect(passes.admits(`${body}`, 'room-1', { userId: null, guestId: 'browser-1' }, now)).toBe(false);
    const other = new AdmissionPasses('t'.repeat(40)).issue(
      'room-1',
      { userId: null, guestId: 'browser-1' },
      now,
    );
    expect(passes.admits(other, 'room-1', { userId: null, guestId: 'browser-1' }, now)).toBe(false);
  });
});
