// The agent's end of the room feed (room-feed.ts): a gateway subscribes to the room's streams and receives each
// once, through one fanout per stream with the gateway as its only peer, so a gateway that falls behind skips to
// the next keyframe like any viewer, and the encoders of streams no gateway takes stop as they would.
import { ROOM_CLOSE_CODES, ROOM_ERROR_MESSAGES } from '@rooms/api/room-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import {
  AUDIO_BACKPRESSURE,
  H264_BACKPRESSURE,
  MediaFanout,
  type MediaPeer,
} from '../rooms/hub/media-fanout';
import { type MediaSource, pictureLadder, type RoomSession } from '../rooms/room-session';
import type { RoomRelay } from '../ws/room-relay';
import { defineSocketHandler } from '../ws/socket-handler';
import { checkCaller, type TFleetAuth } from './fleet-auth';
import { ROOM_FEED_PATH, type TFeedHello, tagFeedFrame, ZFeedRequest } from './room-feed';

const SESSION_CHECK_MS = 1000;

interface TFeedDeps {
  relay: RoomRelay;
  auth: TFleetAuth;
  log: FastifyBaseLogger;
}

export const agentFeedHandler = defineSocketHandler<{ roomId: string }, TFeedDeps>({
  path: ROOM_FEED_PATH,
  async authenticate(request, deps) {
    // A room's pictures and sound go to a gateway (or the control plane), never to another agent.
    const checked = checkCaller(request, deps.auth, ['gateway', 'control']);
    if (!checked.ok) {
      return {
        ok: false,
        status: checked.status,
        message: `Only a gateway of this install may take a room’s feed: ${checked.reason}`,
      };
    }
    return { ok: true, context: { roomId: (request.params as { roomId: string }).roomId } };
  },
  handle(socket, _request, { roomId }, deps) {
    const session = deps.relay.liveSession(roomId);
    if (session?.video.codec !== 'h264') {
      socket.close(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING, ROOM_ERROR_MESSAGES.ROOM_NOT_RUNNING);
      return;
    }
    serveFeed(socket, session, deps.log);
    // A room whose browser ended (stopped, restarted) feeds nothing more: the gateway is told, as its viewers are.
    const watch = setInterval(() => {
      if (deps.relay.liveSession(roomId) === session) return;
      socket.close(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING, ROOM_ERROR_MESSAGES.ROOM_NOT_RUNNING);
    }, SESSION_CHECK_MS);
    watch.unref();
    socket.on('close', () => clearInterval(watch));
  },
});

/** The room's H.264 layers and sounds, numbered for the feed. */
function feedStreams(session: RoomSession): { hello: TFeedHello; sources: MediaSource[] } {
  const sources: MediaSource[] = [];
  const idOf = (source: MediaSource) => {
    const known = sources.indexOf(source);
    if (known >= 0) return known;
    sources.push(source);
    return sources.length - 1;
  };
  const audio = session.audio ? idOf(session.audio) : null;
  const layers = pictureLadder(session).map((layer) => ({
    name: layer.name,
    width: layer.width,
    height: layer.height,
    bitrateKbps: layer.bitrateKbps,
    video: idOf(layer.source),
    audio: layer.audio ? idOf(layer.audio) : audio,
  }));
  return {
    hello: {
      type: 'feed/hello',
      viewport: { ...session.viewport },
      streams: sources.map((source, id) => ({
        id,
        codec: source.codec === 'opus' ? 'opus' : 'h264',
        bitrateKbps: source.bitrateKbps ?? null,
      })),
      layers,
      audio,
    },
    sources,
  };
}

function serveFeed(socket: WebSocket, session: RoomSession, log: FastifyBaseLogger): void {
  const { hello, sources } = feedStreams(session);
  const fanouts = new Map<number, { fanout: MediaFanout; peer: MediaPeer }>();
  socket.send(JSON.stringify(hello));
  socket.on('message', (data: RawData, isBinary) => {
    if (isBinary) return;
    let request: ReturnType<typeof ZFeedRequest.safeParse>;
    try {
      request = ZFeedRequest.safeParse(JSON.parse(data.toString()));
    } catch {
      return;
    }
    if (!request.success) return;
    const { type, stream } = request.data;
    const source = sources[stream];
    if (!source) return;
    if (type === 'feed/unsubscribe') {
      const subscribed = fanouts.get(stream);
      fanouts.delete(stream);
      subscribed?.fanout.close();
      return;
    }
    if (fanouts.has(stream)) return;
    const fanout = new MediaFanout(source, source.codec === 'opus' ? AUDIO_BACKPRESSURE : H264_BACKPRESSURE);
    const peer: MediaPeer = {
      get bufferedAmount() {
        return socket.bufferedAmount;
      },
      sendFrame(frame, written) {
        if (socket.readyState !== socket.OPEN) return written();
        socket.send(tagFeedFrame(stream, frame), { binary: true }, () => written());
      },
    };
    fanouts.set(stream, { fanout, peer });
    fanout.add(peer);
  });
  const close = () => {
    for (const { fanout } of fanouts.values()) fanout.close();
    fanouts.clear();
  };
  socket.on('close', close);
  socket.on('error', (error) => log.debug({ err: error }, 'room feed: gateway connection failed'));
}
