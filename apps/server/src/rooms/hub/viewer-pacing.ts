// The order one H.264 viewer's bytes leave in (./viewer-stream.ts decides which layer they are of). Sound first: a
// viewer who acknowledges (stream/ack) gets the picture paced to what their link delivers, a little more than a
// round trip's worth in flight; frames beyond that wait here, where sound packets pass them. Without pacing they
// would wait in the kernel and on the link, and every sound packet behind them. A viewer who does not acknowledge
// (older clients, scripts) is sent everything at once, as before. A probe's padding goes last, into what is left.
import { encodePaddingFrame } from '@rooms/api/room-protocol';
import { LinkEstimate, type TLinkSignals } from './link-estimate';
import type { MediaPeer } from './media-fanout';

/** A layer's frames as they wait here: once some are dropped, none until its next keyframe. */
export interface TPacedLayer {
  needsKeyframe: boolean;
}

interface TQueued {
  frame: Uint8Array;
  written: () => void;
  /** The layer the frame belongs to; null for a probe's padding. */
  port: TPacedLayer | null;
  queuedAt: number;
  /** Part of the catch-up a joiner gets at once (the keyframe and the frames since): its wait is no queue. */
  catchUp?: boolean;
}

/**
 * Before the first ack: little, since the link may be slow (a whole message always goes: a keyframe passes, and
 * is acknowledged at once).
 */
const INITIAL_WINDOW_BYTES = 32 * 1024;
/** Never less than this in flight: a window below a frame or two would starve the picture on a slow link. */
const MIN_WINDOW_BYTES = 8 * 1024;
/** The picture may queue this long on the link beyond its round trip; sound queues behind at most that much. */
const TARGET_QUEUE_MS = 100;
/** A client gathers acks for up to this long: bytes that recent are not yet acknowledged on any link. */
const ACK_DELAY_MS = 100;
/** Below this queueing the link is calm: no pacing beyond the calm window. */
const CALM_QUEUE_MS = 60;
/** A calm link may have this much of its rate in flight, up to a cap. */
const CALM_WINDOW_MS = 400;
const CALM_WINDOW_BYTES = 256 * 1024;
/**
 * A picture waiting here this long is dropped with its layer's frames until the next keyframe: later than the layer
 * policy steps down on a link that cannot carry the layer (queueing over 250 ms for 400 ms).
 */
const STALE_PICTURE_MS = 800;
/** A joiner's catch-up may wait here this long before its wait counts as queueing. */
const CATCH_UP_GRACE_MS = 1000;
/** Padding not sent within this long is dropped. */
const PADDING_FRESH_MS = 200;
/** Padding messages are cut to this size, so sound never waits behind a large one. */
const PADDING_MESSAGE_BYTES = 4 * 1024;

export class ViewerPacing {
  /** What the viewer's acks say of its link. */
  readonly link = new LinkEstimate();
  private readonly queue: TQueued[] = [];
  /** A probe's padding, sent only when no picture waits. */
  private padding: TQueued[] = [];
  private queuedBytes = 0;

  constructor(
    private readonly peer: MediaPeer,
    /** The viewer acknowledges what it receives: its picture is paced. */
    private readonly acks: boolean,
    private readonly now: () => number,
  ) {}

  /** Bytes of picture waiting here. */
  get queued(): number {
    return this.queuedBytes;
  }

  enqueue(queued: TQueued): void {
    this.queue.push(queued);
    this.queuedBytes += queued.frame.byteLength;
  }

  /** Padding goes behind every picture and sound: it fills only what the link has left. */
  pad(bytes: number, now: number): void {
    // Padding the link did not take soon is of no use to the probe.
    while (this.padding.length > 0 && now - this.padding[0]!.queuedAt > PADDING_FRESH_MS)
      this.padding.shift();
    for (let left = bytes; left > 0; left -= PADDING_MESSAGE_BYTES) {
      this.padding.push({
        frame: encodePaddingFrame(Math.min(left, PADDING_MESSAGE_BYTES)),
        written: () => {},
        port: null,
        queuedAt: now,
      });
    }
  }

  dropPadding(): void {
    this.padding = [];
  }

  /** Sends what waits, as far as the window allows: the picture first, then padding. */
  pump(now: number): void {
    this.dropStale(now);
    const window = this.window(now);
    while (this.queue.length > 0 && this.link.inFlight < window) {
      const next = this.queue.shift()!;
      this.queuedBytes -= next.frame.byteLength;
      this.sendNow(next.frame, next.written);
    }
    while (this.queue.length === 0 && this.padding.length > 0 && this.link.inFlight < window) {
      this.sendNow(this.padding.shift()!.frame, () => {});
    }
  }

  sendNow(frame: Uint8Array, written: () => void): void {
    this.link.sent(frame.byteLength, this.now());
    this.peer.sendFrame(frame, written);
  }

  /** The link's signals, with the time the oldest picture has waited here counted as queueing too. */
  signals(now: number): TLinkSignals {
    const signals = this.link.signals(now);
    // A joiner's catch-up waits here by design (seconds of picture at once); on a fast link it is gone within a
    // second, on a slow one its wait beyond that says the link cannot carry the layer.
    const head = this.queue[0];
    if (!head) return signals;
    const waited = now - head.queuedAt - (head.catchUp ? CATCH_UP_GRACE_MS : 0);
    return { ...signals, queueDelayMs: Math.max(signals.queueDelayMs, waited) };
  }

  /** Drops what waits of this layer (a layer the viewer left), each frame counted as written. */
  dropQueued(port: TPacedLayer | null): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const queued = this.queue[i]!;
      if (queued.port !== port) continue;
      this.queue.splice(i, 1);
      this.queuedBytes -= queued.frame.byteLength;
      queued.written();
    }
  }

  /** The viewer is gone: what waits is dropped, each frame counted as written. */
  close(): void {
    for (const queued of this.queue.splice(0)) queued.written();
    this.queuedBytes = 0;
  }

  /** How many bytes may be on their way to the viewer: its link's rate over a round trip plus the target queue. */
  private window(now: number): number {
    if (!this.acks) return Number.POSITIVE_INFINITY;
    if (!this.link.acknowledging) return INITIAL_WINDOW_BYTES;
    const signals = this.link.signals(now);
    const bytesPerMs = Math.max(signals.capacityKbps, signals.deliveryKbps) / 8;
    const paced = bytesPerMs * (signals.baseRttMs + ACK_DELAY_MS + TARGET_QUEUE_MS);
    // A calm link gets room for a keyframe and what follows it before the next ack: pacing there would only add
    // delay. Once data queues, the window shrinks to what the link delivers and sound passes the picture.
    const calm =
      signals.queueDelayMs < CALM_QUEUE_MS ? Math.min(CALM_WINDOW_BYTES, bytesPerMs * CALM_WINDOW_MS) : 0;
    return Math.max(MIN_WINDOW_BYTES, calm, paced);
  }

  /**
   * A picture that waited here longer than a viewer can bear is no use any more: its layer's frames are dropped
   * and the viewer waits for that layer's next keyframe (a freeze the layer policy acts on well before this).
   */
  private dropStale(now: number): void {
    const head = this.queue[0];
    if (!head?.port || !this.acks) return;
    const waited = now - head.queuedAt - (head.catchUp ? CATCH_UP_GRACE_MS : 0);
    if (waited <= STALE_PICTURE_MS) return;
    head.port.needsKeyframe = true;
    this.dropQueued(head.port);
  }
}
