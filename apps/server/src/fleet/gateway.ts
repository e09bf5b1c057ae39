// The room gateway: participants' room sockets end here and are forwarded to the agent that runs the room. It
// checks who may connect exactly as a single server does (Origin, a single-use ticket spent in PostgreSQL, or a
// session token), finds the room's live run, and pipes messages both ways. It keeps nothing: a gateway that dies
// loses only its sockets, whose pages reconnect through another. When the room's agent goes away, its
// participants are told the room is restarting and wait for its next run, on whichever agent it lands; the control
// plane hears of it at once (agent-reports.ts), so the next run starts within seconds. The controller's fetches of
// the room's downloads come here too, beside the socket (gateway-downloads.ts).
import type { Socket } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import {
  ROOM_CLOSE_CODES,
  ROOM_ERROR_MESSAGES,
  type TMediaCodecName,
  type TStreamLayerChoice,
  ZClientMessage,
} from '@rooms/api/room-protocol';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import WebSocket, { type RawData } from 'ws';
import type { DownloadKeys } from '../rooms/hub/download-keys';
import { errorMessage } from '../rooms/hub/error-message';
import { holdWritesForTurn } from '../rooms/hub/turn-writes';
import type { ViewerPeer } from '../rooms/hub/viewer-stream';
import { authenticateSocket, type TSocketAuthDeps } from '../ws/socket-auth';
import { defineSocketHandler } from '../ws/socket-handler';
import { encodeForwardedIdentity, FORWARDED_IDENTITY_HEADER, type TForwardedIdentity } from './agent-routes';
import type { TFleetCaller } from './fleet-callers';
import { liveAgentOf, registerGatewayDownloads } from './gateway-downloads';
import { GatewayRoomFeed } from './gateway-feed';
import { MEDIA_BY_GATEWAY_HEADER } from './room-feed';

/** Past this much unsent to a participant, the agent's stream is paused: the agent then skips to keyframes. */
const PAUSE_ABOVE_BYTES = 4 * 1024 * 1024;
const RESUME_BELOW_BYTES = 1024 * 1024;
/** Messages a participant sends before the agent answers (member/join and a ping at most). */
const EARLY_MESSAGES = 16;
/**
 * How long an agent may take to accept a participant's socket, and how often a connected one must have been heard
 * from (any message, or a ping's answer): an agent whose machine is cut off breaks no connection, and without
 * these its participants would wait on TCP's own timeouts (minutes) instead of being told the room is restarting.
 */
const AGENT_HANDSHAKE_MS = 10_000;
const AGENT_PING_MS = 10_000;

export interface TGatewayOptions {
  orm: MikroORM;
  auth: TSocketAuthDeps;
  /** Signs its calls to agents with the gateway's credential (fleet-auth.ts). */
  caller: TFleetCaller;
  /** Tells the control plane that this gateway's socket to an agent broke (agentReporter). */
  reportAgent?: (agentId: string) => void;
  /** Checks the keys of the rooms' downloads this gateway hands their controllers (./gateway-downloads.ts). */
  downloadKeys: DownloadKeys;
}

type TGatewayRequest = FastifyRequest<{
  Params: { roomId: string };
  Querystring: Record<string, string | undefined>;
}>;

/** The rooms' feeds this gateway holds, by agent address and room. */
type TFeeds = Map<string, GatewayRoomFeed>;

export function registerGateway(app: FastifyInstance, options: TGatewayOptions): void {
  gatewaySocketHandler.register(app, { ...options, log: app.log, feeds: new Map() });
  registerGatewayDownloads(app, { ...options, keys: options.downloadKeys, log: app.log });
}

/** The room's public socket, checked as a single server checks it, then forwarded to the room's agent. */
const gatewaySocketHandler = defineSocketHandler<
  TForwardedIdentity,
  TGatewayOptions & { log: FastifyBaseLogger; feeds: TFeeds }
>({
  path: '/ws/room/:roomId',
  async authenticate(request, deps) {
    const result = await authenticateSocket(request as TGatewayRequest, deps.auth);
    if (!result.ok) return result;
    const { identity, via } = result;
    return {
      ok: true,
      context: {
        userId: identity.userId,
        guestId: identity.guestId ?? null,
        sessionId: identity.sessionId ?? null,
        ip: identity.ip ?? null,
        ...(identity.knock ? { knock: true } : {}),
        via,
      },
    };
  },
  handle(socket, request, identity, deps) {
    const password = request.headers['x-room-password'];
    void forward(socket, {
      connection: request.raw.socket,
      roomId: (request as TGatewayRequest).params.roomId,
      identity,
      password: typeof password === 'string' ? password : undefined,
      orm: deps.orm,
      caller: deps.caller,
      log: deps.log,
      feeds: deps.feeds,
      reportAgent: deps.reportAgent,
    });
  },
});

interface TForward {
  /** The participant's TCP connection under `client`: what one turn forwards to it leaves in one write. */
  connection: Socket;
  roomId: string;
  identity: TForwardedIdentity;
  password: string | undefined;
  orm: MikroORM;
  caller: TFleetCaller;
  log: FastifyBaseLogger;
  feeds: TFeeds;
  reportAgent: ((agentId: string) => void) | undefined;
}

/** What a participant said in member/join about its media, kept to start its feed once the agent agrees. */
interface TMediaJoin {
  decoders: readonly TMediaCodecName[];
  layer: TStreamLayerChoice;
  acks: boolean;
}

/** The agent's JSON messages are parsed only when they may start a viewer's feed. */
const STREAM_CONFIG_PREFIX = Buffer.from('{"type":"stream/config"');

async function forward(client: WebSocket, options: TForward): Promise<void> {
  const early: { data: RawData; isBinary: boolean }[] = [];
  let upstream: WebSocket | undefined;
  let clientClosed = false;
  let join: TMediaJoin | undefined;
  // This participant's H.264 media comes from the room's feed here, once the agent sent its stream/config.
  let feed: GatewayRoomFeed | undefined;
  const peer: ViewerPeer = {
    get bufferedAmount() {
      return client.bufferedAmount;
    },
    sendFrame(frame, written) {
      if (client.readyState !== WebSocket.OPEN) return written();
      holdWritesForTurn(options.connection);
      client.send(frame, { binary: true }, () => written());
    },
    send(message) {
      if (client.readyState !== WebSocket.OPEN) return;
      holdWritesForTurn(options.connection);
      client.send(JSON.stringify(message));
    },
  };
  client.on('message', (data, isBinary) => {
    if (!isBinary && handledHere(data)) return;
    if (upstream?.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
    else if (early.length < EARLY_MESSAGES) early.push({ data, isBinary });
  });
  client.on('close', () => {
    clientClosed = true;
    feed?.remove(peer);
    upstream?.close(1000, 'participant left');
  });
  /** Notes member/join; answers stream/ack and stream/choose of a feed viewer here. Whether it went no further. */
  const handledHere = (data: RawData): boolean => {
    let parsed: ReturnType<typeof ZClientMessage.safeParse>;
    try {
      parsed = ZClientMessage.safeParse(JSON.parse(textOf(data)));
    } catch {
      return false;
    }
    if (!parsed.success) return false;
    const message = parsed.data;
    switch (message.type) {
      case 'member/join':
        join = { decoders: message.decoders, layer: message.layer, acks: message.acks };
        return false;
      case 'stream/choose':
        if (join) join.layer = message.layer;
        feed?.handle(peer, message);
        return feed !== undefined;
      case 'stream/ack':
        feed?.handle(peer, message);
        return feed !== undefined;
      default:
        return false;
    }
  };
  /** The agent agreed to the join with an H.264 picture: the media comes from this gateway's feed of the room. */
  const startFeed = (agentAddress: string) => {
    if (feed || !join || clientClosed) return;
    const key = `${agentAddress} ${options.roomId}`;
    let shared = options.feeds.get(key);
    if (!shared) {
      let authorization: string;
      try {
        // Held already: the participant's own socket to the agent was signed with it a moment ago.
        authorization = options.caller.authorizationNow(
          agentAddress,
          'GET',
          GatewayRoomFeed.path(options.roomId),
        );
      } catch (error) {
        options.log.warn(
          { err: error, roomId: options.roomId },
          'gateway: no credential to take the room’s feed',
        );
        return notRunning(true);
      }
      shared = GatewayRoomFeed.open(agentAddress, options.roomId, authorization, options.log, () => {
        if (options.feeds.get(key) === shared) options.feeds.delete(key);
      });
      options.feeds.set(key, shared);
    }
    feed = shared;
    void shared.add({ peer, ...join, lost: () => notRunning(true) });
  };
  client.on('error', () => {});

  const notRunning = (restarting: boolean) => {
    if (clientClosed) return;
    if (restarting)
      client.send(JSON.stringify({ type: 'system/room-ended', reason: 'restarting', by: null }));
    client.send(JSON.stringify(errorMessage('ROOM_NOT_RUNNING')));
    client.close(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING, ROOM_ERROR_MESSAGES.ROOM_NOT_RUNNING);
  };

  let address: string | undefined;
  let agentId: string | undefined;
  try {
    const agent = await liveAgentOf(options.orm, options.roomId);
    address = agent?.address;
    agentId = agent?.agentId;
  } catch (error) {
    options.log.warn({ err: error, roomId: options.roomId }, 'gateway: could not find the room run');
  }
  if (!address) return notRunning(false);
  if (clientClosed) return;

  const path = `/fleet/rooms/${encodeURIComponent(options.roomId)}/socket`;
  let authorization: string;
  try {
    authorization = await options.caller.authorization(address, 'GET', path);
  } catch (error) {
    // No credential (the control plane out of reach since this gateway started): the page tries again.
    options.log.warn({ err: error, roomId: options.roomId }, 'gateway: no credential to reach the agent');
    return notRunning(true);
  }
  if (clientClosed) return;
  const headers: Record<string, string> = {
    authorization,
    [FORWARDED_IDENTITY_HEADER]: encodeForwardedIdentity(options.identity),
    [MEDIA_BY_GATEWAY_HEADER]: '1',
  };
  if (options.password !== undefined) headers['x-room-password'] = options.password;
  const agentSocket = new WebSocket(`ws://${address}${path}`, {
    headers,
    perMessageDeflate: false,
    handshakeTimeout: AGENT_HANDSHAKE_MS,
  });
  upstream = agentSocket;
  let paused = false;
  let heard = true;
  let liveness: NodeJS.Timeout | undefined;
  agentSocket.on('open', () => {
    for (const message of early.splice(0)) agentSocket.send(message.data, { binary: message.isBinary });
    liveness = setInterval(() => {
      // Paused for a slow participant, the agent's answers wait unread: silence then says nothing of the agent.
      if (paused) return;
      if (!heard) {
        options.log.warn({ roomId: options.roomId, address }, 'gateway: the agent stopped answering');
        agentSocket.terminate();
        return;
      }
      heard = false;
      agentSocket.ping();
    }, AGENT_PING_MS);
    liveness.unref();
  });
  agentSocket.on('pong', () => {
    heard = true;
  });
  agentSocket.on('message', (data, isBinary) => {
    heard = true;
    if (clientClosed) return;
    // The messages of one read from the agent (pictures, sound, chat) go on to the participant in one write.
    holdWritesForTurn(options.connection);
    const startsFeed = !isBinary && !feed && startsWithStreamConfig(data);
    client.send(data, { binary: isBinary }, () => {
      if (paused && client.bufferedAmount < RESUME_BELOW_BYTES) {
        paused = false;
        agentSocket.resume();
      }
    });
    if (!paused && client.bufferedAmount > PAUSE_ABOVE_BYTES) {
      paused = true;
      agentSocket.pause();
    }
    if (startsFeed && address && (JSON.parse(textOf(data)) as { codec?: string }).codec === 'h264')
      startFeed(address);
  });
  agentSocket.on('close', (code, reason) => {
    clearInterval(liveness);
    feed?.remove(peer);
    if (clientClosed) return;
    // The agent's own closes (the room stopped, a kick, a ban) pass through as they are; a connection that
    // broke means the agent is gone, and the room will run again elsewhere: the sooner the control plane knows,
    // the sooner.
    if (code >= 4000 || code === 1000 || code === 1001) return client.close(code, reason.toString());
    if (agentId) options.reportAgent?.(agentId);
    notRunning(true);
  });
  agentSocket.on('error', (error) => {
    options.log.debug({ err: error, roomId: options.roomId }, 'gateway: agent connection failed');
  });
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

/** Read from the message's first bytes: the agent sends every JSON message with its type first. */
function startsWithStreamConfig(data: RawData): boolean {
  const head = Array.isArray(data) ? data[0] : Buffer.isBuffer(data) ? data : Buffer.from(data);
  return !!head && head.subarray(0, STREAM_CONFIG_PREFIX.length).equals(STREAM_CONFIG_PREFIX);
}
