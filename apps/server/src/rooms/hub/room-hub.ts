// One running room's participants: members, control, chat, the shared picture and the way input reaches the
// browser. Transport-free (members are HubPeers), so its rules are unit-tested without sockets.

import { randomUUID } from 'node:crypto';
import {
  isControllerOnly,
  ROOM_CLOSE_CODES,
  ROOM_ERROR_MESSAGES,
  type TClientMessage,
  type TControlChange,
  type TMediaCodecName,
  type TMember,
  type TRoomEnding,
  type TRoomErrorCode,
  type TServerMessage,
} from '@rooms/api/room-protocol';
import type { TBanMarks, TRelayRoom } from '../../ws/relay-ports';
import type { RoomSession } from '../room-session';
import { ControlQueue, type TControlOutcome } from './control-queue';
import { errorMessage } from './error-message';
import type { MediaPeer, TBackpressure } from './media-fanout';
import { hasSeatFor, nicknameRefusal, PersonIds, peopleIn, personSeats, removalRefusal } from './member-list';
import { ParticipantStreams, type TViewerJoin } from './participant-streams';
import { RoomPointing } from './pointing';
import { Removals, type TRemovalOptions } from './removals';
import { BanList, banMarksOf } from './room-bans';
import { RoomChat, type TRoomChatOptions } from './room-chat';
import { RoomFilesOut, type TOfferedFile } from './room-files-out';

export interface HubPeer extends MediaPeer {
  /** `serialized` is the message's JSON when the sender already has it (a broadcast serializes once). */
  send(message: TServerMessage, serialized?: string): void;
  close(code: number, reason: string): void;
}

/** Who is behind a connection: a signed-in user, or a guest (null) who came by a shared link. */
export interface TJoinIdentity {
  userId: string | null;
  /** A guest's browser, from the signed cookie of POST /ws/ticket: what a ban holds on to besides the address. */
  guestId?: string | null;
  /** The connection's address; a ban covers it, so a fresh browser profile does not get around it. */
  ip?: string | null;
  /** The session a signed-in connection was opened with: when it ends, the connection ends (ConnectionBook). */
  sessionId?: string | null;
}

export interface TRoomHubOptions {
  room: TRelayRoom;
  session: RoomSession;
  /** Told the number of members after every join and leave. */
  participantsChanged(count: number): void;
  log?: { warn(object: object, message: string): void };
  now?: () => number;
  backpressure?: TBackpressure;
  /** How often each member is sent its stream/stats; 0 turns them off. */
  statsIntervalMs?: number;
  /**
   * The room's bans beyond this hub: those already in force when it was made (a room run again after its server
   * went down), and where each new one is stored so every process refuses the person a ticket. The hub itself
   * enforces a ban at once; storing it follows.
   */
  bans?: { inForce?: readonly TBanMarks[]; record?(marks: readonly TBanMarks[]): Promise<void> };
  /** The people the owner removed, likewise (./removals.ts). */
  removals?: TRemovalOptions;
  /** The room's chat beyond this hub: earlier runs' messages, and where new ones are stored (./room-chat.ts). */
  chat?: TRoomChatOptions;
  /** Whether this process serves the fetch of the room's downloads (./room-files-out.ts); true unless said. */
  downloadsServed?: boolean;
}

interface TMemberState {
  info: TMember;
  userId: string | null;
  identity: TJoinIdentity;
  peer: HubPeer;
  /** When this member was last told it is not in control, so a stray pointer stream yields one error a second. */
  lastRefusedAt: number;
}

export type TJoinResult = { ok: true; memberId: string } | { ok: false; code: TRoomErrorCode };

/** Pointer moves and wheel turns are superseded by the next ones; beyond this backlog they are dropped. */
const MAX_PENDING_INPUT = 64;
/** Beyond this backlog the browser is not keeping up at all, and everything the controller sends is dropped. */
const MAX_PENDING_TASKS = 1024;
const DEFAULT_STATS_INTERVAL_MS = 2000;

export class RoomHub {
  readonly session: RoomSession;
  private readonly room: TRelayRoom;
  private readonly members = new Map<string, TMemberState>();
  private readonly control: ControlQueue;
  private readonly chat: RoomChat;
  private readonly media: ParticipantStreams;
  private readonly pointing = new RoomPointing(
    () => this.now(),
    (id) => this.control.isController(id),
  );
  /** People the owner removed, by account and browser, until the room stops or the owner lets them back in. */
  private readonly removals: Removals;
  private readonly people = new PersonIds();
  /** People the owner banned, by account, browser and address (isBanned), for as long as this room runs. */
  private readonly bans: BanList;
  private readonly stopTabs: () => void;
  /** Downloads and copied text, for the controller alone (./room-files-out.ts). */
  private readonly filesOut: RoomFilesOut;
  private readonly stopFilesOut: () => void;
  private readonly now: () => number;
  private statsTimer: NodeJS.Timeout | undefined;
  // Input and browser actions run one after another, in the order the controller sent them.
  private tasks: Promise<void> = Promise.resolve();
  private pendingTasks = 0;
  private closed = false;

  constructor(private readonly options: TRoomHubOptions) {
    this.room = options.room;
    this.session = options.session;
    this.now = options.now ?? Date.now;
    this.bans = new BanList(options.bans?.inForce);
    this.removals = new Removals(options.removals, (err, what) =>
      options.log?.warn({ err, roomId: this.room.id }, what),
    );
    this.chat = new RoomChat(options.chat ?? {}, (err, what) =>
      options.log?.warn({ err, roomId: this.room.id }, what),
    );
    this.media = new ParticipantStreams(options.session, options.backpressure);
    this.control = new ControlQueue({
      has: (id) => this.members.has(id),
      isOwner: (id) => this.members.get(id)?.info.isOwner ?? false,
      ids: () => this.members.keys(),
    });
    this.stopTabs = options.session.onTabsChanged((tabs) => this.broadcast({ type: 'browser/tabs', tabs }));
    this.filesOut = new RoomFilesOut({
      roomId: this.room.id,
      controller: () => {
        const id = this.control.state().controllerId;
        const member = id === null ? undefined : this.members.get(id);
        return member && { id: member.info.id, peer: member.peer };
      },
      now: this.now,
      served: options.downloadsServed,
    });
    this.stopFilesOut = options.session.onFilesOut?.((event) => this.filesOut.handle(event)) ?? (() => {});
  }

  get roomId(): string {
    return this.room.id;
  }

  /** A download offered to the controller, once, for its key (./room-files-out.ts); the caller deletes the file. */
  takeDownload(id: string, key: string): TOfferedFile | undefined {
    return this.filesOut.take(id, key);
  }

  /** Seats (connections): what the room's max connections limits. */
  get size(): number {
    return this.members.size;
  }

  /** People: one account or guest browser on several devices or tabs is one. */
  get peopleCount(): number {
    return peopleIn(this.members.values());
  }

  join(
    peer: HubPeer,
    identity: TJoinIdentity,
    nickname: string,
    decoders: readonly TMediaCodecName[] = ['jpeg'],
    view: TViewerJoin = {},
  ): TJoinResult {
    if (this.closed) return { ok: false, code: 'ROOM_NOT_RUNNING' };
    const isOwner = identity.userId !== null && identity.userId === this.room.ownerId;
    const keptOut = this.keptOut(identity);
    if (keptOut) return { ok: false, code: keptOut };
    const joiner = { identity, nickname, isOwner };
    const taken = nicknameRefusal(this.members.values(), joiner, this.room.ownerName);
    if (taken) return { ok: false, code: taken };
    if (!hasSeatFor(this.members, isOwner, this.room.maxConnections)) return { ok: false, code: 'ROOM_FULL' };

    const id = randomUUID();
    const info: TMember = {
      id,
      nickname,
      isOwner,
      isGuest: identity.userId === null,
      personId: this.people.of(identity, id),
      joinedAt: this.now(),
    };
    this.broadcast({ type: 'member/joined', member: info });
    this.members.set(info.id, {
      info,
      userId: identity.userId,
      identity,
      peer,
      lastRefusedAt: Number.NEGATIVE_INFINITY,
    });
    // Only a join that moved control is news to the others (the owner taking an empty seat).
    const joined = this.control.joined(info.id);

    peer.send({ type: 'member/list', you: info.id, members: this.memberList() });
    if (joined.ok && joined.changed) this.broadcastControl({ action: 'joined', byId: info.id });
    else peer.send({ type: 'control/state', ...this.control.state() });
    peer.send({ type: 'chat/history', messages: this.chat.history() });
    if (isOwner) peer.send({ type: 'member/removals', removed: this.removals.list() });
    peer.send({ type: 'browser/tabs', tabs: this.session.tabs() });
    peer.send({
      type: 'stream/config',
      viewport: { ...this.session.viewport },
      fps: this.room.maxFrameRate,
      ...this.media.choose(decoders),
    });
    this.media.add(peer, decoders, view);
    this.startStats();
    this.options.participantsChanged(this.members.size);
    return { ok: true, memberId: info.id };
  }

  leave(memberId: string, reason: 'left' | 'kicked' = 'left'): void {
    const member = this.members.get(memberId);
    if (!member) return;
    this.members.delete(memberId);
    this.media.remove(member.peer);
    const control = this.control.left(memberId);
    this.broadcast({ type: 'member/left', memberId, reason });
    if (control.ok && control.changed) this.broadcastControl({ action: 'left', byId: memberId });
    if (this.members.size === 0) this.stopStats();
    this.options.participantsChanged(this.members.size);
  }

  /** One message of a joined member (member/join and system/ping are the socket's business). */
  handle(memberId: string, message: TClientMessage): void {
    const member = this.members.get(memberId);
    if (!member) return;
    if (isControllerOnly(message)) {
      this.handleDriving(member, message);
      return;
    }
    switch (message.type) {
      case 'stream/ack':
      case 'stream/choose':
        this.media.handle(member.peer, message);
        return;
      case 'member/kick':
        this.kick(member, message.memberId, false);
        return;
      case 'member/ban':
        this.kick(member, message.memberId, true);
        return;
      case 'member/readmit':
        this.readmit(member, message.removalId);
        return;
      case 'control/request':
        this.applyControl(member, 'request', this.control.request(memberId));
        return;
      case 'control/cancel':
        this.applyControl(member, 'cancel', this.control.cancel(memberId));
        return;
      case 'control/grant':
        this.applyControl(member, 'grant', this.control.grant(memberId, message.memberId));
        return;
      case 'control/release':
        this.applyControl(member, 'release', this.control.release(memberId));
        return;
      case 'control/take':
        this.applyControl(member, 'take', this.control.take(memberId));
        return;
      case 'chat/send':
        this.sendChat(member, message.text);
        return;
      case 'member/join':
        this.refuse(member, 'ALREADY_JOINED', message.type);
        return;
      default:
        this.pointing.handle(member, message, this.members.values());
    }
  }

  /** The room's browser went away: everyone is told why and disconnected; their pages follow the room back. */
  close(code: 'ROOM_NOT_RUNNING' | 'ROOM_NOT_FOUND' = 'ROOM_NOT_RUNNING', ending?: TRoomEnding): void {
    if (this.closed) return;
    this.closed = true;
    // A room whose owner's account was disabled is not coming back: its members' pages stop waiting for it.
    const final = ending?.reason === 'account-disabled' ? 'OWNER_DISABLED' : code;
    for (const member of this.members.values()) {
      if (ending) member.peer.send({ type: 'system/room-ended', ...ending });
      member.peer.send(errorMessage(final));
      member.peer.close(ROOM_CLOSE_CODES[final], ROOM_ERROR_MESSAGES[final]);
    }
    this.members.clear();
    this.media.close();
    this.stopTabs();
    this.stopFilesOut();
    this.filesOut.close();
    this.stopStats();
    this.options.participantsChanged(0);
  }

  private handleDriving(member: TMemberState, message: TClientMessage): void {
    if (!this.control.isController(member.info.id)) {
      const at = this.now();
      if (at - member.lastRefusedAt >= 1000) {
        member.lastRefusedAt = at;
        this.refuse(member, 'NOT_CONTROLLER', message.type);
      }
      return;
    }
    if (this.pendingTasks >= MAX_PENDING_TASKS) return;
    const session = this.session;
    switch (message.type) {
      case 'input/pointer':
      case 'input/wheel':
        if (message.type === 'input/wheel' || message.action === 'move') {
          if (this.pendingTasks >= MAX_PENDING_INPUT) return;
        }
        this.enqueue(() => session.applyInput(message));
        return;
      case 'input/key':
      case 'input/text':
      case 'input/composition':
        this.enqueue(() => session.applyInput(message));
        return;
      case 'browser/navigate':
        this.enqueue(() => session.navigate(message.url), member, message.type);
        return;
      case 'browser/back':
        this.enqueue(() => session.back(), member, message.type);
        return;
      case 'browser/forward':
        this.enqueue(() => session.forward(), member, message.type);
        return;
      case 'browser/reload':
        this.enqueue(() => session.reload(), member, message.type);
        return;
      case 'browser/tab-open':
        this.enqueue(() => session.openTab(message.url), member, message.type);
        return;
      case 'browser/tab-activate':
        this.enqueue(() => session.activateTab(message.tabId), member, message.type);
        return;
      case 'browser/tab-close':
        this.enqueue(() => session.closeTab(message.tabId), member, message.type);
        return;
      case 'browser/find':
        this.enqueue(
          async () => {
            const found = await session.find(message.text, message.backwards);
            member.peer.send({ type: 'browser/found', text: message.text, found });
          },
          member,
          message.type,
        );
        return;
      default:
        return;
    }
  }

  /**
   * Failed browser actions are reported to whoever asked (the engine's AppError text, e.g. a blocked address,
   * is meant for people); failed input events are only logged: a pointer stream would turn them into a flood.
   */
  private enqueue(task: () => Promise<void>, reportTo?: TMemberState, about?: string): void {
    this.pendingTasks += 1;
    this.tasks = this.tasks
      .then(task)
      .catch((error: unknown) => {
        if (reportTo && about) {
          const message = error instanceof Error && 'appCode' in error ? error.message : undefined;
          reportTo.peer.send(errorMessage('BROWSER_ACTION_FAILED', about, message));
        } else {
          this.options.log?.warn({ err: error, roomId: this.room.id }, 'room input failed');
        }
      })
      .finally(() => {
        this.pendingTasks -= 1;
      });
  }

  /** Whether the owner banned this person (the rule: ./room-bans.ts). */
  isBanned(identity: TJoinIdentity): boolean {
    return this.bans.has(identity, this.room.ownerId);
  }

  /** Why this person may not come in: banned, or removed and not let back in (./removals.ts); null when they may. */
  keptOut(identity: TJoinIdentity): 'BANNED' | 'KICKED' | null {
    if (this.isBanned(identity)) return 'BANNED';
    return this.removals.has(identity, this.room.ownerId) ? 'KICKED' : null;
  }

  /**
   * Records what names the target: its account, browser and address, and those of its other seats; here at once,
   * then where the other processes look before they issue a ticket.
   */
  private banPerson(target: TMemberState): void {
    const marks = personSeats(this.members.values(), target).map((seat) => banMarksOf(seat.identity));
    for (const mark of marks) this.bans.add(mark);
    this.options.bans?.record?.(marks).catch((error: unknown) => {
      this.options.log?.warn({ err: error, roomId: this.room.id }, 'room ban not stored for other servers');
    });
    // What they wrote goes with them: chat outlives the room's runs, and a ban is how an owner clears spam.
    if (this.chat.retract(marks)) this.broadcast({ type: 'chat/history', messages: this.chat.history() });
  }

  private kick(by: TMemberState, targetId: string, ban: boolean): void {
    const target = this.members.get(targetId);
    const refusal = removalRefusal(by, target);
    if (refusal || !target) {
      this.refuse(by, refusal ?? 'NOT_A_MEMBER', ban ? 'member/ban' : 'member/kick');
      return;
    }
    // Either way the person stays out for the room's run, by account and browser; a ban by address too and with
    // no way back, where the owner may let a removed person back in.
    const seats = personSeats(this.members.values(), target);
    if (ban) this.banPerson(target);
    else this.removals.remove(target.info.nickname, seats, this.now());
    // Every seat now kept out goes: the person's other tabs and devices (and, banned, guests at their address).
    const code = ban ? 'BANNED' : 'KICKED';
    for (const seat of [...this.members.values()]) {
      if (seat !== target && (seat.info.isOwner || this.keptOut(seat.identity) === null)) continue;
      seat.peer.send(ban ? errorMessage(code) : { type: 'member/kicked' });
      seat.peer.close(ROOM_CLOSE_CODES[code], ROOM_ERROR_MESSAGES[code]);
      this.leave(seat.info.id, 'kicked');
    }
    if (!ban) this.tellOwners();
  }

  private readmit(by: TMemberState, removalId: string): void {
    if (!by.info.isOwner) {
      this.refuse(by, 'NOT_OWNER', 'member/readmit');
      return;
    }
    this.removals.lift(removalId);
    this.tellOwners();
  }

  /** The owner's seats hear who is removed, so each can let people back in. */
  private tellOwners(): void {
    const removed: TServerMessage = { type: 'member/removals', removed: this.removals.list() };
    for (const member of this.members.values()) if (member.info.isOwner) member.peer.send(removed);
  }

  private applyControl(
    member: TMemberState,
    action: TControlChange['action'],
    outcome: TControlOutcome,
  ): void {
    if (!outcome.ok) this.refuse(member, outcome.code, `control/${action}`);
    else if (outcome.changed) this.broadcastControl({ action, byId: member.info.id });
  }

  private sendChat(member: TMemberState, text: string): void {
    const { info, identity } = member;
    const message = this.chat.send(
      { memberId: info.id, nickname: info.nickname, identity },
      text,
      this.now(),
    );
    if (message) this.broadcast({ type: 'chat/message', message });
    else this.refuse(member, 'RATE_LIMITED', 'chat/send');
  }

  private refuse(member: TMemberState, code: TRoomErrorCode, about: string): void {
    member.peer.send(errorMessage(code, about));
  }

  private broadcastControl(change: TControlChange): void {
    this.broadcast({ type: 'control/state', ...this.control.state(), change });
  }

  private broadcast(message: TServerMessage): void {
    const serialized = JSON.stringify(message);
    for (const member of this.members.values()) member.peer.send(message, serialized);
  }

  private memberList(): TMember[] {
    return [...this.members.values()].map((member) => member.info);
  }

  private startStats(): void {
    const interval = this.options.statsIntervalMs ?? DEFAULT_STATS_INTERVAL_MS;
    if (this.statsTimer || interval <= 0) return;
    this.statsTimer = setInterval(() => {
      for (const member of this.members.values()) {
        const stats = this.media.takeStats(member.peer);
        if (stats) member.peer.send({ type: 'stream/stats', intervalMs: interval, ...stats });
      }
    }, interval);
    this.statsTimer.unref();
  }

  private stopStats(): void {
    clearInterval(this.statsTimer);
    this.statsTimer = undefined;
  }
}
