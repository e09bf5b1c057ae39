// The room's members as people: the server lists seats (one per connection), and one account on a laptop and a
// phone, or one guest in two tabs, is two seats of one person (their `personId`). The members list shows one row
// per person and counts people; control still goes seat by seat.
import type { TMember } from '@rooms/api/room-protocol';

export interface TPerson {
  personId: string;
  /** The name the row shows: this page's own seat's when it is one of them, else the first seat's. */
  nickname: string;
  /** Oldest first; at least one. */
  seats: TMember[];
  isOwner: boolean;
  isGuest: boolean;
  /** One of the seats is this page's. */
  isYou: boolean;
}

/** People in the order their first seat joined; seats of a person in the order they joined. */
export function peopleOf(members: readonly TMember[], you: string | null): TPerson[] {
  const byPerson = new Map<string, TMember[]>();
  for (const member of [...members].sort((a, b) => a.joinedAt - b.joinedAt)) {
    const seats = byPerson.get(member.personId);
    if (seats) seats.push(member);
    else byPerson.set(member.personId, [member]);
  }
  return [...byPerson.entries()].map(([personId, seats]) => {
    const own = seats.find((seat) => seat.id === you);
    const first = seats[0] as TMember;
    return {
      personId,
      nickname: (own ?? first).nickname,
      seats,
      isOwner: seats.some((seat) => seat.isOwner),
      isGuest: seats.every((seat) => seat.isGuest),
      isYou: own !== undefined,
    };
  });
}

/**
 * The seat a hand-over to this person goes to: the one that asked for control (the earliest in the queue), else
 * the one that joined last (the device they most likely just picked up).
 */
export function seatToGrant(person: TPerson, queue: readonly string[]): string {
  const asking = queue.find((id) => person.seats.some((seat) => seat.id === id));
  return asking ?? (person.seats.at(-1) as TMember).id;
}
