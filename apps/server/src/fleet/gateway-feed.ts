// A gateway's end of the room feed (room-feed.ts): one connection to the room's agent per room with H.264 viewers
// here, whose streams become MediaSources on this process; the viewers get them through the same
// ParticipantStreams a single server uses (layer per viewer, pacing, sound first), fed from this one copy.
import type { TClientMessageOf, TMediaCodecName, TStreamLayerChoice } from '@rooms/api/room-protocol';
import { decodeMediaFrame } from '@rooms/api/room-protocol';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket, { type RawData } from 'ws';
import { ParticipantStreams } from '../rooms/hub/participant-streams';
import type { ViewerPeer } from '../rooms/hub/viewer-stream';
import { FrameRate } from '../rooms/media/frame-rate';
import type { MediaSource, RoomSession, TMediaChunk, TPictureLayer } from '../rooms/room-session';
import { type TFeedHello, untagFeedFrame, ZFeedHello } from './room-feed';

const HELLO_TIMEOUT_MS = 10_000;
/** A stream without keyframes for this many chunks is not replayed to joiners. */
const MAX_GROUP_CHUNKS = 1000;
const STATS_EVERY_MS = 2000;

/** One of the agent's streams on this gateway: subscribed there while someone here takes it. */
class FeedSource implements MediaSource {
  private readonly listeners = new Set<(chunk: TMediaChunk) => void>();
  private readonly frameRate = new FrameRate();
  private group: TMediaChunk[] = [];

  constructor(
    readonly id: number,
    readonly codec: 'h264' | 'opus',
    readonly bitrateKbps: number | undefined,
    private readonly request: (type: 'feed/subscribe' | 'feed/unsubscribe', id: number) => void,
  ) {}

  subscribe(listener: (chunk: TMediaChunk) => void): () => void {
    if (this.listeners.size === 0) this.request('feed/subscribe', this.id);
    this.listeners.add(listener);
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      this.group = [];
      this.request('feed/unsubscribe', this.id);
    };
  }

  latestKeyframe(): TMediaChunk | undefined {
    return this.group[0];
  }

  sinceKeyframe(): readonly TMediaChunk[] {
    return [...this.group];
  }

  rate(): number {
    return this.frameRate.perSecond();
  }

  kbps(): number {
    return this.frameRate.kbps();
  }

  emit(chunk: TMediaChunk): void {
    if (this.listeners.size === 0) return;
    this.frameRate.tick(chunk.data.byteLength);
    if (chunk.keyframe) this.group = [chunk];
    else if (this.group.length >= MAX_GROUP_CHUNKS) this.group = [];
    else if (this.group.length > 0) this.group.push(chunk);
    for (const listener of [...this.listeners]) listener(chunk);
  }
}

/** The room's media as the feed's hello describes it, shaped as the RoomSession ParticipantStreams reads. */
function feedSession(roomId: string, hello: TFeedHello, sources: Map<number, FeedSource>): RoomSession {
  const source = (id: number) => sources.get(id)!;
  const layers: TPictureLayer[] = hello.layers.map((layer) => ({
    name: layer.name,
    width: layer.width,
    height: layer.height,
    bitrateKbps: layer.bitrateKbps,
    source: source(layer.video),
    audio: layer.audio === null ? undefined : source(layer.audio),
  }));
  const unsupported = () => Promise.reject(new Error('a gateway has no browser'));
  return {
    roomId,
    viewport: hello.viewport,
    video: layers[0]!.source,
    audio: hello.audio === null ? undefined : source(hello.audio),
    layers,
    applyInput: unsupported,
    navigate: unsupported,
    back: unsupported,
    forward: unsupported,
    reload: unsupported,
    tabs: () => [],
    openTab: unsupported,
    activateTab: unsupported,
    closeTab: unsupported,
    find: unsupported,
    onTabsChanged: () => () => {},
    snapshot: async () => null,
  };
}

export interface TFeedViewer {
  peer: ViewerPeer;
  decoders: readonly TMediaCodecName[];
  layer: TStreamLayerChoice;
  acks: boolean;
  /** The feed ended (the agent went away or the room stopped): the viewer's connection must follow. */
  lost(): void;
}

/** One room's feed on this gateway, shared by its viewers here; it closes when the last one leaves. */
export class GatewayRoomFeed {
  private readonly viewers = new Map<ViewerPeer, TFeedViewer>();
  private streams: ParticipantStreams | undefined;
  private readonly ready: Promise<void>;
  private statsTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly socket: WebSocket,
    roomId: string,
    private readonly onClosed: () => void,
    log: FastifyBaseLogger,
  ) {
    const sources = new Map<number, FeedSource>();
    const request = (type: 'feed/subscribe' | 'feed/unsubscribe', stream: number) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type, stream }));
    };
    this.ready = new Promise((resolve, reject) => {
      const timeout = setTimeout(
        () => reject(new Error('the agent did not describe the room’s feed')),
        HELLO_TIMEOUT_MS,
      );
      timeout.unref();
      socket.on('message', (data: RawData, isBinary) => {
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
        if (isBinary) {
          const { id, frame } = untagFeedFrame(bytes);
          const source = sources.get(id);
          if (!source) return;
          try {
            const media = decodeMediaFrame(frame);
            source.emit({ ...media, codec: media.codec });
          } catch (error) {
            log.debug({ err: error, roomId }, 'room feed: an unreadable frame');
          }
          return;
        }
        if (this.streams) return;
        const hello = ZFeedHello.safeParse(JSON.parse(bytes.toString('utf8')));
        if (!hello.success) return;
        for (const stream of hello.data.streams) {
          sources.set(
            stream.id,
            new FeedSource(stream.id, stream.codec, stream.bitrateKbps ?? undefined, request),
          );
        }
        this.streams = new ParticipantStreams(feedSession(roomId, hello.data, sources));
        clearTimeout(timeout);
        resolve();
      });
      socket.once('close', () => reject(new Error('the room’s feed closed')));
      socket.once('error', reject);
    });
    socket.on('close', () => this.close());
    socket.on('error', (error) => log.debug({ err: error, roomId }, 'room feed: agent connection failed'));
  }

  /** The path of the room's feed on its agent, which the call's signature names. */
  static path(roomId: string): string {
    return `/fleet/rooms/${encodeURIComponent(roomId)}/feed`;
  }

  /** Opens the feed with `authorization`, the gateway's call signed for the agent and GatewayRoomFeed.path. */
  static open(
    address: string,
    roomId: string,
    authorization: string,
    log: FastifyBaseLogger,
    onClosed: () => void,
  ): GatewayRoomFeed {
    const socket = new WebSocket(`ws://${address}${GatewayRoomFeed.path(roomId)}`, {
      headers: { authorization },
      perMessageDeflate: false,
      handshakeTimeout: HELLO_TIMEOUT_MS,
    });
    return new GatewayRoomFeed(socket, roomId, onClosed, log);
  }

  get size(): number {
    return this.viewers.size;
  }

  /** Starts the viewer's media once the feed is described; a feed that fails ends the viewer's connection. */
  async add(viewer: TFeedViewer): Promise<void> {
    this.viewers.set(viewer.peer, viewer);
    try {
      await this.ready;
    } catch {
      this.remove(viewer.peer);
      viewer.lost();
      return;
    }
    if (!this.viewers.has(viewer.peer) || !this.streams) return;
    this.streams.add(viewer.peer, viewer.decoders, { layer: viewer.layer, acks: viewer.acks });
    this.statsTimer ??= setInterval(() => this.sendStats(), STATS_EVERY_MS).unref();
  }

  /** A viewer's stream/ack or stream/choose, answered here: the agent never sees this viewer's media. */
  handle(peer: ViewerPeer, message: TClientMessageOf<'stream/ack' | 'stream/choose'>): void {
    this.streams?.handle(peer, message);
  }

  remove(peer: ViewerPeer): void {
    if (!this.viewers.delete(peer)) return;
    this.streams?.remove(peer);
    if (this.viewers.size > 0) return;
    // Out of the gateway's registry at once: a viewer arriving now opens a feed of its own.
    this.close();
    this.socket.close(1000, 'no viewers');
  }

  private sendStats(): void {
    for (const peer of this.viewers.keys()) {
      const stats = this.streams?.takeStats(peer);
      if (stats) peer.send({ type: 'stream/stats', intervalMs: STATS_EVERY_MS, ...stats });
    }
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.statsTimer);
    this.streams?.close();
    const viewers = [...this.viewers.values()];
    this.viewers.clear();
    this.onClosed();
    for (const viewer of viewers) viewer.lost();
  }
}
