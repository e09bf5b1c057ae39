// The audio thread's end of the microphone: gathers the first input channel into 20 ms blocks (960 sample frames
// at 48 kHz) and posts each to the page, which measures it and hands it to the Opus encoder (voice-capture.ts).
// Loaded with audioWorklet.addModule from the URL Vite gives for `?worker&url`.

declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;

/** One block of captured sound, mono, at the context's sample rate. */
export interface TVoiceBlock {
  samples: Float32Array<ArrayBuffer>;
}

const BLOCK_MS = 20;

class VoiceCaptureProcessor extends AudioWorkletProcessor {
  private readonly size = Math.round((sampleRate * BLOCK_MS) / 1000);
  private block = new Float32Array(this.size);
  private filled = 0;

  process(inputs: Float32Array[][]): boolean {
    const input = inputs[0]?.[0];
    if (!input) return true;
    let from = 0;
    while (from < input.length) {
      const count = Math.min(input.length - from, this.size - this.filled);
      this.block.set(input.subarray(from, from + count), this.filled);
      this.filled += count;
      from += count;
      if (this.filled === this.size) {
        const message: TVoiceBlock = { samples: this.block };
        this.port.postMessage(message, [this.block.buffer]);
        this.block = new Float32Array(this.size);
        this.filled = 0;
      }
    }
    return true;
  }
}

registerProcessor('voice-capture', VoiceCaptureProcessor);
