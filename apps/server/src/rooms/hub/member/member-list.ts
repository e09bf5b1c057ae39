// Who sits in a room, seat by seat (one per socket), and the people behind the seats: one account on a laptop and
// a phone is one person with two seats. Seats count against the room's max connections (the plan's limit is on
// connections); people are what a list or a count shows. Also the rules a new seat must pass: a free seat and a
// nickname nobody else holds.
import { randomUUID } from 'node:crypto';
import { nicknameKey, type TMember } from '@rooms/api/room-protocol';
import type { TJoinIdentity } from '../hub-context';

export interface TSeat {
  info: TMember;
  identity: TJoinIdentity;
}

/** Two seats are one person when they share an account or a browser. */
export function samePerson(a: TJoinIdentity, b: TJoinIdentity): boolean {
  return (a.userId != null && a.userId === b.userId) || (!!a.guestId && a.guestId === b.guestId);
}

/**
 * The opaque id members are shown for the person behind a seat, stable for the hub's life: an account's seats share
 * it whatever browser they are in, a guest's seats share their browser's. Neither the account nor the guest id is
 * ever shown to other members (a guest id is what keeps a removed or banned browser out).
 */
export class PersonIds {
  private readonly ids = new Map<string, string>();

  of(identity: TJoinIdentity, memberId: string): string {
    const key =
      identity.userId !== null
        ? `user:${identity.userId}`
        : identity.guestId
          ? `guest:${identity.guestId}`
          : `seat:${memberId}`;
    let id = this.ids.get(key);
    if (!id) {
      id = randomUUID();
      this.ids.set(key, id);
    }
    return id;
  }
}

/** The seats of the target's person (its devices and tabs), the target's first; never the owner's. */
export function personSeats<T extends TSeat>(seats: Iterable<T>, target: T): T[] {
  const others = [...seats].filter(
    (seat) => seat !== target && !seat.info.isOwner && samePerson(seat.identity, target.identity),
  );
  return [target, ...others];
}

/** Why `by` may not remove or ban `target`: only the owner may, and never one of the owner's own seats. */
export function removalRefusal(
  by: TSeat,
  target: TSeat | undefined,
): 'NOT_OWNER' | 'NOT_A_MEMBER' | 'CANNOT_KICK_OWNER' | null {
  if (!by.info.isOwner) return 'NOT_OWNER';
  if (!target) return 'NOT_A_MEMBER';
  return target.info.isOwner ? 'CANNOT_KICK_OWNER' : null;
}

/** How many people sit in these seats. */
export function peopleIn(seats: Iterable<TSeat>): number {
  const people = new Set<string>();
  for (const seat of seats) people.add(seat.info.personId);
  return people.size;
}

/**
 * The owner's seat is kept free while the owner is away, so a room full of guests never locks its owner out (and
 * the owner can then remove someone); a second device of the owner still counts against the limit, as connections
 * are what the limit counts.
 */
export function hasSeatFor(
  seats: ReadonlyMap<string, TSeat>,
  isOwner: boolean,
  maxConnections: number,
): boolean {
  const ownerPresent = [...seats.values()].some((seat) => seat.info.isOwner);
  const reserved = isOwner || ownerPresent ? 0 : 1;
  return seats.size + reserved < maxConnections;
}

/**
 * A nickname may not pass for the owner (the account's name, or the name the owner sits under) nor for another
 * person in the room, compared by nicknameKey: 'ＯＬＧＡ', 'o lga' and 'Оlga' (Cyrillic О) are 'Olga'. The same
 * person in a second tab or reconnecting before the old socket is gone keeps its name.
 */
export function nicknameRefusal(
  seats: Iterable<TSeat>,
  joiner: { identity: TJoinIdentity; nickname: string; isOwner: boolean },
  ownerName: string,
): 'NICKNAME_RESERVED' | 'NICKNAME_TAKEN' | null {
  const key = nicknameKey(joiner.nickname);
  if (!joiner.isOwner && key === nicknameKey(ownerName)) return 'NICKNAME_RESERVED';
  for (const seat of seats) {
    if (nicknameKey(seat.info.nickname) !== key) continue;
    // Only the owner is the owner: sharing her browser (its guest cookie) does not give her seat's name away.
    if (seat.info.isOwner) {
      if (!joiner.isOwner) return 'NICKNAME_RESERVED';
    } else if (!samePerson(seat.identity, joiner.identity)) {
      return 'NICKNAME_TAKEN';
    }
  }
  return null;
}
