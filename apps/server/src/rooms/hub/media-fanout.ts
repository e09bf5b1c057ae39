// One subscription per room to one of the session's streams (the H.264 or JPEG picture, the Opus sound). Each
// chunk is framed once and handed to every member's socket that keeps up; a socket that backs up skips chunks
// until the next keyframe, so it never slows the others and nothing queues without bound. For sound every packet
// is a keyframe: a backlog drops packets instead of queueing them.
import { encodeMediaFrame } from '@rooms/api/room-protocol';
import type { MediaSource, TMediaChunk } from '../room-session';

export interface MediaPeer {
  /** Bytes queued on the socket that have not reached the kernel yet. */
  readonly bufferedAmount: number;
  /** Sends one binary message; `written` runs once it left the process, or failed to. */
  sendFrame(frame: Uint8Array, written: () => void): void;
}

export interface TBackpressure {
  /** Frames handed to a socket and not yet written out; ~3 frames is ~100 ms of lag at 30 fps. */
  maxFramesInFlight: number;
  /** A byte cap for the same, for large keyframes. */
  maxBufferedBytes: number;
  /** Also backed up when the oldest frame in flight was handed over longer ago than this. */
  maxLagMs?: number;
}

export const DEFAULT_BACKPRESSURE: TBackpressure = {
  maxFramesInFlight: 3,
  maxBufferedBytes: 2 * 1024 * 1024,
};

/**
 * Sound gives way first: 200 ms of packets in flight, and none while the socket holds more than a few video
 * frames, so a late packet is dropped (the player conceals it) rather than played late.
 */
/**
 * For H.264 a skip is expensive: the participant waits for the next keyframe (up to 2 s) with a frozen picture.
 * So a socket counts as backed up by time, not by a few frames: a frame still unwritten after 250 ms. A server
 * whose event loop pauses for 100 ms (a garbage collection, a burst of requests) then skips nothing, while a
 * socket that really backs up is caught within a quarter second.
 */
export const H264_BACKPRESSURE: TBackpressure = {
  maxFramesInFlight: 60,
  maxBufferedBytes: 2 * 1024 * 1024,
  maxLagMs: 250,
};

export const AUDIO_BACKPRESSURE: TBackpressure = {
  maxFramesInFlight: 10,
  maxBufferedBytes: 256 * 1024,
};

export interface TFanoutStats {
  framesSent: number;
  framesSkipped: number;
  bytesSent: number;
}

export interface TFanoutJoin {
  /**
   * 'group' (a joiner): the newest keyframe and the frames since, at once. 'next-keyframe' (a viewer switching
   * from another layer, who has a picture meanwhile): nothing until the stream's next keyframe.
   */
  from?: 'group' | 'next-keyframe';
  /** Runs just before the peer's first frame from this fanout is handed over. */
  onStart?: () => void;
}

interface TPeerState extends TFanoutStats {
  inFlight: number;
  /** When each unit still in flight was handed over, oldest first (writes complete in order). */
  sentAt: number[];
  /** Set after a skip (or before the first frame): a delta frame without its keyframe cannot be decoded. */
  needsKeyframe: boolean;
  onStart: (() => void) | undefined;
}

export class MediaFanout {
  private readonly peers = new Map<MediaPeer, TPeerState>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly source: MediaSource,
    private readonly limits: TBackpressure = DEFAULT_BACKPRESSURE,
  ) {}

  get size(): number {
    return this.peers.size;
  }

  /**
   * Starts the peer at the newest keyframe at once, so a joiner sees the picture without waiting for a change.
   * For H.264 the frames since that keyframe follow straight away, so the joiner's decoder reaches the present.
   */
  add(peer: MediaPeer, join: TFanoutJoin = {}): void {
    if (this.peers.has(peer)) return;
    const state: TPeerState = {
      inFlight: 0,
      sentAt: [],
      needsKeyframe: true,
      framesSent: 0,
      framesSkipped: 0,
      bytesSent: 0,
      onStart: join.onStart,
    };
    this.peers.set(peer, state);
    this.unsubscribe ??= this.source.subscribe((chunk) => this.fanOut(chunk));
    if (join.from === 'next-keyframe') return;
    const keyframe = this.source.latestKeyframe();
    const group = this.source.sinceKeyframe?.() ?? (keyframe ? [keyframe] : []);
    if (group.length > 0) this.deliver(peer, state, group.map(frameOf));
  }

  remove(peer: MediaPeer): void {
    this.peers.delete(peer);
    if (this.peers.size === 0) this.stop();
  }

  /** The peer's counters since the last call. */
  takeStats(peer: MediaPeer): TFanoutStats | undefined {
    const state = this.peers.get(peer);
    if (!state) return undefined;
    const stats = {
      framesSent: state.framesSent,
      framesSkipped: state.framesSkipped,
      bytesSent: state.bytesSent,
    };
    state.framesSent = 0;
    state.framesSkipped = 0;
    state.bytesSent = 0;
    return stats;
  }

  close(): void {
    this.peers.clear();
    this.stop();
  }

  private stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private fanOut(chunk: TMediaChunk): void {
    // Framed lazily and once: when every peer skips, nothing is copied.
    let frame: Uint8Array | undefined;
    for (const [peer, state] of this.peers) {
      if (state.needsKeyframe && !chunk.keyframe) {
        // A viewer waiting to switch here still has its picture from the layer it leaves: nothing is missed.
        if (!state.onStart) state.framesSkipped += 1;
        continue;
      }
      if (
        state.inFlight >= this.limits.maxFramesInFlight ||
        (this.limits.maxLagMs !== undefined &&
          state.sentAt.length > 0 &&
          performance.now() - state.sentAt[0]! > this.limits.maxLagMs) ||
        peer.bufferedAmount > this.limits.maxBufferedBytes
      ) {
        state.needsKeyframe = true;
        state.framesSkipped += 1;
        continue;
      }
      frame ??= frameOf(chunk);
      this.deliver(peer, state, [frame]);
    }
  }

  /** Sends frames that belong together (one, or a joiner's catch-up group), counted as one in flight. */
  private deliver(peer: MediaPeer, state: TPeerState, frames: Uint8Array[]): void {
    const onStart = state.onStart;
    state.onStart = undefined;
    onStart?.();
    state.needsKeyframe = false;
    state.inFlight += 1;
    state.sentAt.push(performance.now());
    let left = frames.length;
    for (const frame of frames) {
      state.framesSent += 1;
      state.bytesSent += frame.byteLength;
      peer.sendFrame(frame, () => {
        left -= 1;
        if (left > 0) return;
        state.inFlight -= 1;
        state.sentAt.shift();
      });
    }
  }
}

function frameOf(chunk: TMediaChunk): Uint8Array {
  return encodeMediaFrame({
    codec: chunk.codec,
    keyframe: chunk.keyframe,
    timestamp: chunk.timestamp,
    width: chunk.width ?? 0,
    height: chunk.height ?? 0,
    data: chunk.data,
  });
}
