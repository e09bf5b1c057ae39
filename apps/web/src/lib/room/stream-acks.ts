// Acknowledges the media one socket receives (stream/ack): the bytes of every binary message since the socket
// opened, and when the last of them arrived. The server learns from these how fast this link carries the picture
// and how much waits on the way (rooms/hub/link-estimate.ts), and picks the layer by it. At most one ack per
// ACK_EVERY_MS while media flows; the tail of a burst is acknowledged by one timer, so the last bytes are never
// left unacknowledged (the server would take them for a queue). Per message this is an addition and a compare.

export const ACK_EVERY_MS = 100;
/**
 * A message this large (a keyframe) is acknowledged at once: the server holds the frames after it until it hears
 * the keyframe arrived, and on a fast link waiting for the next regular ack would only delay them.
 */
export const ACK_AT_ONCE_BYTES = 16 * 1024;

export interface TAckTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const browserTimers: TAckTimers = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export class StreamAcks {
  private bytes = 0;
  private ackedBytes = 0;
  /** When the last counted message arrived: the ack's `t`, since that is when its bytes were all here. */
  private lastAt = 0;
  private ackedAt = Number.NEGATIVE_INFINITY;
  private timer: unknown;
  private stopped = false;

  /**
   * `send` gets the cumulative bytes, the client time they had arrived by, and how long the ack was held after
   * that (the server takes it off the delay it measures).
   */
  constructor(
    private readonly send: (bytes: number, t: number, held: number) => void,
    private readonly timers: TAckTimers = browserTimers,
  ) {}

  /** A binary message of `byteLength` bytes arrived. */
  received(byteLength: number): void {
    if (this.stopped) return;
    const now = this.timers.now();
    this.bytes += byteLength;
    this.lastAt = now;
    const wait = this.ackedAt + ACK_EVERY_MS - now;
    if (wait <= 0 || byteLength >= ACK_AT_ONCE_BYTES) this.flush();
    else if (this.timer === undefined) this.timer = this.timers.setTimeout(this.onTimer, wait);
  }

  /** The socket is gone: nothing more is sent for it. */
  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  private readonly onTimer = (): void => {
    this.timer = undefined;
    if (!this.stopped) this.flush();
  };

  private flush(): void {
    this.clearTimer();
    if (this.bytes === this.ackedBytes) return;
    this.ackedBytes = this.bytes;
    this.ackedAt = this.timers.now();
    this.send(this.bytes, this.lastAt, Math.max(0, this.ackedAt - this.lastAt));
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
