// The egress proxy's clients: the connections it holds (closed with it), the caps on them (over all, and per room
// run's door), and each door's unix socket with what it remembers of failed addresses for its room.
import { chmod, lstat, rm } from 'node:fs/promises';
import { createServer as createSocketServer, type Server, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { FailureMemory, type TEgressFailure } from './failure-page';

// How long a client refused for the connection cap may take to send the request its 503 answers; the HTTP
// server's timeout handler closes it after that.
const BUSY_GRACE_MS = 1_000;

interface TDoorState {
  clients: number;
  room: () => string;
  failures: FailureMemory;
}

export interface TProxyClientsOptions {
  maxConnections: number;
  maxConnectionsPerDoor: number;
  logger: { warn(obj: object, msg: string): void };
}

export class ProxyClients {
  // Upgraded and CONNECT sockets leave the HTTP server's bookkeeping, so close() needs its own list.
  private readonly sockets = new Set<Duplex>();
  // Counted as the connection opens, through any door; CONNECT and upgrades keep the same socket. A room run's
  // own door (openDoor) counts its connections apart as well.
  private clients = 0;
  private atCapLogged = false;
  private readonly overCap = new WeakSet<Duplex>();
  private readonly doorOf = new WeakMap<Socket, TDoorState>();
  /** Failures of the clients that came through no door. */
  readonly doorless = new FailureMemory();
  private readonly doors = new Set<Server>();
  private closed = false;

  constructor(private readonly options: TProxyClientsOptions) {}

  /** Keeps the socket to close with the proxy (at once, once it is closing). */
  track(socket: Duplex): void {
    if (this.closed) socket.destroy();
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** A client connection opens, through a door or the TCP port: counted, or marked over its cap. */
  connected(socket: Socket): void {
    this.track(socket);
    const door = this.doorOf.get(socket);
    const doorFull = door !== undefined && door.clients >= this.options.maxConnectionsPerDoor;
    if (this.clients >= this.options.maxConnections || doorFull) {
      // Refused through the HTTP server rather than reset at once: the client gets a readable 503 for the
      // request it sends, instead of a reset that could look like a broken proxy.
      this.overCap.add(socket);
      socket.setTimeout(BUSY_GRACE_MS);
      if (!this.atCapLogged && !doorFull) {
        this.options.logger.warn(
          { maxConnections: this.options.maxConnections },
          'egress proxy at its connection cap',
        );
      }
      this.atCapLogged ||= !doorFull;
      return;
    }
    this.atCapLogged = false;
    this.clients++;
    if (door) door.clients++;
    socket.once('close', () => {
      this.clients--;
      if (door) door.clients--;
    });
  }

  /** Whether the client came over a cap: it is answered 503 and closed. */
  isOverCap(client: Duplex): boolean {
    return this.overCap.has(client);
  }

  /** The room whose door the client came through, for the log of refusals; undefined without a door. */
  roomOf(client: Duplex): string | undefined {
    return client instanceof Socket ? this.doorOf.get(client)?.room() : undefined;
  }

  /** Remembers why a host failed, for the room whose door the client came through. */
  remember(client: Duplex, host: string, failure: TEgressFailure): void {
    const door = client instanceof Socket ? this.doorOf.get(client) : undefined;
    if (host !== '') (door?.failures ?? this.doorless).record(host, failure);
  }

  /**
   * A door of its own for one room run: a unix socket whose connections are handed to the proxy's HTTP server
   * (one proxy, every door under the overall cap too).
   */
  async openDoor(
    socketPath: string,
    room: () => string,
    server: Server,
  ): Promise<{ failure(address: string): TEgressFailure | undefined; close(): Promise<void> }> {
    const door: TDoorState = { clients: 0, room, failures: new FailureMemory() };
    const listener = await listenOnSocket(socketPath, (socket) => {
      this.doorOf.set(socket, door);
      server.emit('connection', socket);
    });
    this.doors.add(listener);
    return {
      failure: (address) => door.failures.lookup(address),
      close: () =>
        new Promise<void>((resolve) => {
          this.doors.delete(listener);
          // Closing the unix server also unlinks its socket file.
          listener.close(() => resolve());
        }),
    };
  }

  /**
   * Closes the HTTP server and every door (closing the unix servers also unlinks their socket files), and every
   * connection still open.
   */
  async close(server: Server & { closeAllConnections(): void }): Promise<void> {
    this.closed = true;
    const listeners: Server[] = [server, ...this.doors];
    const done = Promise.all(
      listeners.map((listener) => new Promise<void>((resolve) => listener.close(() => resolve()))),
    );
    server.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    await done;
  }
}

async function listenOnSocket(path: string, onConnection: (socket: Socket) => void): Promise<Server> {
  const existing = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing && !existing.isSocket()) {
    throw new Error(`Egress proxy socket path ${path} is taken by something that is not a socket`);
  }
  // A socket file here is one left by a server that was killed hard: closing unlinks it otherwise.
  if (existing) await rm(path);
  const listener = createSocketServer(onConnection);
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(path, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  // The room user is not this server's user, and its namespace sees only this socket.
  await chmod(path, 0o666).catch((error: unknown) => {
    listener.close();
    throw error;
  });
  return listener;
}
