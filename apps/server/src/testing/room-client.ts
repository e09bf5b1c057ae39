// A participant as a script or test sees the room WebSocket: JSON messages and media frames, with waits.
// Test support for the relay's integration tests (Node's `ws` client, so headers such as Origin can be set).
import {
  decodeMediaFrame,
  decodeVoiceFrame,
  isPaddingFrame,
  isVoiceFrame,
  type TClientMessageInput,
  type TMediaFrame,
  type TServerMessage,
  type TServerMessageOf,
  type TVoiceFrame,
  ZServerMessage,
} from '@rooms/api/room-protocol';
import WebSocket from 'ws';

export class RoomClient {
  readonly messages: TServerMessage[] = [];
  readonly frames: TMediaFrame[] = [];
  /** Other members' voice frames (not counted in receivedBytes: the room's media alone is acknowledged). */
  readonly voice: TVoiceFrame[] = [];
  closed: { code: number; reason: string } | undefined;
  /** Bytes of binary messages received, padding included: what stream/ack reports. */
  receivedBytes = 0;
  private waiters: (() => void)[] = [];
  private ackTimer: NodeJS.Timeout | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
      if (isBinary && isVoiceFrame(bytes)) {
        const voice = decodeVoiceFrame(bytes);
        if (voice) this.voice.push(voice);
      } else if (isBinary) {
        this.receivedBytes += bytes.byteLength;
        if (!isPaddingFrame(bytes)) this.frames.push(decodeMediaFrame(bytes));
      } else this.messages.push(ZServerMessage.parse(JSON.parse(bytes.toString('utf8'))));
      this.wake();
    });
    socket.on('close', (code, reason) => {
      clearInterval(this.ackTimer);
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  /** Resolves once open; rejects with the HTTP status of a refused upgrade. */
  static connect(url: string, headers: Record<string, string> = {}): Promise<RoomClient> {
    const socket = new WebSocket(url, { headers });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new RoomClient(socket)));
      socket.once('unexpected-response', (_request, response) => {
        reject(
          Object.assign(new Error(`upgrade refused: ${response.statusCode}`), {
            status: response.statusCode,
          }),
        );
        socket.terminate();
      });
      socket.once('error', reject);
    });
  }

  /** Acknowledges what arrived every `intervalMs`, as the web client does (join with `acks: true`). */
  acknowledge(intervalMs = 100): void {
    let acked = 0;
    this.ackTimer = setInterval(() => {
      if (this.receivedBytes === acked || this.socket.readyState !== WebSocket.OPEN) return;
      acked = this.receivedBytes;
      this.send({ type: 'stream/ack', bytes: acked, t: performance.now() });
    }, intervalMs);
    this.ackTimer.unref();
  }

  send(message: TClientMessageInput | string): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** A click of the left button at (x, y) of the picture (0..1), pressed and released as a person's is sent. */
  click(x: number, y: number): void {
    for (const action of ['down', 'up'] as const) {
      this.send({
        type: 'input/pointer',
        action,
        x,
        y,
        button: 'left',
        buttons: action === 'down' ? 1 : 0,
        clickCount: 1,
      });
    }
  }

  /** A binary message, e.g. a voice frame. */
  sendBytes(bytes: Uint8Array): void {
    this.socket.send(bytes, { binary: true });
  }

  of<K extends TServerMessage['type']>(type: K): TServerMessageOf<K>[] {
    return this.messages.filter((message): message is TServerMessageOf<K> => message.type === type);
  }

  /** The first message of this type that matches, waiting for it. */
  async next<K extends TServerMessage['type']>(
    type: K,
    match: (message: TServerMessageOf<K>) => boolean = () => true,
    timeoutMs?: number,
  ): Promise<TServerMessageOf<K>> {
    let found: TServerMessageOf<K> | undefined;
    await this.until(
      () => {
        found = this.of(type).find(match);
        return found !== undefined;
      },
      `a ${type} message`,
      timeoutMs,
    );
    return found!;
  }

  async until(condition: () => boolean, what = 'a condition', timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (this.closed && !condition()) {
        throw new Error(
          `socket closed (${this.closed.code} ${this.closed.reason}) while waiting for ${what}`,
        );
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async closedWith(): Promise<{ code: number; reason: string }> {
    await this.until(() => this.closed !== undefined, 'the socket to close');
    return this.closed!;
  }

  close(): void {
    clearInterval(this.ackTimer);
    this.socket.close();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
