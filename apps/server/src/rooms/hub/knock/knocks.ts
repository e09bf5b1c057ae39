// Knocking: someone with the room's knock link (a knock ticket, ws/ticket-route.ts) sends member/join and waits
// here instead of joining. The owner and the people the owner trusts to let others in are told every knock waiting
// (knock/pending) and answer it (knock/answer): admitted, the knocker's socket joins as any member's would, with a
// pass for its later tickets; turned away, it is refused (KNOCK_TURNED_AWAY). A knock nobody answers ends after
// KNOCK_WAIT_MS; a room holds at most KNOCKS_PENDING_MAX at once. Trust is the owner's to give (knock/trust) and
// follows the person (every seat of one account or guest browser), for the hub's life.
import { randomUUID } from 'node:crypto';
import {
  KNOCK_WAIT_MS,
  KNOCKS_PENDING_MAX,
  type TKnock,
  type TRoomErrorCode,
  type TServerMessageOf,
} from '@rooms/api/room-protocol';
import {
  type HubPeer,
  refuse,
  type TDomainMessage,
  type THubContext,
  type THubMember,
  type TJoinIdentity,
} from '../hub-context';

/** The knocker's socket, as the knock sees it. */
export interface TKnocker {
  /** Let in: told so with the pass for its later tickets, then joined as a member. */
  admitted(pass: string): void;
  /** Turned away, unanswered, or the room went away: refused with this code. */
  refused(code: TRoomErrorCode): void;
}

export type TKnockResult = { ok: true; knockId: string } | { ok: false; code: TRoomErrorCode };

interface TPendingKnock {
  knock: TKnock;
  identity: TJoinIdentity;
  knocker: TKnocker;
  timer: NodeJS.Timeout;
}

export interface TRoomKnocksOptions {
  /** The pass an admitted knocker's page keeps for its later tickets (ws/admission-pass.ts). */
  pass(person: TJoinIdentity): string;
  /** How long a knock waits for an answer; KNOCK_WAIT_MS unless a test says. */
  waitMs?: number;
}

export class RoomKnocks {
  private readonly pending = new Map<string, TPendingKnock>();
  /** The people (personId) the owner trusts to answer knocks. */
  private readonly trusted = new Set<string>();

  constructor(
    private readonly context: THubContext,
    private readonly options: TRoomKnocksOptions,
  ) {}

  /** A knock: the knocker is told it waits, and those who may answer are told who knocks. */
  ask(peer: HubPeer, identity: TJoinIdentity, nickname: string, knocker: TKnocker): TKnockResult {
    if (this.pending.size >= KNOCKS_PENDING_MAX) return { ok: false, code: 'TOO_MANY_KNOCKS' };
    const id = randomUUID();
    const knock: TKnock = { id, nickname, isGuest: identity.userId === null, at: this.context.now() };
    const timer = setTimeout(() => this.end(id, 'KNOCK_UNANSWERED'), this.options.waitMs ?? KNOCK_WAIT_MS);
    timer.unref();
    this.pending.set(id, { knock, identity, knocker, timer });
    peer.send({ type: 'knock/waiting', id });
    this.publish();
    return { ok: true, knockId: id };
  }

  /** The knocker went away (closed the page) before an answer. */
  cancel(knockId: string): void {
    const pending = this.take(knockId);
    if (pending) this.publish();
  }

  handle(member: THubMember, message: TDomainMessage<'knock'>): void {
    if (message.type === 'knock/answer') {
      if (!this.mayAnswer(member)) {
        refuse(member, 'NOT_OWNER', message.type);
        return;
      }
      // Answered by someone else a moment before: the list they were sent says so.
      const pending = this.take(message.knockId);
      if (!pending) return;
      this.publish();
      if (message.admit) pending.knocker.admitted(this.options.pass(pending.identity));
      else pending.knocker.refused('KNOCK_TURNED_AWAY');
      return;
    }
    const target = this.context.members.get(message.memberId);
    if (!member.info.isOwner || !target) {
      refuse(member, member.info.isOwner ? 'NOT_A_MEMBER' : 'NOT_OWNER', message.type);
      return;
    }
    if (target.info.isOwner) return;
    const person = target.info.personId;
    if (message.trusted === this.trusted.has(person)) return;
    if (message.trusted) this.trusted.add(person);
    else this.trusted.delete(person);
    this.context.broadcast(this.trustedMessage());
    // The newly trusted see who waits; those no longer trusted stop seeing it.
    const knocks = message.trusted ? this.waiting() : [];
    for (const seat of this.seatsOf(person)) seat.peer.send({ type: 'knock/pending', knocks });
  }

  /**
   * A member just joined: who is trusted, and the knocks waiting if they may answer (each only when there is
   * something to tell: a page starts with nobody trusted and no knock).
   */
  joined(memberId: string): void {
    const member = this.context.members.get(memberId);
    if (!member) return;
    if (this.trusted.has(member.info.personId)) this.context.broadcast(this.trustedMessage());
    else if (this.trusted.size > 0) member.peer.send(this.trustedMessage());
    if (this.pending.size > 0 && this.mayAnswer(member))
      member.peer.send({ type: 'knock/pending', knocks: this.waiting() });
  }

  /** The room went away: every knocker is told, and their pages follow the room back. */
  close(): void {
    for (const id of [...this.pending.keys()]) this.end(id, 'ROOM_NOT_RUNNING');
  }

  private mayAnswer(member: THubMember): boolean {
    return member.info.isOwner || this.trusted.has(member.info.personId);
  }

  private end(knockId: string, code: TRoomErrorCode): void {
    const pending = this.take(knockId);
    if (!pending) return;
    this.publish();
    pending.knocker.refused(code);
  }

  private take(knockId: string): TPendingKnock | undefined {
    const pending = this.pending.get(knockId);
    if (!pending) return undefined;
    clearTimeout(pending.timer);
    this.pending.delete(knockId);
    return pending;
  }

  /** Every knock waiting now, oldest first. */
  waiting(): TKnock[] {
    return [...this.pending.values()].map((pending) => pending.knock);
  }

  /** Every knock waiting, to each member who may answer. */
  private publish(): void {
    const message = { type: 'knock/pending' as const, knocks: this.waiting() };
    const serialized = JSON.stringify(message);
    for (const member of this.context.members.values())
      if (this.mayAnswer(member)) member.peer.send(message, serialized);
  }

  private seatsOf(personId: string): THubMember[] {
    return [...this.context.members.values()].filter((member) => member.info.personId === personId);
  }

  private trustedMessage(): TServerMessageOf<'knock/trusted'> {
    const memberIds = [...this.context.members.values()]
      .filter((member) => this.trusted.has(member.info.personId))
      .map((member) => member.info.id);
    return { type: 'knock/trusted', memberIds };
  }
}
