// A closing server waits for its connections to end. Node ends the idle keep-alive ones at once, but it counts a
// connection that has not carried a request yet as busy (its header deadline runs) and waits for that deadline:
// ~70 s with Node's defaults. HTTP clients open such connections: undici opens a fresh one to a peer whenever a
// connection it followed a stream on closes, and keeps it unused in its pool. A control plane whose agents had
// followed its notices took 70 s to stop one time in two. On close, those connections are ended too; a request
// in flight still finishes as before.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function endUnusedConnectionsOnClose(app: FastifyInstance, options: { tls: boolean }): void {
  const unused = new Set<Socket>();
  let closing = false;
  // A TLS server's requests arrive on the TLS socket, which 'secureConnection' gives; a plain server's on the TCP one.
  // (A TCP connection that never finishes its TLS handshake is ended by the handshake's own deadline.)
  app.server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (request) => unused.delete(request.socket));
  // A WebSocket is the room relay's to end: it tells its participants the server is restarting first.
  app.server.on('upgrade', (request) => unused.delete(request.socket));
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of unused) socket.destroy();
    unused.clear();
  });
}
