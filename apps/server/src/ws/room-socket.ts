// GET /ws/room/:roomId — one participant's connection to a room: JSON messages both ways (the room protocol of
// @rooms/api/room-protocol) and binary media frames to the participant, binary voice frames both ways. The
// connection joins the room's hub once it sends member/join with a nickname.

import type { Socket } from 'node:net';
import {
  isVoiceFrame,
  ROOM_CLOSE_CODES,
  ROOM_ERROR_MESSAGES,
  type TClientMessage,
  type TClientMessageOf,
  type TRoomErrorCode,
  VOICE_FRAME_MAX_BYTES,
  VOICE_HEADER_BYTES,
  ZClientMessage,
} from '@rooms/api/room-protocol';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { SlidingWindow } from '../rooms/hub/chat/chat-log';
import { errorMessage } from '../rooms/hub/error-message';
import type { RoomHub, TJoinIdentity } from '../rooms/hub/room-hub';
import { SocketPeer } from '../rooms/hub/socket-peer';
import type { TBookedConnection } from './connection-book';
import type { RoomRelay } from './room-relay';
import { authenticateSocket } from './socket-auth';
import { defineSocketHandler } from './socket-handler';

/** No client message is anywhere near this (the largest is a 10 000-character paste). */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Bad messages tolerated per minute before the connection is closed; the 20th closes it. */
const BAD_MESSAGE_LIMIT = 20;
const BAD_MESSAGE_WINDOW_MS = 60_000;
/** Time to send member/join after connecting: a page sends it as the socket opens, a script right after. */
export const JOIN_TIMEOUT_MS = 10_000;

export interface TRoomSocketContext {
  identity: TJoinIdentity;
  via: 'ticket' | 'token';
  /** Forwarded by a gateway that sends this participant's H.264 media from its own feed of the room. */
  mediaByGateway?: boolean;
}

type TRoomSocketRequest = FastifyRequest<{
  Params: { roomId: string };
  Querystring: Record<string, string | undefined>;
}>;

export const roomSocketHandler = defineSocketHandler<TRoomSocketContext>({
  path: '/ws/room/:roomId',
  async authenticate(request, deps) {
    const result = await authenticateSocket(request as TRoomSocketRequest, deps.auth);
    if (!result.ok) return result;
    return { ok: true, context: { identity: result.identity, via: result.via } };
  },
  handle(socket, request, context, deps) {
    openRoomConnection(socket, request, context, deps);
  },
});

/**
 * The participant's connection to the room's hub, on the process that holds it: this server, or the agent a
 * gateway forwarded the socket to. Scripts with a token send the room password as `X-Room-Password`.
 */
export function openRoomConnection(
  socket: WebSocket,
  request: FastifyRequest,
  context: TRoomSocketContext,
  deps: { relay: RoomRelay; log: FastifyBaseLogger },
): void {
  const { roomId } = (request as TRoomSocketRequest).params;
  const password = request.headers['x-room-password'];
  new RoomConnection(socket, {
    roomId,
    context,
    relay: deps.relay,
    log: deps.log,
    password: typeof password === 'string' ? password : undefined,
    connection: request.raw.socket,
  }).start();
}

interface TConnectionOptions {
  roomId: string;
  context: TRoomSocketContext;
  relay: RoomRelay;
  log: FastifyBaseLogger;
  /** Sent by scripts with a token as `X-Room-Password`; browsers proved it when they got their ticket. */
  password: string | undefined;
  /** The TCP connection the WebSocket upgraded (the same socket `ws` writes to). */
  connection: Socket;
}

class RoomConnection implements TBookedConnection {
  private readonly peer: SocketPeer;
  private readonly badMessages = new SlidingWindow(BAD_MESSAGE_LIMIT - 1, BAD_MESSAGE_WINDOW_MS);
  /** Messages that arrive while the room is looked up, handled in order once it is known. */
  private early: RawData[] | undefined = [];
  private hub: RoomHub | undefined;
  private memberId: string | undefined;
  /** A knock ticket's socket waiting for its answer (rooms/hub/knock). */
  private knockId: string | undefined;
  private joinTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: TConnectionOptions,
  ) {
    this.peer = new SocketPeer(socket, options.connection);
  }

  get identity(): TJoinIdentity {
    return this.options.context.identity;
  }

  start(): void {
    this.socket.on('message', (data, isBinary) => {
      if (this.early) {
        if (!isBinary && this.early.length < 16) this.early.push(data);
        return;
      }
      this.receive(data, isBinary);
    });
    this.socket.on('close', () => this.onClose());
    this.socket.on('error', (error) => this.options.log.debug({ err: error }, 'room socket error'));
    if (!this.options.relay.connections.admit(this)) {
      this.end('TOO_MANY_UNJOINED');
      return;
    }
    this.open().catch((error: unknown) => {
      this.options.log.error({ err: error, roomId: this.options.roomId }, 'room socket failed to open');
      this.peer.close(1011, 'Unknown error');
    });
  }

  private async open(): Promise<void> {
    const { relay, roomId, context } = this.options;
    const opened = await relay.open(roomId);
    if (this.closed) return;
    if (!opened.ok) {
      this.refuse(opened.code);
      return;
    }
    // A ticket was only issued to someone who may enter; a token says who, not whether.
    if (context.via === 'token') {
      const refusal = await relay.entryRefusal(
        opened.room,
        { userId: context.identity.userId, ip: context.identity.ip ?? '' },
        this.options.password,
      );
      if (this.closed) return;
      if (refusal) {
        this.refuse(refusal);
        return;
      }
    }
    const keptOut = opened.hub.keptOut(context.identity);
    if (keptOut) {
      this.refuse(keptOut);
      return;
    }
    this.hub = opened.hub;
    this.joinTimer = setTimeout(() => this.refuse('JOIN_TIMEOUT'), JOIN_TIMEOUT_MS);
    this.joinTimer.unref();
    const early = this.early ?? [];
    this.early = undefined;
    for (const data of early) this.receive(data, false);
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    const bytes = bytesOf(data);
    if (isBinary) {
      this.binary(bytes);
      return;
    }
    if (bytes.byteLength > MAX_MESSAGE_BYTES) {
      this.bad('This message is too large');
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      this.bad('This message is not valid JSON');
      return;
    }
    const parsed = ZClientMessage.safeParse(json);
    if (!parsed.success) {
      // Field checks carry texts for people ('Please enter your nickname'); a wrong shape gets the generic one.
      const issue = parsed.error.issues[0];
      const about =
        typeof (json as { type?: unknown })?.type === 'string' ? (json as { type: string }).type : undefined;
      this.bad(issue && issue.path.length > 0 ? issue.message : undefined, about);
      return;
    }
    this.handle(parsed.data);
  }

  private handle(message: TClientMessage): void {
    if (message.type === 'system/ping') {
      this.peer.send({ type: 'system/pong', t: message.t, serverTime: performance.now() });
      return;
    }
    const hub = this.hub;
    if (!hub) return;
    if (this.memberId === undefined) {
      if (message.type !== 'member/join') {
        this.peer.send(errorMessage('NOT_JOINED', message.type));
        return;
      }
      if (this.options.context.identity.knock) {
        this.knock(hub, message);
        return;
      }
      this.join(hub, message);
      return;
    }
    hub.handle(this.memberId, message);
  }

  /** A knock ticket's join waits for the owner's (or a trusted member's) answer; one knock per socket. */
  private knock(hub: RoomHub, message: TClientMessageOf<'member/join'>): void {
    if (this.knockId !== undefined) return;
    const asked = hub.knock(this.peer, this.options.context.identity, message.nickname, {
      admitted: (pass) => {
        this.knockId = undefined;
        if (this.closed) return;
        this.peer.send({ type: 'knock/admitted', pass });
        this.join(hub, message);
      },
      refused: (code) => {
        this.knockId = undefined;
        this.refuse(code, message.type);
      },
    });
    if (!asked.ok) {
      this.refuse(asked.code, message.type);
      return;
    }
    // Waiting for people to answer is not a join that timed out: the knock has its own wait.
    clearTimeout(this.joinTimer);
    this.knockId = asked.knockId;
  }

  private join(hub: RoomHub, message: TClientMessageOf<'member/join'>): void {
    const joined = hub.join(this.peer, this.options.context.identity, message.nickname, message.decoders, {
      layer: message.layer,
      acks: message.acks,
      mediaByGateway: this.options.context.mediaByGateway,
    });
    if (!joined.ok) {
      this.refuse(joined.code, message.type);
      return;
    }
    clearTimeout(this.joinTimer);
    this.memberId = joined.memberId;
    this.options.relay.connections.joined(this);
  }

  /** The only binary a participant sends: a voice frame of a joined member, passed to the hub (rooms/hub/voice). */
  private binary(bytes: Buffer): void {
    if (!isVoiceFrame(bytes) || bytes.byteLength <= VOICE_HEADER_BYTES) {
      this.bad('Binary messages are not accepted from participants');
    } else if (bytes.byteLength > VOICE_FRAME_MAX_BYTES) {
      this.bad('This voice packet is too large');
    } else if (!this.hub || this.memberId === undefined) {
      // Refused as join-first, and counted as a bad message: a stream of them ends the connection.
      this.peer.send(errorMessage('NOT_JOINED', 'voice'));
      if (!this.badMessages.allow(Date.now())) this.refuse('TOO_MANY_BAD_MESSAGES');
    } else this.hub.voiceFrame(this.memberId, bytes);
  }

  /** A malformed message is answered to this socket only; a stream of them ends the connection. */
  private bad(text: string | undefined, about?: string): void {
    this.peer.send(errorMessage('BAD_MESSAGE', about, text));
    if (!this.badMessages.allow(Date.now())) this.refuse('TOO_MANY_BAD_MESSAGES');
  }

  end(code: TRoomErrorCode): void {
    this.refuse(code);
  }

  /** Errors that end the connection carry a close code, so the client knows whether to come back. */
  private refuse(code: TRoomErrorCode, about?: string): void {
    this.peer.send(errorMessage(code, about));
    const closeCode = (ROOM_CLOSE_CODES as Partial<Record<TRoomErrorCode, number>>)[code];
    if (closeCode !== undefined) this.peer.close(closeCode, ROOM_ERROR_MESSAGES[code]);
  }

  private onClose(): void {
    this.closed = true;
    this.options.relay.connections.remove(this);
    this.early = undefined;
    clearTimeout(this.joinTimer);
    if (this.hub && this.memberId !== undefined) this.hub.leave(this.memberId);
    if (this.hub && this.knockId !== undefined) this.hub.cancelKnock(this.knockId);
    this.knockId = undefined;
    this.memberId = undefined;
  }
}

function bytesOf(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(new Uint8Array(data));
}
