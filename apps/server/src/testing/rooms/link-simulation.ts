// A viewer on a link of a given capacity, simulated in whole milliseconds: the room's layers and sound emit as
// the media pipeline does (a layer runs only while subscribed and starts with a keyframe), a ViewerStream sends,
// the link carries bytes in order at its rate, and the viewer acknowledges every 100 ms as the web client does.
// What the viewer received is scored as bench:network scores a real viewer: pictures it could decode, freezes,
// sound packets and how late they came. Deterministic, so the layer policy is tested on the same trace each time.
import {
  decodeMediaFrame,
  isPaddingFrame,
  type TServerMessage,
  type TStreamLayerName,
} from '@rooms/api/room-protocol';
import { AUDIO_BACKPRESSURE, H264_BACKPRESSURE, MediaFanout } from '../../rooms/hub/media-fanout';
import { type TLayerFeed, ViewerStream } from '../../rooms/hub/viewer-stream';
import type { MediaSource, TMediaChunk, TMediaCodec } from '../../rooms/room-session';

const FPS = 30;

class SimulatedSource implements MediaSource {
  private readonly listeners = new Set<(chunk: TMediaChunk) => void>();
  private group: TMediaChunk[] = [];
  private frame = 0;

  constructor(
    readonly codec: TMediaCodec,
    readonly bitrateKbps: number,
    private readonly size: { width: number; height: number } | undefined,
    private readonly keyframeEvery: number,
  ) {}

  get running(): boolean {
    return this.listeners.size > 0;
  }

  subscribe(listener: (chunk: TMediaChunk) => void): () => void {
    if (this.listeners.size === 0) {
      // A fresh encoder: its first frame is a keyframe.
      this.frame = 0;
      this.group = [];
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  latestKeyframe(): TMediaChunk | undefined {
    return this.group[0];
  }

  sinceKeyframe(): readonly TMediaChunk[] {
    return [...this.group];
  }

  /** One frame (or sound packet) of `intervalMs`, at `now`; keyframes five times the size of a delta. */
  emit(now: number, intervalMs: number): void {
    if (!this.running) return;
    const keyframe = this.codec === 'opus' || this.frame % this.keyframeEvery === 0;
    this.frame += 1;
    const average = (this.bitrateKbps * intervalMs) / 8;
    const perGroup = this.keyframeEvery + 4;
    const bytes = Math.round(
      this.codec === 'opus' ? average : ((keyframe ? 5 : 1) * average * this.keyframeEvery) / perGroup,
    );
    const chunk: TMediaChunk = {
      codec: this.codec,
      keyframe,
      timestamp: now,
      data: new Uint8Array(bytes),
      width: this.size?.width,
      height: this.size?.height,
    };
    if (keyframe) this.group = [chunk];
    else this.group.push(chunk);
    for (const listener of [...this.listeners]) listener(chunk);
  }
}

export interface TSimulatedLink {
  /** The link's rate over time: kbit/s from each time (ms) on. */
  rates: [atMs: number, kbps: number][];
  /** Times the viewer's browser is too busy to read its socket: [from, for how long] in ms. */
  stalls?: [atMs: number, forMs: number][];
  /** One-way delay of the link itself, ms. */
  delayMs?: number;
}

export interface TSimulationResult {
  /** The layer the viewer received, at each time it changed. */
  layers: { at: number; layer: TStreamLayerName; reason: string }[];
  /** Decodable pictures per second over [from, to). */
  fps(from: number, to: number): number;
  /** The longest gap between decodable pictures within [from, to). */
  longestFreeze(from: number, to: number): number;
  /** Sound packets received within [from, to) of those sent, and the worst arrival delay (ms) of those. */
  sound(from: number, to: number): { received: number; sent: number; worstDelayMs: number };
  /** Which layer was shown at time `at`. */
  layerAt(at: number): TStreamLayerName | undefined;
}

export function simulateViewer(options: {
  link: TSimulatedLink;
  durationMs: number;
  acks?: boolean;
  choice?: 'auto' | TStreamLayerName;
  /** When the viewer joins (ms); before that someone else watches the room's own layer. */
  joinAtMs?: number;
}): TSimulationResult {
  let now = 0;
  const layerShapes = [
    { name: 'high' as const, width: 1280, height: 720, kbps: 2500, keyEvery: 60 },
    { name: 'medium' as const, width: 854, height: 480, kbps: 1125, keyEvery: 30 },
    { name: 'low' as const, width: 640, height: 360, kbps: 350, keyEvery: 30 },
  ];
  const sound = new SimulatedSource('opus', 96, undefined, 1);
  const lowSound = new SimulatedSource('opus', 32, undefined, 1);
  const soundFanout = new MediaFanout(sound, AUDIO_BACKPRESSURE);
  const lowSoundFanout = new MediaFanout(lowSound, AUDIO_BACKPRESSURE);
  const sources = layerShapes.map(
    (shape) =>
      new SimulatedSource('h264', shape.kbps, { width: shape.width, height: shape.height }, shape.keyEvery),
  );
  const layers: TLayerFeed[] = layerShapes.map((shape, index) => ({
    name: shape.name,
    width: shape.width,
    height: shape.height,
    bitrateKbps: shape.kbps,
    video: new MediaFanout(sources[index]!, H264_BACKPRESSURE),
    audio: index === layerShapes.length - 1 ? lowSoundFanout : soundFanout,
    audioKbps: index === layerShapes.length - 1 ? 32 : 96,
  }));

  // The link: bytes in order, at its rate, then its own delay.
  const wire: { bytes: number; frame: Uint8Array; sentAt: number }[] = [];
  let credit = 0;
  const arrivals: { at: number; frame: Uint8Array; sentAt: number }[] = [];
  const layerChanges: TSimulationResult['layers'] = [];
  const peer = {
    bufferedAmount: 0,
    sendFrame(frame: Uint8Array, written: () => void) {
      wire.push({ bytes: frame.byteLength, frame, sentAt: now });
      written();
    },
    send(message: TServerMessage) {
      if (message.type === 'stream/layer')
        layerChanges.push({ at: now, layer: message.layer, reason: message.reason });
    },
  };
  const viewer = new ViewerStream({
    peer,
    layers,
    choice: options.choice ?? 'auto',
    withSound: true,
    acks: options.acks ?? true,
    now: () => now,
  });
  const joinAt = options.joinAtMs ?? 0;
  // Someone else watching keeps the room's own layer and sound running before the viewer comes.
  const others = joinAt > 0 ? [sources[0]!.subscribe(() => {}), sound.subscribe(() => {})] : [];

  const delay = options.link.delayMs ?? 20;
  const inTransit: { at: number; frame: Uint8Array; sentAt: number; bytes: number }[] = [];
  const acksInTransit: { at: number; bytes: number; clientAt: number }[] = [];
  let received = 0;
  let lastAckAt = -1000;
  let lastAckedBytes = 0;
  for (now = 0; now < options.durationMs; now++) {
    if (now === joinAt) viewer.start();
    if (now % 10 === 0) sound.emit(now, 10);
    if (now % 20 === 0) lowSound.emit(now, 20);
    if (Math.floor((now * FPS) / 1000) !== Math.floor(((now - 1) * FPS) / 1000)) {
      for (const source of sources) source.emit(now, 1000 / FPS);
    }
    const kbps = [...options.link.rates].reverse().find(([at]) => at <= now)?.[1] ?? 1000;
    credit += kbps / 8;
    while (wire.length > 0 && credit >= wire[0]!.bytes) {
      const sent = wire.shift()!;
      credit -= sent.bytes;
      inTransit.push({ at: now + delay, frame: sent.frame, sentAt: sent.sentAt, bytes: sent.bytes });
    }
    // An idle link does not save up more than a packet's worth.
    if (wire.length === 0) credit = Math.min(credit, 1500);
    const stalled = options.link.stalls?.some(([at, length]) => now >= at && now < at + length) ?? false;
    while (!stalled && inTransit.length > 0 && inTransit[0]!.at <= now) {
      const arrived = inTransit.shift()!;
      received += arrived.bytes;
      arrivals.push({ at: now, frame: arrived.frame, sentAt: arrived.sentAt });
    }
    if (!stalled && received > lastAckedBytes && now - lastAckAt >= 100) {
      lastAckAt = now;
      lastAckedBytes = received;
      acksInTransit.push({ at: now + delay, bytes: received, clientAt: now });
    }
    while (acksInTransit.length > 0 && acksInTransit[0]!.at <= now) {
      const ack = acksInTransit.shift()!;
      viewer.acked(ack.bytes, ack.clientAt);
    }
  }
  viewer.close();
  for (const unsubscribe of others) unsubscribe();

  // Decodable pictures: a delta counts only when every frame since its keyframe (of the same size) arrived.
  const shown: { at: number; width: number }[] = [];
  const sounds: { at: number; sentAt: number; ms: number }[] = [];
  let chain: number | undefined;
  for (const arrival of arrivals) {
    if (isPaddingFrame(arrival.frame)) continue;
    const frame = decodeMediaFrame(arrival.frame);
    if (frame.codec === 'opus') {
      sounds.push({ at: arrival.at, sentAt: frame.timestamp, ms: frame.data.byteLength <= 80 ? 20 : 10 });
      continue;
    }
    if (frame.keyframe) chain = frame.width;
    if (chain === frame.width) shown.push({ at: arrival.at, width: frame.width });
  }
  const soundSent = (from: number, to: number) => Math.floor(to / 10) - Math.floor(from / 10);
  return {
    layers: layerChanges,
    fps: (from, to) =>
      (shown.filter((picture) => picture.at >= from && picture.at < to).length * 1000) / (to - from),
    longestFreeze(from, to) {
      const times = [
        from,
        ...shown.filter((picture) => picture.at >= from && picture.at < to).map((p) => p.at),
        to,
      ];
      return Math.max(...times.slice(1).map((at, index) => at - times[index]!));
    },
    sound(from, to) {
      const within = sounds.filter((packet) => packet.sentAt >= from && packet.sentAt < to);
      // Sound is counted in 10 ms slots heard: a low-layer packet (20 ms, 80 bytes at 32 kbit/s) fills two.
      const slots = new Set<number>();
      for (const packet of within) {
        for (let slot = 0; slot < packet.ms / 10; slot++) slots.add(Math.floor(packet.sentAt / 10) + slot);
      }
      return {
        received: slots.size,
        sent: soundSent(from, to),
        worstDelayMs: Math.max(0, ...within.map((packet) => packet.at - packet.sentAt)),
      };
    },
    layerAt(at) {
      return [...layerChanges].reverse().find((change) => change.at <= at)?.layer;
    },
  };
}
