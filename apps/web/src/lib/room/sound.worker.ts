// The room's Opus decoder, off the page's main thread: packets come in from the page and their sound goes
// straight to the sound worklet through a port of its own, so the sound never waits for the page to finish a
// paint, a React render or a garbage collection before it reaches the jitter buffer. The page's end is
// sound-worker.ts.
import type { TMediaFrame } from '@rooms/api/room-protocol';
import type { TSoundWorkletMessage } from './sound.worklet';
import { SoundDecoder } from './sound-decoder';

export type TSoundWorkerMessage =
  | { type: 'packet'; frame: TMediaFrame }
  /** Where decoded sound goes: a port to the sound worklet. */
  | { type: 'port'; port: MessagePort }
  /** Whether the sound plays (its context runs); decoded sound is dropped while it does not. */
  | { type: 'sounding'; on: boolean }
  | { type: 'close' };

/** The decoder keeps failing without ever decoding (a broken platform decoder). */
export type TSoundWorkerReport = { type: 'broken' };

// The DedicatedWorkerGlobalScope, as far as used here (the app's TypeScript library is the DOM's).
declare const self: {
  postMessage(message: TSoundWorkerReport): void;
  onmessage: ((event: MessageEvent<TSoundWorkerMessage>) => void) | null;
  close(): void;
};

let port: MessagePort | null = null;
let sounding = false;
const decoder = new SoundDecoder(
  (timestamp, channels) => {
    if (!sounding || !port) return;
    const chunk: TSoundWorkletMessage = { type: 'chunk', timestamp, channels };
    port.postMessage(
      chunk,
      channels.map((channel) => channel.buffer),
    );
  },
  () => self.postMessage({ type: 'broken' }),
);

self.onmessage = (event) => {
  const message = event.data;
  switch (message.type) {
    case 'packet':
      decoder.decode(message.frame);
      return;
    case 'port':
      port?.close();
      port = message.port;
      return;
    case 'sounding':
      sounding = message.on;
      return;
    case 'close':
      decoder.close();
      port?.close();
      self.close();
      return;
  }
};
