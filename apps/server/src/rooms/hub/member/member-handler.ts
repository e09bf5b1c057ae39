// The member domain of a room's hub: who is kept out (banned, or removed and not let back in), and the owner's
// member/kick, member/ban and member/readmit. member/join is the socket's; a second one is refused.
import { ROOM_CLOSE_CODES, ROOM_ERROR_MESSAGES, type TServerMessage } from '@rooms/api/room-protocol';
import type { TBanMarks } from '../../../ws/relay-ports';
import { errorMessage } from '../error-message';
import {
  refuse,
  type TDomainMessage,
  type THubContext,
  type THubMember,
  type TJoinIdentity,
} from '../hub-context';
import { personSeats, removalRefusal } from './member-list';
import { Removals, type TRemovalOptions } from './removals';
import { BanList, banMarksOf } from './room-bans';

export interface TMemberHandlerOptions {
  /**
   * The room's bans beyond this hub: those already in force when it was made (a room run again after its server
   * went down), and where each new one is stored so every process refuses the person a ticket. The hub itself
   * enforces a ban at once; storing it follows.
   */
  bans?: { inForce?: readonly TBanMarks[]; record?(marks: readonly TBanMarks[]): Promise<void> };
  /** The people the owner removed, likewise (./removals.ts). */
  removals?: TRemovalOptions;
  /** Takes the banned person's chat messages away (what they wrote goes with them). */
  retractChat(marks: readonly TBanMarks[]): void;
  /** Takes a seat out of the room. */
  leave(memberId: string, reason: 'kicked'): void;
}

export class MemberHandler {
  /** People the owner removed, by account and browser, until the room stops or the owner lets them back in. */
  private readonly removals: Removals;
  /** People the owner banned, by account, browser and address (isBanned), for as long as this room runs. */
  private readonly bans: BanList;

  constructor(
    private readonly hub: THubContext,
    private readonly options: TMemberHandlerOptions,
  ) {
    this.bans = new BanList(options.bans?.inForce);
    this.removals = new Removals(options.removals, (err, what) => hub.warn(err, what));
  }

  handle(member: THubMember, message: TDomainMessage<'member'>): void {
    switch (message.type) {
      case 'member/kick':
        this.kick(member, message.memberId, false);
        return;
      case 'member/ban':
        this.kick(member, message.memberId, true);
        return;
      case 'member/readmit':
        this.readmit(member, message.removalId);
        return;
      case 'member/join':
        refuse(member, 'ALREADY_JOINED', message.type);
        return;
    }
  }

  /** Whether the owner banned this person (the rule: ./room-bans.ts). */
  isBanned(identity: TJoinIdentity): boolean {
    return this.bans.has(identity, this.hub.room.ownerId);
  }

  /** Why this person may not come in: banned, or removed and not let back in (./removals.ts); null when they may. */
  keptOut(identity: TJoinIdentity): 'BANNED' | 'KICKED' | null {
    if (this.isBanned(identity)) return 'BANNED';
    return this.removals.has(identity, this.hub.room.ownerId) ? 'KICKED' : null;
  }

  /** What an owner's seat is told on joining and after each change: who is removed, to let them back in. */
  removalsMessage(): TServerMessage {
    return { type: 'member/removals', removed: this.removals.list() };
  }

  /**
   * Records what names the target: its account, browser and address, and those of its other seats; here at once,
   * then where the other processes look before they issue a ticket.
   */
  private banPerson(target: THubMember): void {
    const marks = personSeats(this.hub.members.values(), target).map((seat) => banMarksOf(seat.identity));
    for (const mark of marks) this.bans.add(mark);
    this.options.bans?.record?.(marks).catch((error: unknown) => {
      this.hub.warn(error, 'room ban not stored for other servers');
    });
    // What they wrote goes with them: chat outlives the room's runs, and a ban is how an owner clears spam.
    this.options.retractChat(marks);
  }

  private kick(by: THubMember, targetId: string, ban: boolean): void {
    const target = this.hub.members.get(targetId);
    const refusal = removalRefusal(by, target);
    if (refusal || !target) {
      refuse(by, refusal ?? 'NOT_A_MEMBER', ban ? 'member/ban' : 'member/kick');
      return;
    }
    // Either way the person stays out for the room's run, by account and browser; a ban by address too and with
    // no way back, where the owner may let a removed person back in.
    const seats = personSeats(this.hub.members.values(), target);
    if (ban) this.banPerson(target);
    else this.removals.remove(target.info.nickname, seats, this.hub.now());
    // Every seat now kept out goes: the person's other tabs and devices (and, banned, guests at their address).
    const code = ban ? 'BANNED' : 'KICKED';
    for (const seat of [...this.hub.members.values()]) {
      if (seat !== target && (seat.info.isOwner || this.keptOut(seat.identity) === null)) continue;
      seat.peer.send(ban ? errorMessage(code) : { type: 'member/kicked' });
      seat.peer.close(ROOM_CLOSE_CODES[code], ROOM_ERROR_MESSAGES[code]);
      this.options.leave(seat.info.id, 'kicked');
    }
    if (!ban) this.tellOwners();
  }

  private readmit(by: THubMember, removalId: string): void {
    if (!by.info.isOwner) {
      refuse(by, 'NOT_OWNER', 'member/readmit');
      return;
    }
    this.removals.lift(removalId);
    this.tellOwners();
  }

  /** The owner's seats hear who is removed, so each can let people back in. */
  private tellOwners(): void {
    const removed = this.removalsMessage();
    for (const member of this.hub.members.values()) if (member.info.isOwner) member.peer.send(removed);
  }
}
