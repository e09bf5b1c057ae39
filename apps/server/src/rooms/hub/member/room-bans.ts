// The rule of a ban, in one place for the hub (its members, at once) and for POST /ws/ticket (the bans every
// process stored). A ban records the account, the browser and the address of every seat of the person; a newcomer
// matching the account or the browser is out (whoever signs in on a banned browser, so logging in or out changes
// nothing), and so is a guest at a banned address (a fresh browser profile). An address alone never keeps out
// another account: accounts are told apart by their ids, and one household or office behind one address must not
// lose its members, the owner's own people included. The owner is never banned.
import type { TBanMarks } from '../../../ws/relay-ports';
import type { TJoinIdentity } from '../hub-context';

export class BanList {
  private readonly users = new Set<string>();
  private readonly guests = new Set<string>();
  private readonly addresses = new Set<string>();

  constructor(marks: Iterable<TBanMarks> = []) {
    for (const mark of marks) this.add(mark);
  }

  add(marks: TBanMarks): void {
    if (marks.userId) this.users.add(marks.userId);
    if (marks.guestId) this.guests.add(marks.guestId);
    if (marks.ip) this.addresses.add(marks.ip);
  }

  /** Whether this person is banned from a room owned by `ownerId`. */
  has(identity: TJoinIdentity, ownerId: string): boolean {
    if (identity.userId !== null && identity.userId === ownerId) return false;
    if (identity.userId !== null && this.users.has(identity.userId)) return true;
    if (identity.guestId && this.guests.has(identity.guestId)) return true;
    return identity.userId === null && !!identity.ip && this.addresses.has(identity.ip);
  }
}

/** What a seat leaves behind when its person is banned. */
export function banMarksOf(identity: TJoinIdentity): TBanMarks {
  return { userId: identity.userId, guestId: identity.guestId ?? null, ip: identity.ip ?? null };
}
