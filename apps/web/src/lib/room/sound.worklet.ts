// The audio thread's end of the room sound: decoded packets arrive on the port, the jitter buffer spaces them
// out, and every ~50 ms (and whenever sound starts or stops) the port hears which server timestamp was rendered
// at which context time, the sound clock that the picture follows (av-sync.ts), and how loud what was rendered
// since the last report is (a silent page still sends sound: silence). Loaded with
// audioWorklet.addModule from the URL Vite gives for `?worker&url`, so it is bundled with its import.
import { JITTER_DEFAULTS, JitterBuffer, type TJitterOptions } from './jitter-buffer';

// The AudioWorkletGlobalScope, which TypeScript's DOM library does not describe.
declare const sampleRate: number;
declare const currentTime: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(
  name: string,
  processor: new (options?: { processorOptions?: TSoundWorkletOptions }) => AudioWorkletProcessor,
): void;

/** What a node of this worklet is made with (`processorOptions`): the room's sound takes the defaults. */
export interface TSoundWorkletOptions {
  jitter?: Partial<Omit<TJitterOptions, 'sampleRate'>>;
}

export type TSoundWorkletMessage =
  | { type: 'chunk'; timestamp: number; channels: Float32Array[] }
  | { type: 'target'; ms: number }
  | { type: 'headroom'; ms: number }
  | { type: 'clear' };

export interface TSoundWorkletReport {
  type: 'report';
  contextTime: number;
  timestamp: number | null;
  bufferedMs: number;
  underruns: number;
  droppedFrames: number;
  /** RMS of the sound rendered since the last report (before the volume), 0..1. */
  level: number;
}

const REPORT_EVERY_S = 0.05;

class RoomSoundProcessor extends AudioWorkletProcessor {
  private readonly jitter: JitterBuffer;
  private reportedAt = Number.NEGATIVE_INFINITY;
  private sounding = false;
  private squares = 0;
  private samples = 0;

  constructor(options?: { processorOptions?: TSoundWorkletOptions }) {
    super();
    this.jitter = new JitterBuffer({ sampleRate, ...JITTER_DEFAULTS, ...options?.processorOptions?.jitter });
    this.port.onmessage = (event: MessageEvent<TSoundWorkletMessage>) => {
      const message = event.data;
      if (message.type === 'chunk') this.jitter.push(message.timestamp, message.channels);
      else if (message.type === 'target') this.jitter.setDelay(message.ms);
      else if (message.type === 'headroom') this.jitter.setHeadroom(message.ms);
      else this.jitter.clear();
    };
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const output = outputs[0];
    if (!output) return true;
    const timestamp = this.jitter.pull(output);
    const sounding = timestamp !== null;
    if (sounding) {
      for (const channel of output) {
        for (const sample of channel) this.squares += sample * sample;
        this.samples += channel.length;
      }
    } else this.samples += (output[0]?.length ?? 0) * output.length;
    if (sounding !== this.sounding || currentTime - this.reportedAt >= REPORT_EVERY_S) {
      this.sounding = sounding;
      this.reportedAt = currentTime;
      const stats = this.jitter.stats();
      const report: TSoundWorkletReport = {
        type: 'report',
        contextTime: currentTime,
        timestamp,
        bufferedMs: stats.bufferedMs,
        underruns: stats.underruns,
        droppedFrames: stats.droppedFrames,
        level: this.samples > 0 ? Math.sqrt(this.squares / this.samples) : 0,
      };
      this.squares = 0;
      this.samples = 0;
      this.port.postMessage(report);
    }
    return true;
  }
}

registerProcessor('room-sound', RoomSoundProcessor);
