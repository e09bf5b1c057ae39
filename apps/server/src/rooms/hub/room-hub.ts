// One running room's participants: members, control, chat, the shared picture and the way input reaches the
// browser. Transport-free (members are HubPeers), so its rules are unit-tested without sockets. The hub keeps who
// joined and routes each message to its domain's handler (./member, ./control, ./chat, ./input, ./browser,
// ./pointing, ./voice, and the picture's ./participant-streams.ts), as the protocol names them (`domain/action`).

import { randomUUID } from 'node:crypto';
import {
  isControllerOnly,
  ROOM_CLOSE_CODES,
  ROOM_ERROR_MESSAGES,
  type TClientMessage,
  type TKnock,
  type TMediaCodecName,
  type TMember,
  type TRoomEnding,
  type TRoomErrorCode,
  type TServerMessage,
} from '@rooms/api/room-protocol';
import type { TRelayRoom } from '../../ws/relay-ports';
import type { RoomSession } from '../room-session';
import { BrowserHandler } from './browser/browser-handler';
import { ChatHandler } from './chat/chat-handler';
import type { TRoomChatOptions } from './chat/room-chat';
import { ControlHandler } from './control/control-handler';
import type { DownloadKeys } from './download-keys';
import { errorMessage } from './error-message';
import { RoomFilesIn } from './files-in/files-in';
import {
  domainOf,
  type HubPeer,
  type TDomainHandler,
  type TDomainHandlers,
  type THubContext,
  type THubMember,
  type TJoinIdentity,
} from './hub-context';
import { Driving } from './input/driving';
import { InputHandler } from './input/input-handler';
import { RoomKnocks, type TKnocker, type TKnockResult } from './knock/knocks';
import type { TBackpressure } from './media-fanout';
import { MemberHandler, type TMemberHandlerOptions } from './member/member-handler';
import { hasSeatFor, nicknameRefusal, PersonIds, peopleIn } from './member/member-list';
import type { TRemovalOptions } from './member/removals';
import { ParticipantStreams, type TViewerJoin } from './participant-streams';
import { RoomPointing } from './pointing/pointing';
import { RoomFilesOut, type TOfferedFile } from './room-files-out';
import { RoomVoice } from './voice/voice';

export type { HubPeer, TJoinIdentity } from './hub-context';

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
  bans?: TMemberHandlerOptions['bans'];
  /** The people the owner removed, likewise (./member/removals.ts). */
  removals?: TRemovalOptions;
  /** The room's chat beyond this hub: earlier runs' messages, and where new ones are stored (./chat/room-chat.ts). */
  chat?: TRoomChatOptions;
  /** Whether this process serves the fetch of the room's downloads (./room-files-out.ts); true unless said. */
  downloadsServed?: boolean;
  /** Signs an admitted knocker's pass for their later tickets (ws/admission-pass.ts; ./knock). */
  admissionPass?: (person: TJoinIdentity) => string;
  /** Signs the keys of the room's offered downloads, so a gateway can check them too (./download-keys.ts). */
  downloadKeys?: DownloadKeys;
}

export type TJoinResult = { ok: true; memberId: string } | { ok: false; code: TRoomErrorCode };

const DEFAULT_STATS_INTERVAL_MS = 2000;

export class RoomHub {
  readonly session: RoomSession;
  private readonly room: TRelayRoom;
  private readonly members = new Map<string, THubMember>();
  private readonly context: THubContext;
  private readonly member: MemberHandler;
  private readonly control: ControlHandler;
  private readonly chat: ChatHandler;
  private readonly driving: Driving;
  private readonly media: ParticipantStreams;
  private readonly pointing: RoomPointing;
  /** Files from the controller's computer into the room's pages (./files-in). */
  private readonly filesIn: RoomFilesIn;
  private readonly knocks: RoomKnocks;
  private readonly voice: RoomVoice;
  /** Each message domain's handler; what has none here is not the hub's (system/ping is the socket's). */
  private readonly handlers: TDomainHandlers;
  private readonly people = new PersonIds();
  private readonly stopTabs: () => void;
  /** Downloads and copied text, for the controller alone (./room-files-out.ts). */
  private readonly filesOut: RoomFilesOut;
  private readonly stopFilesOut: () => void;
  private readonly now: () => number;
  private statsTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: TRoomHubOptions) {
    this.room = options.room;
    this.session = options.session;
    this.now = options.now ?? Date.now;
    this.context = {
      room: this.room,
      members: this.members,
      now: () => this.now(),
      broadcast: (message) => this.broadcast(message),
      warn: (err, what) => options.log?.warn({ err, roomId: this.room.id }, what),
    };
    this.chat = new ChatHandler(this.context, options.chat);
    this.member = new MemberHandler(this.context, {
      bans: options.bans,
      removals: options.removals,
      retractChat: (marks) => this.chat.retract(marks),
      leave: (id, reason) => this.leave(id, reason),
    });
    this.media = new ParticipantStreams(options.session, options.backpressure);
    this.control = new ControlHandler(this.context);
    this.knocks = new RoomKnocks(this.context, { pass: options.admissionPass ?? (() => '') });
    this.driving = new Driving(this.context, (id) => this.control.isController(id));
    this.pointing = new RoomPointing(
      () => this.now(),
      (id) => this.control.isController(id),
    );
    this.voice = new RoomVoice(
      () => this.now(),
      () => this.members.values(),
      (message) => this.broadcast(message),
    );
    this.filesIn = new RoomFilesIn(this.context, {
      filesIn: options.session.filesIn,
      controllerId: () => this.control.queue.state().controllerId,
      maxBytes: this.room.fileInMaxBytes,
    });
    const input = new InputHandler(options.session, this.driving);
    const browser = new BrowserHandler(options.session, this.driving);
    const pointing: TDomainHandler<'pointer' | 'reaction'> = (member, message) =>
      this.pointing.handle(member, message, this.members.values());
    this.handlers = {
      member: (member, message) => this.member.handle(member, message),
      control: (member, message) => this.control.handle(member, message),
      chat: (member, message) => this.chat.handle(member, message),
      input: (_member, message) => input.handle(message),
      browser: (member, message) => browser.handle(member, message),
      pointer: pointing,
      reaction: pointing,
      voice: (member, message) => this.voice.handle(member, message),
      stream: (member, message) => this.media.handle(member.peer, message),
      file: (member, message) => this.filesIn.handle(member, message),
      knock: (member, message) => this.knocks.handle(member, message),
    };
    this.stopTabs = options.session.onTabsChanged((tabs) => this.broadcast({ type: 'browser/tabs', tabs }));
    this.filesOut = new RoomFilesOut({
      roomId: this.room.id,
      controller: () => {
        const id = this.control.queue.state().controllerId;
        const member = id === null ? undefined : this.members.get(id);
        return member && { id: member.info.id, peer: member.peer };
      },
      now: this.now,
      served: options.downloadsServed,
      keys: options.downloadKeys,
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

  /** The knocks waiting for an answer, for an owner who is not in the room (the app's knock alerts). */
  get knocksWaiting(): TKnock[] {
    return this.knocks.waiting();
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
    const joined = this.control.queue.joined(info.id);

    peer.send({ type: 'member/list', you: info.id, members: this.memberList() });
    if (joined.ok && joined.changed) this.control.announce({ action: 'joined', byId: info.id });
    else peer.send({ type: 'control/state', ...this.control.queue.state() });
    peer.send({ type: 'chat/history', messages: this.chat.history() });
    this.knocks.joined(info.id);
    if (isOwner) peer.send(this.member.removalsMessage());
    peer.send({ type: 'browser/tabs', tabs: this.session.tabs() });
    this.voice.joined(info, peer);
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
    this.voice.left(memberId);
    this.media.remove(member.peer);
    const control = this.control.queue.left(memberId);
    this.broadcast({ type: 'member/left', memberId, reason });
    if (control.ok && control.changed) this.control.announce({ action: 'left', byId: memberId });
    if (this.members.size === 0) this.stopStats();
    this.options.participantsChanged(this.members.size);
  }

  /**
   * One message of a joined member, to its domain's handler; what only the controller may send passes its gate
   * first (./input/driving.ts). member/join and system/ping are the socket's business.
   */
  handle(memberId: string, message: TClientMessage): void {
    const member = this.members.get(memberId);
    if (!member) return;
    if (isControllerOnly(message) && !this.driving.admit(member, message)) return;
    const handler = this.handlers[domainOf(message)] as
      | ((member: THubMember, message: TClientMessage) => void)
      | undefined;
    handler?.(member, message);
  }

  /** A joined member's binary voice frame, to the others (./voice/voice.ts); the socket checked its size. */
  voiceFrame(memberId: string, frame: Uint8Array): void {
    const member = this.members.get(memberId);
    if (member) this.voice.frame(member, frame);
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
    this.knocks.close();
    this.media.close();
    this.stopTabs();
    this.stopFilesOut();
    this.filesOut.close();
    this.filesIn.close();
    this.stopStats();
    this.options.participantsChanged(0);
  }

  /** Someone with the knock link asks to be let in (./knock/knocks.ts): kept out, or waiting for an answer. */
  knock(peer: HubPeer, identity: TJoinIdentity, nickname: string, knocker: TKnocker): TKnockResult {
    if (this.closed) return { ok: false, code: 'ROOM_NOT_RUNNING' };
    const keptOut = this.keptOut(identity);
    if (keptOut) return { ok: false, code: keptOut };
    const joiner = { identity, nickname, isOwner: false };
    const taken = nicknameRefusal(this.members.values(), joiner, this.room.ownerName);
    return taken ? { ok: false, code: taken } : this.knocks.ask(peer, identity, nickname, knocker);
  }

  /** The knocker's socket closed before an answer. */
  cancelKnock(knockId: string): void {
    this.knocks.cancel(knockId);
  }

  /** Whether the owner banned this person (the rule: ./member/room-bans.ts). */
  isBanned(identity: TJoinIdentity): boolean {
    return this.member.isBanned(identity);
  }

  /** Why this person may not come in: banned, or removed and not let back in; null when they may. */
  keptOut(identity: TJoinIdentity): 'BANNED' | 'KICKED' | null {
    return this.member.keptOut(identity);
  }

  private broadcast(message: TServerMessage): void {
    const serialized = JSON.stringify(message);
    for (const member of this.members.values()) member.peer.send(message, serialized);
    if (message.type === 'control/state') this.filesIn.controlChanged();
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
