// The page's end of the sound worker (sound.worker.ts): Opus packets go to it as they come off the socket (their
// bytes transferred), and it hands the decoded sound to the sound worklet itself. Where a worker cannot run (or
// fails to load) RoomSound decodes on the page instead.
import type { TMediaFrame } from '@rooms/api/room-protocol';
import type { TSoundWorkerMessage, TSoundWorkerReport } from './sound.worker';

export class SoundWorker {
  /** Set when the worker failed to load or crashed: the sound is decoded on the page from then on. */
  failed = false;
  private closed = false;

  private constructor(
    private readonly worker: Worker,
    onBroken: () => void,
  ) {
    worker.onmessage = (event: MessageEvent<TSoundWorkerReport>) => {
      if (event.data.type === 'broken') onBroken();
    };
    worker.onerror = () => {
      this.failed = true;
    };
  }

  /** A worker for the sound's decoder, or null where this browser cannot run one. */
  static create(onBroken: () => void): SoundWorker | null {
    if (typeof Worker === 'undefined' || typeof MessageChannel === 'undefined') return null;
    try {
      const worker = new Worker(new URL('./sound.worker.ts', import.meta.url), { type: 'module' });
      return new SoundWorker(worker, onBroken);
    } catch {
      return null;
    }
  }

  /** An Opus packet to decode; its bytes move to the worker and are gone here afterwards. */
  packet(frame: TMediaFrame): void {
    if (this.closed || this.failed) return;
    this.post({ type: 'packet', frame }, [frame.data.buffer]);
  }

  /** Decoded sound goes to `port` (the sound worklet's) while sounding. */
  connect(port: MessagePort): void {
    this.post({ type: 'port', port }, [port]);
  }

  sounding(on: boolean): void {
    this.post({ type: 'sounding', on });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.post({ type: 'close' });
  }

  private post(message: TSoundWorkerMessage, transfer: Transferable[] = []): void {
    this.worker.postMessage(message, transfer);
  }
}
