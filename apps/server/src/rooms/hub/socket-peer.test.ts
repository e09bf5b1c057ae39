// A member's socket over real loopback TCP: what one event loop turn sends leaves in one write, in order.
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { SocketPeer } from './socket-peer';

const servers: WebSocketServer[] = [];
const clients: WebSocket[] = [];

afterEach(() => {
  for (const client of clients.splice(0)) client.terminate();
  for (const server of servers.splice(0)) server.close();
});

async function connectedPeer(): Promise<{ peer: SocketPeer; connection: Socket; received: unknown[] }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(server);
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as { port: number }).port}`);
  clients.push(client);
  const received: unknown[] = [];
  client.on('message', (data, isBinary) => {
    received.push(isBinary ? [...(data as Buffer)] : JSON.parse(String(data)));
  });
  const [socket, request] = (await accepted) as [WebSocket, { socket: Socket }];
  return { peer: new SocketPeer(socket, request.socket), connection: request.socket, received };
}

describe('SocketPeer', () => {
  it('holds the writes of one turn and lets them leave together when the turn ends', async () => {
    const { peer, connection, received } = await connectedPeer();
    const written: number[] = [];
    peer.sendFrame(new Uint8Array([1]), () => written.push(1));
    peer.send({ type: 'member/kicked' });
    peer.sendFrame(new Uint8Array([2]), () => written.push(2));

    // Still in the turn: nothing has gone to the kernel.
    expect(connection.writableCorked).toBe(1);
    expect(connection.writableLength).toBeGreaterThan(0);
    expect(written).toEqual([]);

    await nextTurn();
    expect(connection.writableCorked).toBe(0);
    await expect.poll(() => received.length).toBe(3);
    expect(received).toEqual([[1], { type: 'member/kicked' }, [2]]);
    expect(written).toEqual([1, 2]);
  });

  it('sends a broadcast as the JSON it was given', async () => {
    const { peer, received } = await connectedPeer();
    peer.send({ type: 'member/kicked' }, '{"type":"member/kicked","once":true}');
    await expect.poll(() => received.length).toBe(1);
    expect(received).toEqual([{ type: 'member/kicked', once: true }]);
  });
});
