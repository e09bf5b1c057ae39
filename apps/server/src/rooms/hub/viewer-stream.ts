// One H.264 viewer's picture and sound: which layer of the picture they get, and the order bytes leave for them.
// - The layer: the viewer's choice, or on 'auto' what their link carries (layer-policy.ts on link-estimate.ts).
//   A switch waits for the target layer's next keyframe while the current layer goes on, so the picture never
//   stops for it; the sound follows the layer (the lowest has its own, cheaper sound).
// - Sound first: the order its bytes leave in, paced to what the viewer's link delivers (viewer-pacing.ts).
import {
  isKeyframeFrame,
  type TServerMessage,
  type TStreamLayerChoice,
  type TStreamLayerName,
} from '@rooms/api/room-protocol';
import { LayerPolicy, type TLayerReason } from './layer-policy';
import type { MediaFanout, MediaPeer, TFanoutStats } from './media-fanout';
import { type TPacedLayer, ViewerPacing } from './viewer-pacing';

/** A member's socket as a viewer needs it: media frames and JSON messages. */
export interface ViewerPeer extends MediaPeer {
  send(message: TServerMessage): void;
}

/** One layer of the room's picture, with the sound that goes with it. */
export interface TLayerFeed {
  name: TStreamLayerName;
  width: number;
  height: number;
  bitrateKbps: number;
  video: MediaFanout;
  /** The sound a viewer of this layer hears; undefined when the room has none. */
  audio: MediaFanout | undefined;
  /** That sound's bitrate, kbit/s. */
  audioKbps: number;
}

export interface TViewerStreamOptions {
  peer: ViewerPeer;
  /** Best first; at least one. */
  layers: readonly TLayerFeed[];
  choice: TStreamLayerChoice;
  /** The viewer decodes the sound. */
  withSound: boolean;
  /** The viewer acknowledges what it receives (member/join), so its link can be measured and paced. */
  acks: boolean;
  now?: () => number;
}

/** How often the layer is reconsidered at most. */
const DECIDE_EVERY_MS = 100;
/** Framing (WebSocket, TCP/IP) on top of the encoders' bitrates, for judging what fits a link. */
const OVERHEAD = 1.08;

/** The frame rate a probe's padding is spread over (rooms run at 30 fps or more; more frames just pad more). */
const PROBE_FRAME_RATE = 30;

/** What a layer's fanout sees of this viewer: frames go through the viewer's pacing. */
class VideoPort implements MediaPeer, TPacedLayer {
  /** Frames of this layer waited too long here and were dropped: nothing more until its next keyframe. */
  needsKeyframe = false;

  constructor(private readonly viewer: ViewerStream) {}

  get bufferedAmount(): number {
    return this.viewer.videoBacklog;
  }

  sendFrame(frame: Uint8Array, written: () => void): void {
    this.viewer.sendVideo(this, frame, written);
  }
}

/** What the sound's fanout sees: packets go out at once, ahead of any picture waiting here. */
class SoundPort implements MediaPeer {
  constructor(private readonly viewer: ViewerStream) {}

  get bufferedAmount(): number {
    return this.viewer.socketBacklog;
  }

  sendFrame(frame: Uint8Array, written: () => void): void {
    this.viewer.sendNow(frame, written);
  }
}

export class ViewerStream {
  private readonly pacing: ViewerPacing;
  private readonly now: () => number;
  private readonly peer: ViewerPeer;
  private readonly layers: readonly TLayerFeed[];
  private choice: TStreamLayerChoice;
  private policy: LayerPolicy;
  private current: { index: number; port: VideoPort };
  private pending: { index: number; port: VideoPort } | undefined;
  private readonly sound = new SoundPort(this);
  private soundFeed: MediaFanout | undefined;
  /** The sound being switched to, until its first packet. */
  private pendingSound: MediaFanout | undefined;
  private lastDecisionAt = Number.NEGATIVE_INFINITY;
  /** While true, frames handed over are the joiner's catch-up. */
  private catchingUp = false;
  /** A probe under way: padding on top of each frame until `until`. */
  private probe: { until: number; bytesPerFrame: number } | undefined;
  private closed = false;

  constructor(private readonly options: TViewerStreamOptions) {
    this.now = options.now ?? (() => performance.now());
    this.peer = options.peer;
    this.layers = options.layers;
    this.choice = options.choice;
    this.pacing = new ViewerPacing(options.peer, options.acks, this.now);
    const start = this.chosenIndex() ?? 0;
    this.policy = this.newPolicy(start);
    this.current = { index: start, port: new VideoPort(this) };
  }

  /** Sends the first layer's state and starts the picture and sound; call after the viewer has stream/config. */
  start(): void {
    const layer = this.layers[this.current.index]!;
    this.tell('start');
    // The fanout hands the catch-up over at once, inside add().
    this.catchingUp = true;
    layer.video.add(this.current.port);
    this.catchingUp = false;
    this.followSound(layer);
  }

  get layer(): TStreamLayerName {
    return this.layers[this.current.index]!.name;
  }

  /** Bytes of picture waiting here and on the socket: what a layer's fanout judges this viewer's backlog by. */
  get videoBacklog(): number {
    return this.peer.bufferedAmount + this.pacing.queued;
  }

  get socketBacklog(): number {
    return this.peer.bufferedAmount;
  }

  /** stream/ack: the viewer has received `bytes` in all, the last at its own time `clientAt`, and held the ack `heldMs`. */
  acked(bytes: number, clientAt?: number, heldMs?: number): void {
    if (!this.options.acks || this.closed) return;
    const now = this.now();
    this.pacing.link.acked(bytes, now, clientAt, heldMs);
    this.pacing.pump(now);
    this.reconsider(now);
  }

  /** stream/choose: a fixed layer from now on, or 'auto'. */
  choose(choice: TStreamLayerChoice): void {
    if (this.closed) return;
    this.choice = choice;
    const index = this.chosenIndex();
    if (index === undefined) {
      // Back to 'auto' from wherever the viewer is: the link is judged afresh.
      this.policy = this.newPolicy(this.pending?.index ?? this.current.index);
      this.tell('chosen');
      return;
    }
    if (index === this.current.index) {
      this.cancelPending();
      this.tell('chosen');
      return;
    }
    this.switchTo(index, 'chosen');
  }

  takeStats(): TFanoutStats {
    const total: TFanoutStats = { framesSent: 0, framesSkipped: 0, bytesSent: 0 };
    const layer = this.layers[this.current.index]!;
    const picture = layer.video.takeStats(this.current.port);
    if (picture) {
      total.framesSent += picture.framesSent;
      total.framesSkipped += picture.framesSkipped;
      total.bytesSent += picture.bytesSent;
    }
    if (this.pending)
      total.bytesSent += this.layers[this.pending.index]!.video.takeStats(this.pending.port)?.bytesSent ?? 0;
    if (this.soundFeed) total.bytesSent += this.soundFeed.takeStats(this.sound)?.bytesSent ?? 0;
    return total;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.cancelPending();
    this.layers[this.current.index]!.video.remove(this.current.port);
    this.soundFeed?.remove(this.sound);
    this.pendingSound?.remove(this.sound);
    this.soundFeed = undefined;
    this.pendingSound = undefined;
    this.pacing.close();
  }

  /** A frame of the layer behind `port`: out now if the link has room and nothing waits, else after what waits. */
  sendVideo(port: VideoPort, frame: Uint8Array, written: () => void): void {
    if (this.closed) {
      written();
      return;
    }
    const now = this.now();
    if (this.options.acks) {
      // A paced viewer's frames wait here, where this stream judges how long they may (the fanout would skip
      // after a quarter second, before the layer could change).
      written();
      if (port.needsKeyframe && !isKeyframeFrame(frame)) return;
      port.needsKeyframe = false;
      this.pacing.enqueue({ frame, written: () => {}, port, queuedAt: now, catchUp: this.catchingUp });
    } else {
      this.pacing.enqueue({ frame, written, port, queuedAt: now, catchUp: this.catchingUp });
    }
    if (this.probe && port === this.current.port) {
      if (now >= this.probe.until) this.probe = undefined;
      else this.pacing.pad(this.probe.bytesPerFrame, now);
    }
    this.pacing.pump(now);
    this.reconsider(now);
  }

  /** A sound packet: out at once, ahead of any picture waiting here. */
  sendNow(frame: Uint8Array, written: () => void): void {
    this.pacing.sendNow(frame, written);
  }

  private reconsider(now: number): void {
    if (this.choice !== 'auto' || !this.pacing.link.acknowledging || this.layers.length < 2) return;
    if (now - this.lastDecisionAt < DECIDE_EVERY_MS) return;
    this.lastDecisionAt = now;
    const decision = this.policy.decide(this.pacing.signals(now), now);
    switch (decision?.kind) {
      case 'switch':
        if (decision.reason !== 'probe') this.pacing.link.forgetCapacity();
        this.switchTo(decision.index, decision.reason);
        return;
      case 'probe': {
        // Padding rides on the layer's frames: a page that shows no motion sends none, and needs no better layer.
        // On top of what the viewer receives now, which is often less than its layer's cap (an easy picture).
        const extraKbps = Math.max(0, decision.kbps - this.pacing.link.signals(now).deliveryKbps);
        this.probe = { until: decision.untilMs, bytesPerFrame: (extraKbps * 1000) / 8 / PROBE_FRAME_RATE };
        return;
      }
      case 'end-probe':
        this.probe = undefined;
        this.pacing.dropPadding();
        if (decision.next?.kind === 'switch') this.switchTo(decision.next.index, decision.next.reason);
        return;
    }
  }

  private switchTo(index: number, reason: TLayerReason | 'chosen'): void {
    if (this.pending?.index === index) return;
    this.cancelPending();
    if (index === this.current.index) return;
    const port = new VideoPort(this);
    this.pending = { index, port };
    this.layers[index]!.video.add(port, {
      from: 'next-keyframe',
      onStart: () => this.switched(index, port, reason),
    });
  }

  /** The target layer's keyframe is here: the viewer leaves the old layer, and what waited of it is dropped. */
  private switched(index: number, port: VideoPort, reason: TLayerReason | 'chosen'): void {
    const old = this.current;
    this.layers[old.index]!.video.remove(old.port);
    this.pacing.dropQueued(old.port);
    this.current = { index, port };
    this.pending = undefined;
    this.policy.switched(index, this.now());
    this.followSound(this.layers[index]!);
    this.tell(reason);
  }

  private cancelPending(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.layers[pending.index]!.video.remove(pending.port);
    this.pacing.dropQueued(pending.port);
  }

  /**
   * The layer's sound from now on. The sound in use goes on until the new one's first packet, so a sound encoder
   * that is only starting (the lowest layer's, on its first viewer) leaves no gap.
   */
  private followSound(layer: TLayerFeed): void {
    if (!this.options.withSound) return;
    const target = layer.audio;
    if (this.pendingSound && this.pendingSound !== target) {
      this.pendingSound.remove(this.sound);
      this.pendingSound = undefined;
    }
    if (target === this.soundFeed) return;
    if (!this.soundFeed || !target) {
      this.soundFeed?.remove(this.sound);
      this.soundFeed = target;
      target?.add(this.sound);
      return;
    }
    this.pendingSound = target;
    target.add(this.sound, {
      from: 'next-keyframe',
      onStart: () => {
        if (this.pendingSound !== target) return;
        this.soundFeed?.remove(this.sound);
        this.soundFeed = target;
        this.pendingSound = undefined;
      },
    });
  }

  private chosenIndex(): number | undefined {
    if (this.choice === 'auto') return undefined;
    const index = this.layers.findIndex((layer) => layer.name === this.choice);
    // A room with fewer layers than the choice names gives its lowest.
    return index >= 0 ? index : this.layers.length - 1;
  }

  private newPolicy(start: number): LayerPolicy {
    const kbps = this.layers.map(
      (layer) => (layer.bitrateKbps + (this.options.withSound ? layer.audioKbps : 0)) * OVERHEAD,
    );
    return new LayerPolicy(kbps, start, this.now());
  }

  private tell(reason: TLayerReason | 'chosen' | 'start'): void {
    this.peer.send({ type: 'stream/layer', layer: this.layer, choice: this.choice, reason });
  }
}
