// The room's sound: Opus packets → WebCodecs AudioDecoder → the AudioWorklet's jitter buffer → volume → speakers.
// Built on the first packet. An AudioContext made without a user gesture starts suspended (the autoplay rule):
// the state says 'blocked' and one click on the page's unmute button resumes it. Volume and mute are kept per
// browser. The worklet's reports make the sound clock that the picture follows (av-sync.ts), and say whether
// anything can be heard: a silent page still sends packets of silence.
import type { TMediaFrame } from '@rooms/api/room-protocol';
import { heardTimestamp, PacketStamps, type TOutputTimestamp, type TSoundReport } from './av-sync';
import { refuseDecoder } from './decoders';
import { OPUS_SAMPLE_RATE, opusChannels } from './opus';
import type { TSoundWorkletMessage, TSoundWorkletReport } from './sound.worklet';
import workletUrl from './sound.worklet.ts?worker&url';

export type TSoundStatus = 'off' | 'starting' | 'blocked' | 'playing' | 'failed';

export interface TSoundState {
  status: TSoundStatus;
  volume: number;
  muted: boolean;
}

const VOLUME_KEY = 'rooms.volume';
const MUTED_KEY = 'rooms.muted';
/** Sound quieter than this (RMS, about −60 dBFS) is silence to a listener: what a silent page sends. */
const AUDIBLE_LEVEL = 0.001;
/** Packets and the worklet's reports speak for the sound now for this long (packets come every 10 ms). */
const SOUND_FRESH_MS = 300;

function storedVolume(): number {
  const value = Number(globalThis.localStorage?.getItem(VOLUME_KEY) ?? '1');
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1;
}

export class RoomSound {
  private state: TSoundState = {
    status: 'off',
    volume: storedVolume(),
    muted: globalThis.localStorage?.getItem(MUTED_KEY) === 'true',
  };
  private context: AudioContext | null = null;
  private node: AudioWorkletNode | null = null;
  private gain: GainNode | null = null;
  private analyser: AnalyserNode | null = null;
  private decoder: AudioDecoder | null = null;
  private channels: 1 | 2 = 2;
  private report: TSoundReport | null = null;
  private buffered: { ms: number; underruns: number; droppedMs: number } | null = null;
  /** The loudness of the last report (before the volume) and when it came; when the last packet arrived. */
  private loudness = 0;
  private loudnessAt = Number.NEGATIVE_INFINITY;
  private packetAt = Number.NEGATIVE_INFINITY;
  private levels: Float32Array<ArrayBuffer> | null = null;
  private closed = false;
  /** How far the room's sound is lowered while members talk (voice-session.ts), 0..1 of the volume. */
  private ducking = 1;
  private headroom = 0;
  /** Packets that arrived while the worklet loaded (dropped) or the decoder broke. */
  skipped = 0;
  private errors = 0;
  private decoded = 0;
  /** Each decoded chunk's server timestamp is its packet's, not the decoder's count (av-sync.ts). */
  private readonly stamps = new PacketStamps();

  constructor(private readonly changed: () => void) {}

  getState(): TSoundState {
    return this.state;
  }

  packet(frame: TMediaFrame): void {
    if (this.closed) return;
    this.packetAt = performance.now();
    if (this.state.status === 'off') {
      this.channels = opusChannels(frame.data);
      void this.start();
    }
    const decoder = this.decoder;
    if (decoder?.state !== 'configured') {
      this.skipped += 1;
      if (decoder?.state === 'closed') this.decoder = this.createDecoder();
      return;
    }
    decoder.decode(
      new EncodedAudioChunk({
        type: 'key',
        timestamp: Math.round(frame.timestamp * 1000),
        data: frame.data,
      }),
    );
    this.stamps.decoding(frame.timestamp, decoder.decodeQueueSize);
  }

  /**
   * The context the room's sound plays in, once its worklet is loaded: members' voices play in it too
   * (voice-session.ts), on the same audio thread and output, not on a second one beside it.
   */
  playingContext(): AudioContext | null {
    return this.closed || !this.node ? null : this.context;
  }

  /** The click-to-unmute: runs inside the user's gesture, which is what lets the context start. */
  unmute(): void {
    this.setMuted(false);
    void this.context?.resume();
  }

  setMuted(muted: boolean): void {
    globalThis.localStorage?.setItem(MUTED_KEY, String(muted));
    this.update({ muted });
    this.applyVolume();
    if (!muted && this.context?.state === 'suspended') void this.context.resume();
  }

  setVolume(volume: number): void {
    const clamped = Math.min(1, Math.max(0, volume));
    globalThis.localStorage?.setItem(VOLUME_KEY, String(clamped));
    this.update({ volume: clamped, muted: clamped === 0 ? this.state.muted : false });
    this.applyVolume();
  }

  /** Lowers the room's sound to `level` of its volume (1: as set), smoothly, e.g. while someone talks. */
  duck(level: number): void {
    if (level === this.ducking) return;
    this.ducking = level;
    this.applyVolume();
  }

  /** Extra delay of the sound, to wait for a picture that arrives later than it. */
  setDelay(ms: number): void {
    this.post({ type: 'target', ms });
  }

  /** More sound kept queued while the page is busier than usual (voices playing beside it: ./voice-session.ts). */
  setHeadroom(ms: number): void {
    if (ms === this.headroom) return;
    this.headroom = ms;
    this.post({ type: 'headroom', ms });
  }

  /** The server timestamp of the sound at the speakers at performance time `now`, or null when silent. */
  heard(now: number): number | null {
    const context = this.context;
    if (context?.state !== 'running') return null;
    return heardTimestamp(this.report, outputTimestamp(context, now), now);
  }

  /**
   * Whether this participant hears the room now: the sound plays, is not muted, packets keep arriving and what
   * they carry is louder than silence. Only then does an offset between picture and sound mean anything.
   */
  audible(now: number): boolean {
    const { status, muted, volume } = this.state;
    return (
      status === 'playing' &&
      !muted &&
      volume > 0 &&
      now - this.packetAt <= SOUND_FRESH_MS &&
      now - this.loudnessAt <= SOUND_FRESH_MS &&
      this.loudness >= AUDIBLE_LEVEL
    );
  }

  /**
   * Sound queued in the jitter buffer at its last report (ms), how often it ran dry and how much it dropped to
   * stay short so far; null before the sound starts.
   */
  buffer(): { ms: number; underruns: number; droppedMs: number } | null {
    return this.buffered;
  }

  /** Loudness of what goes to the speakers right now (after volume), RMS 0..1. */
  level(): number {
    const analyser = this.analyser;
    if (!analyser) return 0;
    this.levels ??= new Float32Array(analyser.fftSize);
    analyser.getFloatTimeDomainData(this.levels);
    let sum = 0;
    for (const sample of this.levels) sum += sample * sample;
    return Math.sqrt(sum / this.levels.length);
  }

  close(): void {
    this.closed = true;
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = null;
    this.node?.disconnect();
    void this.context?.close().catch(() => undefined);
    this.context = null;
  }

  private async start(): Promise<void> {
    this.update({ status: 'starting' });
    try {
      const context = new AudioContext({ latencyHint: 'interactive', sampleRate: OPUS_SAMPLE_RATE });
      this.context = context;
      context.addEventListener('statechange', () => this.followContext());
      await context.audioWorklet.addModule(workletUrl);
      if (this.closed) return;
      const node = new AudioWorkletNode(context, 'room-sound', {
        numberOfInputs: 0,
        numberOfOutputs: 1,
        outputChannelCount: [2],
      });
      node.port.onmessage = (event: MessageEvent<TSoundWorkletReport>) => {
        this.report = { contextTime: event.data.contextTime, timestamp: event.data.timestamp };
        this.loudness = event.data.level;
        this.loudnessAt = performance.now();
        this.buffered = {
          ms: event.data.bufferedMs,
          underruns: event.data.underruns,
          droppedMs: (event.data.droppedFrames / context.sampleRate) * 1000,
        };
      };
      const gain = context.createGain();
      const analyser = context.createAnalyser();
      analyser.fftSize = 2048;
      node.connect(gain).connect(analyser).connect(context.destination);
      this.node = node;
      this.gain = gain;
      this.analyser = analyser;
      this.applyVolume();
      if (this.headroom > 0) this.post({ type: 'headroom', ms: this.headroom });
      this.decoder = this.createDecoder();
      this.followContext();
    } catch {
      this.update({ status: 'failed' });
    }
  }

  private createDecoder(): AudioDecoder {
    this.stamps.clear();
    const decoder = new AudioDecoder({
      output: (data) => {
        this.decoded += 1;
        this.play(data, this.stamps.decoded(data.timestamp / 1000));
      },
      error: () => {
        // The decoder closed itself; the next packet builds a new one, unless it never decoded anything.
        this.errors += 1;
        if (this.errors >= 3 && this.decoded === 0) refuseDecoder('opus');
      },
    });
    decoder.configure({ codec: 'opus', sampleRate: OPUS_SAMPLE_RATE, numberOfChannels: this.channels });
    return decoder;
  }

  /** `timestamp`: the server's, in ms, of the packet this sound came from. */
  private play(data: AudioData, timestamp: number): void {
    try {
      const channels: Float32Array[] = [];
      for (let plane = 0; plane < data.numberOfChannels; plane += 1) {
        const samples = new Float32Array(data.numberOfFrames);
        data.copyTo(samples, { planeIndex: plane, format: 'f32-planar' });
        channels.push(samples);
      }
      this.post(
        { type: 'chunk', timestamp, channels },
        channels.map((channel) => channel.buffer as ArrayBuffer),
      );
    } finally {
      data.close();
    }
  }

  private post(message: TSoundWorkletMessage, transfer: Transferable[] = []): void {
    this.node?.port.postMessage(message, transfer);
  }

  private followContext(): void {
    const context = this.context;
    if (!context || this.closed || !this.node) return;
    if (context.state === 'running') this.update({ status: 'playing' });
    else if (context.state === 'suspended') this.update({ status: 'blocked' });
  }

  private applyVolume(): void {
    const gain = this.gain;
    const context = this.context;
    if (!gain || !context) return;
    gain.gain.setTargetAtTime(
      this.state.muted ? 0 : this.state.volume * this.ducking,
      context.currentTime,
      0.015,
    );
  }

  private update(patch: Partial<TSoundState>): void {
    const next = { ...this.state, ...patch };
    if (
      next.status === this.state.status &&
      next.volume === this.state.volume &&
      next.muted === this.state.muted
    )
      return;
    this.state = next;
    this.changed();
  }
}

/**
 * When the context's time reaches the speakers. getOutputTimestamp() says so exactly where the platform knows;
 * without an output device it reports zeros, and the context's latency figures stand in.
 */
function outputTimestamp(context: AudioContext, now: number): TOutputTimestamp {
  const output = context.getOutputTimestamp?.();
  if (output?.performanceTime && output.contextTime !== undefined) {
    return { contextTime: output.contextTime, performanceTime: output.performanceTime };
  }
  return {
    contextTime: context.currentTime - (context.outputLatency || context.baseLatency || 0),
    performanceTime: now,
  };
}
