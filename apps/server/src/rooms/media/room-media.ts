// Everything a room needs for H.264 + Opus besides its browser: the virtual display the browser draws on, the
// sound server it plays into, and the encoders that turn them into chunks: the picture's ladder (layer-ladder.ts;
// each layer grabs the display and encodes it at its own size, and runs only while a viewer takes it) and the
// sound, with a cheaper copy for the lowest layer's viewers. Started before the browser (which
// needs DISPLAY and PULSE_SERVER), stopped after it. An encoder that dies restarts by itself (encoder-source.ts);
// the display or the sound server dying takes the browser's world with it, so the engine restarts the room.
import { rm } from 'node:fs/promises';
import type { TRoomLogger } from '../room-logger';
import type { TPictureLayer } from '../room-session';
import type { RoomProcessLauncher } from '../sandbox/room-sandbox';
import type { EncoderSource } from './encoder-source';
import { createH264Source } from './h264-encoder';
import { layerLadder } from './layer-ladder';
import { createOpusSource, LOW_OPUS_BITRATE_KBPS, LOW_OPUS_PACKET_MS } from './opus-encoder';
import { SoundServer } from './sound-server';
import { VirtualDisplay } from './virtual-display';

export interface TRoomMediaOptions {
  roomId: string;
  width: number;
  height: number;
  fps: number;
  bitrateKbps: number;
  /** A directory of this room's own (the sound server's socket lives there); removed on stop. */
  runtimeDir: string;
  /** Every process starts in the room's sandbox. */
  launcher: RoomProcessLauncher;
  logger?: TRoomLogger;
}

export class RoomMedia {
  private stopping = false;

  private constructor(
    private readonly runtimeDir: string,
    readonly display: VirtualDisplay,
    readonly sound: SoundServer,
    readonly video: EncoderSource,
    readonly audio: EncoderSource,
    /** Best first; the first is `video`. */
    readonly layers: readonly (TPictureLayer & { source: EncoderSource })[],
    /** The lowest layer's sound, when the ladder has more than one layer. */
    readonly lowAudio: EncoderSource | undefined,
  ) {}

  static async start(options: TRoomMediaOptions): Promise<RoomMedia> {
    const { launcher } = options;
    let display: VirtualDisplay | undefined;
    try {
      const [started, sound] = await Promise.allSettled([
        VirtualDisplay.start({ width: options.width, height: options.height, launcher }),
        SoundServer.start({ runtimeDir: options.runtimeDir, launcher }),
      ]);
      if (started.status === 'fulfilled') display = started.value;
      if (started.status === 'rejected' || sound.status === 'rejected') {
        if (sound.status === 'fulfilled') await sound.value.stop();
        throw started.status === 'rejected' ? started.reason : (sound as PromiseRejectedResult).reason;
      }
      const common = { logger: options.logger, roomId: options.roomId };
      const soundOf = (low: boolean) =>
        createOpusSource(
          {
            server: sound.value.address,
            source: sound.value.monitor,
            ...(low ? { bitrateKbps: LOW_OPUS_BITRATE_KBPS, packetMs: LOW_OPUS_PACKET_MS } : {}),
            ...common,
          },
          launcher,
        );
      const audio = soundOf(false);
      const ladder = layerLadder(options);
      const lowAudio = ladder.length > 1 ? soundOf(true) : undefined;
      const layers = ladder.map((shape, index) => ({
        name: shape.name,
        width: shape.width,
        height: shape.height,
        bitrateKbps: shape.bitrateKbps,
        source: createH264Source(
          {
            display: started.value.display,
            width: options.width,
            height: options.height,
            output: { width: shape.width, height: shape.height },
            fps: options.fps,
            bitrateKbps: shape.bitrateKbps,
            keyframeIntervalS: shape.keyframeIntervalS,
            ...common,
          },
          launcher,
        ),
        audio: index === ladder.length - 1 && lowAudio ? lowAudio : audio,
      }));
      const video = layers[0]!.source;
      return new RoomMedia(options.runtimeDir, started.value, sound.value, video, audio, layers, lowAudio);
    } catch (error) {
      await display?.stop();
      await rm(options.runtimeDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** What the room's browser needs in its environment to draw on the display and play into the sink. */
  browserEnvironment(): Record<string, string> {
    return { DISPLAY: this.display.display, PULSE_SERVER: this.sound.address };
  }

  /** From now on its processes ending is expected (the room's sandbox, closing first, takes them along). */
  expectExit(): void {
    this.stopping = true;
  }

  /** Calls `callback` once if the display or the sound server ends before stop() or expectExit(). */
  onUnexpectedExit(callback: (which: 'display' | 'sound') => void): void {
    let told = false;
    const watch = (process: { exited: Promise<unknown> }, which: 'display' | 'sound') =>
      void process.exited.then(() => {
        if (this.stopping || told) return;
        told = true;
        callback(which);
      });
    watch(this.display.process, 'display');
    watch(this.sound.process, 'sound');
  }

  /** The processes running for this room right now (benchmarks add their CPU to the browser's). */
  pids(): number[] {
    return [
      this.display.process.pid,
      this.sound.process.pid,
      ...this.encoders().map((encoder) => encoder.pid),
    ].filter((pid): pid is number => pid !== undefined);
  }

  private encoders(): EncoderSource[] {
    return [
      ...this.layers.map((layer) => layer.source),
      this.audio,
      ...(this.lowAudio ? [this.lowAudio] : []),
    ];
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.encoders().map((encoder) => encoder.stop()));
    await Promise.all([this.sound.stop(), this.display.stop()]);
    await rm(this.runtimeDir, { recursive: true, force: true });
  }
}
