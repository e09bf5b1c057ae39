import type { TMember } from '@rooms/api/room-protocol';
import { describe, expect, it } from 'vitest';
import { peopleOf, seatToGrant } from './people';

let joined = 0;
const seat = (id: string, personId: string, nickname: string, extra: Partial<TMember> = {}): TMember => ({
  id,
  personId,
  nickname,
  isOwner: false,
  isGuest: false,
  joinedAt: ++joined,
  ...extra,
});

describe('people in a room', () => {
  it('are one row per account or guest browser, whatever number of devices, counted as people', () => {
    const members = [
      seat('laptop', 'olga', 'Olga', { isOwner: true }),
      seat('alice-1', 'alice', 'Alice'),
      seat('phone', 'olga', 'Olga on the phone', { isOwner: true }),
      seat('gus', 'gus', 'Gus', { isGuest: true }),
      seat('alice-2', 'alice', 'Alice'),
    ];
    const people = peopleOf(members, 'phone');
    expect(people.map((person) => [person.nickname, person.seats.length, person.isYou])).toEqual([
      // This page's own seat names its row.
      ['Olga on the phone', 2, true],
      ['Alice', 2, false],
      ['Gus', 1, false],
    ]);
    expect(people.map((person) => [person.isOwner, person.isGuest])).toEqual([
      [true, false],
      [false, false],
      [false, true],
    ]);
  });

  it('hand control to the seat that asked for it, else to the one that joined last', () => {
    const [alice] = peopleOf([seat('a-1', 'alice', 'Alice'), seat('a-2', 'alice', 'Alice')], null);
    expect(seatToGrant(alice!, [])).toBe('a-2');
    expect(seatToGrant(alice!, ['someone', 'a-1'])).toBe('a-1');
  });
});
