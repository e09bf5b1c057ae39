// A hub member's end of a real WebSocket (the `ws` package under @fastify/websocket).
import type { Socket } from 'node:net';
import type { TServerMessage } from '@rooms/api/room-protocol';
import { ROOM_CLOSE_CODES, ROOM_ERROR_MESSAGES } from '@rooms/api/room-protocol';
import type { WebSocket } from 'ws';
import { errorMessage } from './error-message';
import type { HubPeer } from './hub-context';
import { holdWritesForTurn } from './turn-writes';

/**
 * Media already stops at a few frames of backlog (MediaFanout); JSON messages are small but not skipped, so a
 * client that stops reading altogether is disconnected here instead of growing the server's memory.
 */
export const HARD_BUFFER_LIMIT_BYTES = 16 * 1024 * 1024;

export class SocketPeer implements HubPeer {
  /** `connection` is the TCP socket under `socket`, whose writes are gathered per event loop turn. */
  constructor(
    private readonly socket: WebSocket,
    private readonly connection: Socket,
  ) {}

  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  send(message: TServerMessage, serialized?: string): void {
    if (!this.open) return;
    if (this.socket.bufferedAmount > HARD_BUFFER_LIMIT_BYTES) {
      this.socket.send(JSON.stringify(errorMessage('TOO_SLOW')));
      this.close(ROOM_CLOSE_CODES.TOO_SLOW, ROOM_ERROR_MESSAGES.TOO_SLOW);
      return;
    }
    holdWritesForTurn(this.connection);
    this.socket.send(serialized ?? JSON.stringify(message));
  }

  sendFrame(frame: Uint8Array, written: () => void): void {
    if (!this.open) {
      written();
      return;
    }
    holdWritesForTurn(this.connection);
    this.socket.send(frame, { binary: true }, () => written());
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState >= this.socket.CLOSING) return;
    // A close reason is limited to 123 bytes by the protocol.
    this.socket.close(code, Buffer.from(reason).subarray(0, 123).toString());
  }
}
