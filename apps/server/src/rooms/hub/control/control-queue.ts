// Who drives the room's browser, and who waits for it. Pure rules, no sockets, so the unit tests read like the
// spec: the owner starts as controller; requests queue in order; the controller or the owner grants; the
// controller releases to the head of the queue; the owner takes it back at any time.
import type { TControlState, TRoomErrorCode } from '@rooms/api/room-protocol';

export type TControlOutcome = { ok: true; changed: boolean } | { ok: false; code: TRoomErrorCode };

const unchanged: TControlOutcome = { ok: true, changed: false };
const changed: TControlOutcome = { ok: true, changed: true };

export interface TControlMembers {
  has(memberId: string): boolean;
  isOwner(memberId: string): boolean;
  /** Member ids in join order, to find an owner to hand control back to. */
  ids(): Iterable<string>;
}

export class ControlQueue {
  private controllerId: string | null = null;
  private queue: string[] = [];

  constructor(private readonly members: TControlMembers) {}

  state(): Omit<TControlState, 'type'> {
    return { controllerId: this.controllerId, queue: [...this.queue] };
  }

  isController(memberId: string): boolean {
    return this.controllerId === memberId;
  }

  /** The owner's first connection takes the wheel when nobody holds it. */
  joined(memberId: string): TControlOutcome {
    if (this.controllerId === null && this.members.isOwner(memberId)) {
      this.controllerId = memberId;
      return changed;
    }
    return unchanged;
  }

  left(memberId: string): TControlOutcome {
    const wasQueued = this.dequeue(memberId);
    if (this.controllerId === memberId) {
      this.passOn(memberId);
      return changed;
    }
    return wasQueued ? changed : unchanged;
  }

  request(memberId: string): TControlOutcome {
    if (this.controllerId === memberId || this.queue.includes(memberId)) return unchanged;
    if (this.controllerId === null) {
      this.controllerId = memberId;
      return changed;
    }
    this.queue.push(memberId);
    return changed;
  }

  cancel(memberId: string): TControlOutcome {
    return this.dequeue(memberId) ? changed : unchanged;
  }

  grant(byId: string, toId: string): TControlOutcome {
    if (this.controllerId !== byId && !this.members.isOwner(byId)) return { ok: false, code: 'CANNOT_GRANT' };
    if (!this.members.has(toId)) return { ok: false, code: 'NOT_A_MEMBER' };
    if (this.controllerId === toId) return unchanged;
    this.dequeue(toId);
    this.controllerId = toId;
    return changed;
  }

  release(memberId: string): TControlOutcome {
    if (this.controllerId !== memberId) return { ok: false, code: 'NOT_CONTROLLER' };
    this.passOn(memberId);
    return changed;
  }

  take(memberId: string): TControlOutcome {
    if (!this.members.isOwner(memberId)) return { ok: false, code: 'NOT_OWNER' };
    if (this.controllerId === memberId) return unchanged;
    this.dequeue(memberId);
    this.controllerId = memberId;
    return changed;
  }

  /**
   * Control goes to whoever raised a hand first; with nobody waiting it returns to the owner (the room's
   * default driver), unless the one letting go is an owner, who then leaves the wheel free.
   */
  private passOn(fromId: string): void {
    const next = this.queue.shift();
    if (next !== undefined) {
      this.controllerId = next;
      return;
    }
    this.controllerId = null;
    if (this.members.isOwner(fromId)) return;
    for (const id of this.members.ids()) {
      if (id !== fromId && this.members.isOwner(id)) {
        this.controllerId = id;
        return;
      }
    }
  }

  private dequeue(memberId: string): boolean {
    const index = this.queue.indexOf(memberId);
    if (index === -1) return false;
    this.queue.splice(index, 1);
    return true;
  }
}
