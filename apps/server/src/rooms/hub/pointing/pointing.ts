// Pointing and reactions in a room's hub: a member who does not drive shows the others where they look, and
// anyone may react with one of the fixed emoji. Both go to every other member (the sender's page shows its own at
// once) and never to the room's browser; both are counted per person, as chat is, so a second tab or rejoining
// brings no fresh allowance. Pointer moves beyond the limit are dropped without a word (the next one shows where
// the pointer is); reactions beyond theirs are refused once, and again only after one got through.
import {
  POINTER_RATE_LIMIT,
  POINTER_RATE_WINDOW_MS,
  REACTION_RATE_LIMIT,
  REACTION_RATE_WINDOW_MS,
  REACTIONS_TOO_FAST,
  type TClientMessage,
  type TMember,
  type TServerMessage,
} from '@rooms/api/room-protocol';
import { SlidingWindow } from '../chat/chat-log';
import { errorMessage } from '../error-message';
import type { HubPeer, TJoinIdentity } from '../hub-context';

/** What the hub knows of a joined member that pointing needs. */
export interface TPointingMember {
  info: TMember;
  identity: TJoinIdentity;
  peer: HubPeer;
}

/** The person behind a seat: account, browser, address, or else the seat itself. */
function personOf(member: TPointingMember): string {
  const { userId, guestId, ip } = member.identity;
  if (userId !== null) return `user:${userId}`;
  if (guestId) return `guest:${guestId}`;
  if (ip) return `address:${ip}`;
  return `seat:${member.info.id}`;
}

/** Beyond this many people with a window, the idle windows are dropped (their count no longer matters). */
const SWEEP_ABOVE = 256;

/** One sliding window per person. */
class PersonWindows {
  private readonly windows = new Map<string, SlidingWindow>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  allow(person: string, now: number): boolean {
    if (this.windows.size > SWEEP_ABOVE) {
      for (const [key, window] of this.windows) if (window.idle(now)) this.windows.delete(key);
    }
    let window = this.windows.get(person);
    if (!window) {
      window = new SlidingWindow(this.limit, this.windowMs);
      this.windows.set(person, window);
    }
    return window.allow(now);
  }
}

export class RoomPointing {
  private readonly pointers = new PersonWindows(POINTER_RATE_LIMIT, POINTER_RATE_WINDOW_MS);
  private readonly reactions = new PersonWindows(REACTION_RATE_LIMIT, REACTION_RATE_WINDOW_MS);
  /** People told they react too fast, not told again until a reaction of theirs gets through. */
  private readonly toldTooFast = new Set<string>();

  constructor(
    private readonly now: () => number,
    /** The driver's own mouse is the pointer everyone follows: a ghost of it would only hide the picture. */
    private readonly isController: (memberId: string) => boolean,
  ) {}

  /** Passes on a joined member's pointer/move or reaction/send; any other message is not pointing's. */
  handle(from: TPointingMember, message: TClientMessage, members: Iterable<TPointingMember>): void {
    if (message.type === 'pointer/move') {
      if (this.isController(from.info.id)) return;
      if (!this.pointers.allow(personOf(from), this.now())) return;
      const { x, y } = message;
      this.toOthers(from, members, { type: 'pointer/shown', ...this.sender(from), x, y });
    } else if (message.type === 'reaction/send') {
      const person = personOf(from);
      if (!this.reactions.allow(person, this.now())) {
        if (this.toldTooFast.has(person)) return;
        this.toldTooFast.add(person);
        from.peer.send(errorMessage('RATE_LIMITED', message.type, REACTIONS_TOO_FAST));
        return;
      }
      this.toldTooFast.delete(person);
      this.toOthers(from, members, { type: 'reaction/shown', ...this.sender(from), emoji: message.emoji });
    }
  }

  private sender(from: TPointingMember): { memberId: string; nickname: string } {
    return { memberId: from.info.id, nickname: from.info.nickname };
  }

  private toOthers(from: TPointingMember, members: Iterable<TPointingMember>, message: TServerMessage): void {
    const serialized = JSON.stringify(message);
    for (const member of members) if (member !== from) member.peer.send(message, serialized);
  }
}
