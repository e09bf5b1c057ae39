// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import {
  INITIAL_KNOCK,
  knockTicketFields,
  nextKnockState,
  rememberedKnockToken,
  rememberKnockToken,
} from './knock-state';

afterEach(() => sessionStorage.clear());

describe('a knocking page', () => {
  it('waits, then keeps the pass it was admitted with for the tickets that follow', () => {
    expect(knockTicketFields('room-1', 'token')).toEqual({ knock: 'token' });
    const waiting = nextKnockState('room-1', INITIAL_KNOCK, { type: 'knock/waiting', id: 'k-1' });
    expect(waiting.waiting).toBe(true);
    const admitted = nextKnockState('room-1', waiting, { type: 'knock/admitted', pass: 'the-pass' });
    expect(admitted.waiting).toBe(false);
    expect(knockTicketFields('room-1', 'token')).toEqual({ knock: 'token', admission: 'the-pass' });
    // Another room's tickets, and a page that came without a knock link, carry nothing of it.
    expect(knockTicketFields('room-2', 'token')).toEqual({ knock: 'token' });
    expect(knockTicketFields('room-1', undefined)).toEqual({});
  });

  it('holds the knocks waiting and who may answer them, as the room last said', () => {
    const knock = { id: 'k-1', nickname: 'Kim', isGuest: true, at: 1 };
    const pending = nextKnockState('room-1', INITIAL_KNOCK, { type: 'knock/pending', knocks: [knock] });
    expect(pending.knocks).toEqual([knock]);
    const trusted = nextKnockState('room-1', pending, { type: 'knock/trusted', memberIds: ['m-2'] });
    expect(trusted).toEqual({ waiting: false, knocks: [knock], trusted: ['m-2'] });
    expect(nextKnockState('room-1', trusted, { type: 'knock/pending', knocks: [] }).knocks).toEqual([]);
  });

  it('remembers the knock link’s token for a reload of this tab, until forgotten', () => {
    expect(rememberedKnockToken('room-1')).toBeNull();
    rememberKnockToken('room-1', 'token');
    expect(rememberedKnockToken('room-1')).toBe('token');
    rememberKnockToken('room-1', null);
    expect(rememberedKnockToken('room-1')).toBeNull();
  });
});
