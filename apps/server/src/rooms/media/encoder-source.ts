// A MediaSource fed by one ffmpeg process that runs only while someone subscribes: encoding a 720p picture costs
// a good part of a core, and a room with nobody in it should not pay it. The process starts with the first
// subscriber and stops a little after the last one leaves (so a reconnect finds it running); it is restarted if
// it dies while people watch.

import { silentLogger, type TRoomLogger } from '../room-logger';
import type { MediaSource, TMediaChunk, TMediaCodec } from '../room-session';
import type { RoomProcessLauncher } from '../sandbox/room-sandbox';
import { FrameRate } from './frame-rate';
import { RoomProcess } from './room-process';

/** Parses one run's stdout and reports chunks (timestamped by the reader, on performance.now()). */
export interface TChunkReader {
  push(data: Buffer): void;
}

export interface TEncoderSourceOptions {
  codec: TMediaCodec;
  /** ffmpeg's arguments, output on stdout. */
  args: string[];
  /** Starts ffmpeg in the room's sandbox. */
  launcher: RoomProcessLauncher;
  reader(emit: (chunk: TMediaChunk) => void): TChunkReader;
  /** The encoder's bitrate cap, told to participants. */
  bitrateKbps?: number;
  /** How long the process keeps running after the last subscriber left. */
  idleStopMs?: number;
  logger?: TRoomLogger;
  roomId?: string;
}

const DEFAULT_IDLE_STOP_MS = 10_000;
const RESTART_DELAY_MS = 1000;
/** A run shorter than this counts as a failure to start: the next restart waits twice as long, up to a minute. */
const QUICK_FAILURE_MS = 5000;
const MAX_RESTART_DELAY_MS = 60_000;
/** A stream without keyframes for this many chunks is not replayed to joiners (they wait for the next one). */
const MAX_GROUP_CHUNKS = 1000;

export class EncoderSource implements MediaSource {
  readonly codec: TMediaCodec;
  readonly bitrateKbps: number | undefined;

  private readonly listeners = new Set<(chunk: TMediaChunk) => void>();
  private readonly frameRate = new FrameRate();
  /** The latest keyframe and every chunk after it: what a joiner needs to decode up to now. */
  private group: TMediaChunk[] = [];
  private process: RoomProcess | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Runs in a row that ended quickly. */
  private failures = 0;
  private readonly logger: TRoomLogger;

  constructor(private readonly options: TEncoderSourceOptions) {
    this.codec = options.codec;
    this.bitrateKbps = options.bitrateKbps;
    this.logger = options.logger ?? silentLogger;
  }

  /** The running encoder's process id, if any (benchmarks count its CPU with the room). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  subscribe(listener: (chunk: TMediaChunk) => void): () => void {
    this.listeners.add(listener);
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!this.process && !this.restartTimer) this.launch();
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => void this.halt(), this.options.idleStopMs ?? DEFAULT_IDLE_STOP_MS);
      this.idleTimer.unref();
    };
  }

  rate(): number {
    return this.frameRate.perSecond();
  }

  kbps(): number {
    return this.frameRate.kbps();
  }

  freezes(): number {
    return this.frameRate.freezes();
  }

  latestKeyframe(): TMediaChunk | undefined {
    return this.group[0];
  }

  sinceKeyframe(): readonly TMediaChunk[] {
    // A copy: the group grows with every chunk, and a caller counting on what it was handed would count wrong.
    return [...this.group];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listeners.clear();
    await this.halt();
  }

  private launch(): void {
    if (this.stopped) return;
    const encoder = RoomProcess.spawn(this.options.launcher, 'ffmpeg', this.options.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = encoder;
    const startedAt = performance.now();
    let stderr = '';
    encoder.child.stderr?.on('data', (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-2000);
    });
    // Output still in the pipe of a run that was halted or replaced belongs to an old stream: mixed into the new
    // one it would garble every decoder until the next keyframe.
    const reader = this.options.reader((chunk) => {
      if (this.process === encoder) this.emit(chunk);
    });
    encoder.child.stdout?.on('data', (data: Buffer) => {
      try {
        reader.push(data);
      } catch (error) {
        this.logger.error({ err: error, roomId: this.options.roomId }, `${this.codec} stream unreadable`);
        void encoder.stop();
      }
    });
    void encoder.exited.then((code) => {
      if (this.process !== encoder) return;
      this.process = undefined;
      this.group = [];
      if (this.stopped || this.listeners.size === 0) return;
      this.logger.warn(
        { roomId: this.options.roomId, code, stderr: stderr.trim() },
        `${this.codec} encoder exited; restarting`,
      );
      // An encoder that keeps failing (its display or sound server gone) is retried ever more slowly.
      const quickly = performance.now() - startedAt < QUICK_FAILURE_MS;
      this.failures = quickly ? this.failures + 1 : 0;
      const delay = Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** this.failures);
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        if (this.listeners.size > 0) this.launch();
      }, delay);
      this.restartTimer.unref();
    });
  }

  private async halt(): Promise<void> {
    clearTimeout(this.idleTimer);
    clearTimeout(this.restartTimer);
    this.idleTimer = undefined;
    this.restartTimer = undefined;
    const encoder = this.process;
    this.process = undefined;
    this.frameRate.pause();
    // Frames of a stopped run must not reach the next joiner: the next run starts a new stream.
    this.group = [];
    await encoder?.stop();
  }

  private emit(chunk: TMediaChunk): void {
    this.frameRate.tick(chunk.data.byteLength);
    if (chunk.keyframe) this.group = [chunk];
    else if (this.group.length >= MAX_GROUP_CHUNKS) this.group = [];
    else if (this.group.length > 0) this.group.push(chunk);
    for (const listener of this.listeners) {
      try {
        listener(chunk);
      } catch (error) {
        this.logger.error({ err: error, roomId: this.options.roomId }, 'a media listener failed');
      }
    }
  }
}
