// Plays a room's media on a canvas and the speakers, outside React: picture frames go to the decoder for their
// codec, sound packets to RoomSound; decoded pictures wait in the pacer for the sound (av-sync.ts) and are drawn
// on animation frames. Each paint, and the latency of this participant's own inputs (input-echo.ts), go to the
// attached meter. React reads the path in use, the sound's state and the measured A/V offset through a
// subscribe/snapshot pair.
import type { TMediaCodecName, TMediaFrame } from '@rooms/api/room-protocol';
import { AV_SYNC, nextSoundDelay, PicturePacer } from './av-sync';
import { refuseDecoder } from './decoders';
import {
  createFrameDecoder,
  drawPicture,
  type TFrameDecoder,
  type TPicture,
  type TVideoCodecName,
} from './frame-decoder';
import { canvasSampler, InputEcho, type TPoint } from './input-echo';
import { RoomSound, type TSoundState } from './room-sound';

/** Where the player reports what it paints (QualityMeter). */
export interface TPaintSink {
  /** A picture with this server timestamp was painted at `now`. */
  painted(serverTimestamp: number, now: number): void;
  /** This participant's input showed `latencyMs` after it, in the picture stamped `serverTimestamp`. */
  inputShown(latencyMs: number, serverTimestamp: number, now: number): void;
}

export interface TPlayerSnapshot {
  /** The picture's path: 'h264' (WebCodecs stream) or 'jpeg' (screencast fallback), null before a frame. */
  path: TVideoCodecName | null;
  sound: TSoundState;
  /**
   * Median of shown picture − heard sound over the last seconds, ms (positive: picture ahead), measured only while
   * the sound is audible and the picture moves; null otherwise (a silent or still page has no lip sync).
   */
  avOffsetMs: number | null;
  /** The newest decoded picture − the sound's timestamp, before pacing, ms; what the pacing corrects. */
  rawOffsetMs: number | null;
  /** How much the sound is held back to wait for the picture, ms. */
  soundDelayMs: number;
  /** Sound queued in the jitter buffer, ms (what the sound's own smoothing costs). */
  soundBufferMs: number | null;
  /** Times the sound ran dry (a gap heard, then a refill of the buffer). */
  soundUnderruns: number;
  /** Sound dropped so far to keep the buffer short, ms. */
  soundDroppedMs: number;
}

const SYNC_EVERY_MS = 1000;
/** A picture painted this soon after the one before belongs to a moving picture (a still page paints seldom). */
const MOVING_WITHIN_MS = 250;
/** Decoder errors without a single picture after which this browser's H.264 decoder counts as broken. */
const BROKEN_AFTER_ERRORS = 3;

export class RoomPlayer {
  readonly sound: RoomSound;
  private decoder: TFrameDecoder | null = null;
  private unsupported: TMediaCodecName | null = null;
  private readonly pacer = new PicturePacer<TPicture>();
  private animation = 0;
  private readonly syncTimer: ReturnType<typeof setInterval>;
  private paintedAt = Number.NEGATIVE_INFINITY;
  private closed = false;
  /** Set while this participant is in control: pictures go out at once (see av-sync.ts). */
  private driving = false;
  private snapshot: TPlayerSnapshot;
  private readonly listeners = new Set<() => void>();
  /** The picture on screen now, kept (not closed) so an input can be compared against it. */
  private shown: TPicture | null = null;
  private readonly echo = new InputEcho(canvasSampler());
  private sink: TPaintSink | null = null;
  /** Pictures drawn so far, so tests and the page can tell the picture moves. */
  painted = 0;

  constructor(
    private readonly canvas: () => HTMLCanvasElement | null,
    private readonly onUnsupported: (codec: TMediaCodecName) => void = () => undefined,
  ) {
    this.sound = new RoomSound(() => this.update({ sound: this.sound.getState() }));
    this.snapshot = {
      path: null,
      sound: this.sound.getState(),
      avOffsetMs: null,
      rawOffsetMs: null,
      soundDelayMs: 0,
      soundBufferMs: null,
      soundUnderruns: 0,
      soundDroppedMs: 0,
    };
    // On a timer, not on paints: on a still page nothing paints, and the figures must not stay where they were.
    this.syncTimer = setInterval(() => this.sync(performance.now()), SYNC_EVERY_MS);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): TPlayerSnapshot => this.snapshot;

  frame(frame: TMediaFrame): void {
    if (this.closed) return;
    if (frame.codec === 'opus') {
      this.sound.packet(frame);
      return;
    }
    const decoder = this.decoderFor(frame.codec);
    decoder?.decode(frame);
    if (decoder?.codec === 'h264') {
      const stats = decoder.stats();
      // The probe said yes but nothing ever comes out: ask the room for the screencast instead.
      if (stats.errors >= BROKEN_AFTER_ERRORS && stats.decoded === 0) refuseDecoder('h264');
    }
  }

  /** Whether this participant controls the room browser now. */
  setDriving(driving: boolean): void {
    if (driving === this.driving) return;
    this.driving = driving;
    // Offsets measured with pictures held (or not) describe the other way of showing them.
    this.pacer.forgetOffsets();
  }

  /** Paints and measured inputs go to `sink` from now on (null: nowhere). */
  attach(sink: TPaintSink | null): void {
    this.sink = sink;
  }

  /**
   * This participant sent an input at performance time `at` (its event's timeStamp) on `point` of the picture
   * (null: a key): the pictures after it are watched for its effect.
   */
  input(at: number, point: TPoint | null): void {
    if (!this.closed) this.echo.input(at, point, this.shown);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.syncTimer);
    cancelAnimationFrame(this.animation);
    this.decoder?.close();
    for (const picture of this.pacer.clear()) picture.close();
    this.shown?.close();
    this.shown = null;
    this.sound.close();
  }

  private decoderFor(codec: TVideoCodecName): TFrameDecoder | null {
    if (this.decoder?.codec === codec) return this.decoder;
    this.decoder?.close();
    this.decoder = null;
    for (const picture of this.pacer.clear()) picture.close();
    this.shown?.close();
    this.shown = null;
    try {
      this.decoder = createFrameDecoder(codec, this.received);
      this.update({ path: codec });
    } catch {
      if (this.unsupported !== codec) this.onUnsupported(codec);
      this.unsupported = codec;
    }
    return this.decoder;
  }

  private readonly received = (picture: TPicture, timestamp: number): void => {
    if (this.closed) {
      picture.close();
      return;
    }
    for (const old of this.pacer.push(timestamp, picture, performance.now())) old.close();
    this.schedule();
  };

  private schedule(): void {
    if (!this.animation && !this.closed) this.animation = requestAnimationFrame(this.paint);
  }

  private readonly paint = (): void => {
    this.animation = 0;
    const now = performance.now();
    // Without sound (null) each picture goes at once.
    const heard = this.sound.heard(now);
    // Lip sync is measured where someone could see and hear it: a moving picture and sound that is not silence.
    const heardNow = now - this.paintedAt <= MOVING_WITHIN_MS && this.sound.audible(now);
    const { show, dropped } = this.pacer.take(heard, now, !this.driving, AV_SYNC.leadMs, heardNow);
    for (const picture of dropped) picture.close();
    const canvas = this.canvas();
    if (show && canvas) {
      const timestamp = this.pacer.shownTimestamp ?? 0;
      const echoed = this.echo.waiting ? this.echo.painted(show, now) : null;
      drawPicture(canvas, show, false);
      this.shown?.close();
      this.shown = show;
      this.painted += 1;
      this.paintedAt = now;
      canvas.dataset.frames = String(this.painted);
      this.sink?.painted(timestamp, now);
      if (echoed !== null) this.sink?.inputShown(echoed, timestamp, now);
    } else show?.close();
    if (this.pacer.size) this.schedule();
  };

  /** Once a second: publish the measured offsets and move the sound's delay if the picture lags it. */
  private sync(now: number): void {
    if (this.closed) return;
    const natural = this.pacer.naturalOffset(now);
    // The driver's pictures are not held, so no sound delay waits for them either.
    const soundDelayMs =
      natural === null || this.driving
        ? this.snapshot.soundDelayMs
        : nextSoundDelay(this.snapshot.soundDelayMs, natural);
    if (soundDelayMs !== this.snapshot.soundDelayMs) {
      this.sound.setDelay(soundDelayMs);
      // Offsets measured under the old delay no longer describe the sound.
      this.pacer.forgetOffsets('natural');
    }
    // Only recent offsets: without pictures or sound lately there is none, rather than the last one kept.
    const shown = this.pacer.shownOffset(now);
    const buffered = this.sound.buffer();
    this.update({
      avOffsetMs: shown === null ? null : Math.round(shown),
      rawOffsetMs: natural === null ? null : Math.round(natural),
      soundDelayMs,
      soundBufferMs: buffered === null ? null : Math.round(buffered.ms),
      soundUnderruns: buffered?.underruns ?? 0,
      soundDroppedMs: Math.round(buffered?.droppedMs ?? 0),
    });
  }

  private update(patch: Partial<TPlayerSnapshot>): void {
    const next = { ...this.snapshot, ...patch };
    const same = (Object.keys(patch) as (keyof TPlayerSnapshot)[]).every(
      (key) => next[key] === this.snapshot[key],
    );
    if (same) return;
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}
