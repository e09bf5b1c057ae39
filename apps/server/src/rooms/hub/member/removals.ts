// The people a room's owner removed: out for the rest of the room's run (its hub here at once, every process's
// tickets once stored), until the owner lets them back in. A removal names the person's account and every browser
// they sat in (the guest id of POST /ws/ticket), never their address: a fresh browser profile gets past it, which
// a ban (./room-bans.ts) is there to stop. Whoever signs in on a removed browser is still out, and the owner never is.
import { randomUUID } from 'node:crypto';
import type { TRemovedMember } from '@rooms/api/room-protocol';
import type { TRemoval } from '../../../ws/relay-ports';
import type { TJoinIdentity } from '../hub-context';

export interface TRemovalOptions {
  /** Removals already in force when the hub was made (a room run again after its server went down). */
  inForce?: readonly TRemoval[];
  record?(removal: TRemoval): Promise<void>;
  lift?(removalId: string): Promise<void>;
}

/** Whether a removal keeps this person out of a room owned by `ownerId`. */
export function isRemovedBy(removal: TRemoval, identity: TJoinIdentity, ownerId: string): boolean {
  if (identity.userId !== null && identity.userId === ownerId) return false;
  if (identity.userId !== null && removal.userId === identity.userId) return true;
  return !!identity.guestId && removal.guestIds.includes(identity.guestId);
}

export class Removals {
  private readonly removals = new Map<string, TRemoval>();

  constructor(
    private readonly options: TRemovalOptions = {},
    private readonly warn: (error: unknown, what: string) => void = () => {},
  ) {
    for (const removal of options.inForce ?? []) this.removals.set(removal.id, removal);
  }

  has(identity: TJoinIdentity, ownerId: string): boolean {
    for (const removal of this.removals.values()) if (isRemovedBy(removal, identity, ownerId)) return true;
    return false;
  }

  /** Removes the person behind these seats (its account, every browser it sat in), under the target's nickname. */
  remove(nickname: string, seats: readonly { identity: TJoinIdentity }[], at: number): void {
    const identities = seats.map((seat) => seat.identity);
    const userId = identities.find((identity) => identity.userId !== null)?.userId ?? null;
    const guestIds = [
      ...new Set(identities.flatMap((identity) => (identity.guestId ? [identity.guestId] : []))),
    ];
    const removal: TRemoval = { id: randomUUID(), nickname, userId, guestIds, at };
    this.removals.set(removal.id, removal);
    this.options.record?.(removal).catch((error: unknown) => this.warn(error, 'room removal not stored'));
  }

  /** Lets the person back in; false when no such removal is in force. */
  lift(removalId: string): boolean {
    if (!this.removals.delete(removalId)) return false;
    this.options.lift?.(removalId).catch((error: unknown) => this.warn(error, 'room removal not lifted'));
    return true;
  }

  /** What the owner is shown, oldest first. */
  list(): TRemovedMember[] {
    return [...this.removals.values()].map((removal) => ({
      id: removal.id,
      nickname: removal.nickname,
      isGuest: removal.userId === null,
      removedAt: removal.at,
    }));
  }
}
