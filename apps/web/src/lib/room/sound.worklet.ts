// The audio thread's end of the room sound: decoded packets arrive on the port (or on a second port straight
// from the sound worker), the jitter buffer plays each when it is due on this thread's clock, and every ~50 ms
// (and whenever sound starts or stops) the port hears which server timestamp was rendered at which context
// time, the sound clock that the picture follows (av-sync.ts). Loaded with audioWorklet.addModule from the URL
// Vite gives for `?worker&url`, so it is bundled with its import.
import { JITTER_DEFAULTS, JitterBuffer } from './jitter-buffer';

// The AudioWorkletGlobalScope, which TypeScript's DOM library does not describe.
declare const sampleRate: number;
declare const currentTime: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;

export type TSoundWorkletMessage =
  | { type: 'chunk'; timestamp: number; channels: Float32Array[] }
  | { type: 'target'; ms: number }
  | { type: 'clear' }
  /** A second port that chunks come in on (from the sound worker, which decodes them). */
  | { type: 'port'; port: MessagePort };

export interface TSoundWorkletReport {
  type: 'report';
  contextTime: number;
  timestamp: number | null;
  bufferedMs: number;
  underruns: number;
  droppedFrames: number;
}

const REPORT_EVERY_S = 0.05;

class RoomSoundProcessor extends AudioWorkletProcessor {
  private readonly jitter = new JitterBuffer({ sampleRate, ...JITTER_DEFAULTS });
  private reportedAt = Number.NEGATIVE_INFINITY;
  private sounding = false;

  constructor() {
    super();
    const receive = (event: MessageEvent<TSoundWorkletMessage>) => {
      const message = event.data;
      if (message.type === 'chunk') this.jitter.push(message.timestamp, message.channels, currentTime * 1000);
      else if (message.type === 'target') this.jitter.setDelay(message.ms);
      else if (message.type === 'clear') this.jitter.clear();
      else message.port.onmessage = receive;
    };
    this.port.onmessage = receive;
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const output = outputs[0];
    if (!output) return true;
    const timestamp = this.jitter.pull(output, currentTime * 1000);
    const sounding = timestamp !== null;
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
      };
      this.port.postMessage(report);
    }
    return true;
  }
}

registerProcessor('room-sound', RoomSoundProcessor);
