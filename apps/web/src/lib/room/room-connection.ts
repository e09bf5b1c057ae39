// One participant's connection to a room: a ticket from POST /ws/ticket, the WebSocket, the join with a
// nickname, and the room's state as the server's messages build it. Plain TypeScript with a subscribe/snapshot
// pair so React reads it through useSyncExternalStore; media frames go straight to a handler, never to React.
import {
  decodeMediaFrame,
  isPaddingFrame,
  isVoiceFrame,
  ROOM_CLOSE_CODES,
  ROOM_ERROR_MESSAGES,
  rejoinDelayMs,
  roomSocketPath,
  type TClientMessageInput,
  type TMediaCodecName,
  type TMediaFrame,
  type TRoomEnding,
  type TRoomErrorCode,
  type TServerMessage,
  type TServerMessageOf,
  type TStreamLayerChoice,
  ZServerMessage,
} from '@rooms/api/room-protocol';
import { RestError } from '../http';
import { currentToken } from '../session';
import { detectDecoders, onDecodersChanged } from './decoders';
import type { TFilesInEvent } from './file-sender';
import { knockTicketFields, nextKnockState } from './knock-state';
import { storedLayerChoice, storeLayerChoice } from './layer-choice';
import { PING_EVERY_MS } from './quality-meter';
import { RoomMoments, type TFilesOutEvent, type TPointingEvent, type TVoiceEvent } from './room-moments';
import { INITIAL_SNAPSHOT, type TRoomSnapshot } from './room-snapshot';
import { fetchRoomTicket, NOT_RUNNING_STATUS, TicketRefused } from './room-ticket';
import { StreamAcks } from './stream-acks';

export interface TRoomConnectionEvents {
  frame(frame: TMediaFrame, bytes: number): void;
  error(error: TServerMessageOf<'system/error'>): void;
  pong(sentAt: number, serverTime: number, now: number): void;
  stats(message: TServerMessageOf<'stream/stats'>): void;
}

const CHAT_KEEP = 200;
/** Backoff after a dropped connection; the last delay repeats for as long as the page stays open. */
const RECONNECT_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 10_000];
/** A room that is not running is waited for, never a reason to give up; the other close codes are final. */
const FINAL_CLOSE_CODES: Record<number, TRoomErrorCode> = Object.fromEntries(
  Object.entries(ROOM_CLOSE_CODES)
    .filter(([code]) => code !== 'ROOM_NOT_RUNNING')
    .map(([code, value]) => [value, code as TRoomErrorCode]),
);

/** Errors that come with the room going away, which the page's notice or cover tells instead of a toast. */
const ROOM_ENDING_CODES = new Set<TRoomErrorCode>(['ROOM_NOT_RUNNING', 'OWNER_DISABLED', 'ACCOUNT_DISABLED']);

export interface TRoomConnectionOptions {
  password?: string;
  /**
   * The codecs to announce in member/join; by default what this browser's WebCodecs can decode, and when that
   * changes (a decoder refused at run time) the connection joins again with the new list.
   */
  decoders?: readonly TMediaCodecName[];
  /** The layer to ask for; by default the choice kept in this browser (layer-choice.ts). */
  layer?: TStreamLayerChoice;
  /**
   * Whether the room runs, asked while it is away before asking for a ticket: a stopped room is a normal state,
   * answered as such, where each ticket would be refused (409) every few seconds and every refusal logged in the
   * browser's console as an error. Absent, or when it cannot answer, the ticket is asked and its answer decides.
   */
  roomRuns?: () => Promise<boolean>;
  /** The knock link's token: this page knocks, and waits to be let in (./knock-state.ts). */
  knock?: string | undefined;
}

export class RoomConnection {
  private snapshot: TRoomSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly moments = new RoomMoments();
  private socket: WebSocket | null = null;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private disposed = false;
  /** What the last system/room-ended said, kept for the close that follows it. */
  private ending: TRoomEnding | null = null;
  private waitingSince = 0;
  /** Times the page asked whether the room runs again since it went away. */
  private waitAsks = 0;
  /** Counts the asks of roomRuns, so that an answer a "Try now" has overtaken is dropped. */
  private runsAsked = 0;
  private askingRuns = false;
  /**
   * Whether this page entered signed in or as a guest, decided by its first ticket: every rejoin (a restart, a
   * dropped connection) comes back as the same, so signing in or out in another tab never turns the guest the
   * others see into an account (or an account into a guest) behind the person's back.
   */
  private enteredAs: 'user' | 'guest' | null = null;
  private readonly unwatchDecoders: (() => void) | undefined;
  private readonly onOnline = () => this.retryNow();

  constructor(
    private readonly roomId: string,
    private readonly nickname: string,
    private readonly events: TRoomConnectionEvents,
    private readonly options: TRoomConnectionOptions = {},
  ) {
    this.snapshot = { ...INITIAL_SNAPSHOT, choice: options.layer ?? storedLayerChoice() };
    if (!options.decoders) this.unwatchDecoders = onDecodersChanged(() => this.rejoin());
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): TRoomSnapshot => this.snapshot;

  /** Downloads offered or refused and text copied in the room: told to the controller's page only, as they come. */
  onFilesOut = (listener: (event: TFilesOutEvent) => void): (() => void) =>
    this.moments.on('filesOut', listener);

  /** A page's file chooser and the answers about a file on its way in: to the controller's page only. */
  onFilesIn = (listener: (event: TFilesInEvent) => void): (() => void) =>
    this.moments.on('filesIn', listener);

  /** Others' pointers and reactions, told as they come: up to 20 a second each, so never kept in the snapshot. */
  onPointing = (listener: (event: TPointingEvent) => void): (() => void) =>
    this.moments.on('pointing', listener);

  /** The room's voice state and others' voice packets, as they come (50 a second a speaker: not in the snapshot). */
  onVoice = (listener: (event: TVoiceEvent) => void): (() => void) => this.moments.on('voice', listener);

  async connect(): Promise<void> {
    this.retryTimer = undefined;
    const signedIn = currentToken() !== null;
    this.enteredAs ??= signedIn ? 'user' : 'guest';
    // Signed out (or the session's day is over) since entering: the account's seat is not taken over by a guest.
    if (this.enteredAs === 'user' && !signedIn)
      return this.end('SESSION_ENDED', ROOM_ERROR_MESSAGES.SESSION_ENDED);
    let ticket: string;
    let decoders: readonly TMediaCodecName[];
    try {
      [ticket, decoders] = await Promise.all([
        fetchRoomTicket(
          this.roomId,
          this.options.password,
          this.enteredAs === 'guest',
          knockTicketFields(this.roomId, this.options.knock),
        ),
        this.options.decoders ?? detectDecoders(),
      ]);
    } catch (error) {
      if (this.disposed) return;
      // A room that is not running is waited for; a refusal (not found, wrong password, banned) is final; a
      // network glitch, a busy server or a server restarting is retried.
      if (error instanceof RestError && error.status === NOT_RUNNING_STATUS) {
        this.waitForRoom();
      } else if (error instanceof TicketRefused && error.retryAfterMs !== undefined) {
        // Asked too often (a budget per browser and room): ask again when the server says, not before.
        this.retryAfter(error.retryAfterMs);
      } else if (
        error instanceof RestError &&
        error.status >= 400 &&
        error.status < 500 &&
        error.status !== 429
      ) {
        this.end('CLOSED', error.message);
      } else {
        this.retry();
      }
      return;
    }
    if (this.disposed) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${scheme}//${location.host}${roomSocketPath(this.roomId)}?ticket=${encodeURIComponent(ticket)}`;
    const socket = new WebSocket(url);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    // Counted per socket: the server counts what it sent this socket from its start.
    const acks = new StreamAcks((bytes, t, held) => {
      if (socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ type: 'stream/ack', bytes, t, held: Math.round(held) }));
      }
    });
    socket.addEventListener('open', () => {
      // The layer is the new socket's to learn: the room says which one it starts with.
      if (this.snapshot.layer) this.update({ layer: null });
      this.send({
        type: 'member/join',
        nickname: this.nickname,
        decoders: [...decoders],
        layer: this.snapshot.choice,
        // This client acknowledges what it receives (below): the room may pace the picture to the link.
        acks: true,
      });
      this.pingTimer = setInterval(
        () => this.send({ type: 'system/ping', t: performance.now() }),
        PING_EVERY_MS,
      );
      this.send({ type: 'system/ping', t: performance.now() });
    });
    socket.addEventListener('message', (event) => {
      // Voice is other members', not the room's media: the link's pace is judged by the room's media alone.
      if (event.data instanceof ArrayBuffer && !isVoiceFrame(event.data))
        acks.received(event.data.byteLength);
      this.receive(event.data);
    });
    socket.addEventListener('close', (event) => {
      acks.stop();
      this.closed(socket, event.code, event.reason);
    });
  }

  /** A message, or a voice frame's bytes. */
  send(message: TClientMessageInput | Uint8Array<ArrayBuffer>): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(message instanceof Uint8Array ? message : JSON.stringify(message));
    return true;
  }

  /** Asks for a layer of the picture ('auto': whatever the link carries), and keeps the choice for next time. */
  choose(choice: TStreamLayerChoice): void {
    storeLayerChoice(choice);
    if (choice === this.snapshot.choice) return;
    this.update({ choice });
    // When not connected, the next member/join carries it.
    this.send({ type: 'stream/choose', layer: choice });
  }

  /** Tries at once instead of waiting for the backoff (the "Try now" button, the browser coming back online). */
  retryNow(): void {
    if (this.disposed || this.snapshot.ended || this.socket) return;
    if (this.askingRuns) {
      // Asking whether the room runs: that answer no longer matters, the ticket's will.
      this.runsAsked += 1;
      this.askingRuns = false;
      void this.connect();
      return;
    }
    if (this.retryTimer === undefined) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    void this.connect();
  }

  dispose(): void {
    this.disposed = true;
    this.unwatchDecoders?.();
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    this.socket?.close(1000, 'left');
    this.socket = null;
  }

  private receive(data: unknown): void {
    if (data instanceof ArrayBuffer) {
      if (isVoiceFrame(data)) {
        this.moments.tell('voice', data);
        return;
      }
      // Filler the server sends to learn whether the link carries more: acknowledged (above), never played.
      if (isPaddingFrame(data)) return;
      try {
        this.events.frame(decodeMediaFrame(data), data.byteLength);
      } catch {
        // A frame of a version or codec this client does not know: skip it, the next keyframe will do.
      }
      return;
    }
    if (typeof data !== 'string') return;
    let parsed: ReturnType<typeof ZServerMessage.safeParse>;
    try {
      parsed = ZServerMessage.safeParse(JSON.parse(data));
    } catch {
      return;
    }
    if (parsed.success) this.apply(parsed.data);
  }

  private apply(message: TServerMessage) {
    if (this.moments.pass(message)) return;
    const now = this.snapshot;
    switch (message.type) {
      case 'member/list':
        this.attempts = 0;
        this.ending = null;
        return this.update({
          status: 'joined',
          you: message.you,
          members: message.members,
          away: null,
          retryAt: null,
        });
      case 'member/joined':
        return this.update({
          members: [...now.members.filter((member) => member.id !== message.member.id), message.member],
        });
      case 'member/left':
        return this.update({
          members: now.members.filter((member) => member.id !== message.memberId),
          queue: now.queue.filter((id) => id !== message.memberId),
        });
      case 'member/kicked':
        return this.end('KICKED', ROOM_ERROR_MESSAGES.KICKED);
      case 'member/removals':
        return this.update({ removed: message.removed });
      case 'control/state':
        return this.update({
          controllerId: message.controllerId,
          queue: message.queue,
          controlChange: message.change ?? null,
        });
      case 'chat/history':
        return this.update({ chat: message.messages });
      case 'chat/message':
        return this.update({ chat: [...now.chat, message.message].slice(-CHAT_KEEP) });
      case 'browser/tabs':
        return this.update({ tabs: message.tabs });
      case 'browser/found':
        return this.update({ found: { text: message.text, found: message.found } });
      case 'stream/config':
        return this.update({ stream: message });
      case 'stream/layer':
        return this.update({ layer: message });
      case 'stream/stats':
        return this.events.stats(message);
      case 'knock/waiting':
      case 'knock/admitted':
      case 'knock/pending':
      case 'knock/trusted':
        return this.update({ knock: nextKnockState(this.roomId, this.snapshot.knock, message) });
      case 'system/pong':
        return this.events.pong(message.t, message.serverTime, performance.now());
      case 'system/error':
        // The close that follows says it all; a toast on top of the room's notice would repeat it.
        if (ROOM_ENDING_CODES.has(message.code)) return;
        return this.events.error(message);
      case 'system/room-ended':
        this.ending = { reason: message.reason, by: message.by };
        return;
    }
  }

  /** Leaves and joins again at once, e.g. to announce other decoders. */
  private rejoin(): void {
    const socket = this.socket;
    if (this.disposed || this.snapshot.ended || !socket) return;
    this.socket = null;
    clearInterval(this.pingTimer);
    socket.close(1000, 'rejoining');
    this.update({ status: 'reconnecting' });
    void this.connect();
  }

  private closed(socket: WebSocket, code: number, reason: string) {
    if (socket !== this.socket) return;
    clearInterval(this.pingTimer);
    this.socket = null;
    if (this.disposed || this.snapshot.ended) return;
    const final = FINAL_CLOSE_CODES[code];
    if (final) return this.end(final, reason);
    if (code === ROOM_CLOSE_CODES.ROOM_NOT_RUNNING) return this.waitForRoom();
    this.retry();
  }

  /** The connection dropped: try again with backoff, for as long as the page is open. */
  private retry() {
    if (this.disposed) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.attempts, RECONNECT_DELAYS_MS.length - 1)] ?? 10_000;
    this.attempts += 1;
    this.update({ status: 'reconnecting', retryAt: performance.now() + delay });
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  /** Waits as long as a refusal for asking too often said; waiting for the room stays waiting. */
  private retryAfter(delay: number) {
    if (this.disposed) return;
    if (this.snapshot.status !== 'waiting')
      this.update({ status: 'reconnecting', retryAt: performance.now() + delay });
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  /**
   * The room's browser is away: the people, tabs and control go with it; ask again until it runs, soon after a
   * restart and less and less often (room-protocol's rejoin schedule).
   */
  private waitForRoom() {
    if (this.disposed) return;
    const away = this.ending ?? this.snapshot.away ?? { reason: 'stopped', by: null };
    if (this.snapshot.status !== 'waiting') {
      this.waitingSince = performance.now();
      this.waitAsks = 0;
    }
    this.attempts = 0;
    this.update({
      status: 'waiting',
      away,
      retryAt: null,
      members: [],
      removed: [],
      controllerId: null,
      queue: [],
      controlChange: null,
      tabs: [],
    });
    const restarting = away.reason === 'restarting' || away.reason === 'server-restart';
    const delay = rejoinDelayMs(this.waitAsks++, performance.now() - this.waitingSince, restarting);
    this.retryTimer = setTimeout(() => void this.rejoinOnceRunning(), delay);
  }

  /** While the room is away: a ticket once the room says it runs (roomRuns), else wait on. */
  private async rejoinOnceRunning(): Promise<void> {
    this.retryTimer = undefined;
    const ask = this.options.roomRuns;
    if (ask) {
      const asked = ++this.runsAsked;
      this.askingRuns = true;
      const runs = await ask().catch(() => true);
      if (this.disposed || asked !== this.runsAsked) return;
      this.askingRuns = false;
      if (!runs) return this.waitForRoom();
    }
    await this.connect();
  }

  private end(code: TRoomErrorCode | 'CLOSED', message: string): void {
    this.update({ status: 'closed', ended: { code, message } });
  }

  private update(patch: Partial<TRoomSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }
}
