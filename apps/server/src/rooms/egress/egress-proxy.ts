// The HTTP forward proxy every room browser is launched behind (--proxy-server, bypass list <-loopback> so even
// loopback goes through it). It lets the browser reach the public Internet and nothing of ours: each target is
// resolved once, checked by egress-policy, and connected to at exactly the checked address. A room's page is a
// stranger's code, so the proxy also bounds what it holds: connections, silent sockets, unfinished heads.
import { createServer, type IncomingMessage, request, type ServerResponse, STATUS_CODES } from 'node:http';
import { type AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { BlockedLog } from './blocked-log';
import {
  createEgressPolicy,
  type TEgressDecision,
  type THostAddresses,
  type TResolver,
} from './egress-policy';
import { connectFailure, FAILURE_STATUS, failurePage, type TEgressFailure } from './failure-page';
import { splitAuthority } from './parse-host';
import { ProxyClients } from './proxy-clients';
import { connectToChecked, endToEndHeaders, splice } from './upstream';

export interface TEgressProxyOptions {
  /** Loopback exceptions for tests, each exactly one `host:port`; see TEgressPolicyOptions.allow. */
  allow?: string[];
  /** Interface to listen on; loopback by default, since only this server's browsers may use the proxy. */
  host?: string;
  logger?: { warn(obj: object, msg: string): void };
  /** All A/AAAA records of a name; tests inject one to simulate rebinding. Defaults to dns.lookup(all). */
  resolve?: TResolver;
  /** This host's own addresses; tests inject them. Defaults to os.networkInterfaces(), read on every check. */
  hostAddresses?: THostAddresses;
  connectTimeoutMs?: number;
  /**
   * Client connections open at once, over TCP and every door together (512 by default). One more is
   * answered 503 and closed, so the rooms together cannot take every file descriptor of the server.
   */
  maxConnections?: number;
  /**
   * Client connections open at once through one door (openDoor), 128 by default: one room at its cap leaves
   * the proxy's other connections to the other rooms. (Chromium itself keeps 32 to a proxy, WebSockets apart.)
   */
  maxConnectionsPerDoor?: number;
  /**
   * A client connection or tunnel with no traffic either way for this long is closed (120 s by default). Idle,
   * not total: a video that keeps streaming keeps its connection.
   */
  idleTimeoutMs?: number;
  /** A client must send a complete request line and headers within this long (15 s by default), or get 408. */
  headersTimeoutMs?: number;
  /** Refusals are summed per room over this long into one warning line (a minute by default). */
  blockedLogMs?: number;
}

/**
 * A unix socket of the proxy's for one sandboxed room run, with a connection cap of its own: the only way out of the
 * run's network namespace (../sandbox). Any local user may connect (the room user is not this server's). A stale
 * socket left by a killed server is replaced; any other file there is an error.
 */
export interface TEgressDoor {
  socketPath: string;
  /** Why the address's host could not be opened through this door in the last minute, if it could not. */
  failure(address: string): TEgressFailure | undefined;
  /** Stops taking connections and removes the socket file; connections already in go on until they end. */
  close(): Promise<void>;
}

export interface TEgressProxy {
  /** For Chromium's --proxy-server, e.g. http://127.0.0.1:41234. */
  url: string;
  port: number;
  /**
   * A door of its own for one sandboxed room run (its network namespace sees only this socket). `room` names the
   * run in the log of refusals, read when the line is written (a warm run takes a room's id later).
   */
  openDoor(socketPath: string, room?: () => string): Promise<TEgressDoor>;
  /** As a door's, for the clients that came through no door (rooms without a sandbox). */
  failure(address: string): TEgressFailure | undefined;
  close(): Promise<void>;
  /** Targets refused so far. */
  readonly blocked: number;
}

type TTarget = { host: string; port: number; path: string };

export async function startEgressProxy(options: TEgressProxyOptions = {}): Promise<TEgressProxy> {
  const listenHost = options.host ?? '127.0.0.1';
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const maxConnections = options.maxConnections ?? 512;
  const maxConnectionsPerDoor = options.maxConnectionsPerDoor ?? 128;
  const idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
  const headersTimeoutMs = options.headersTimeoutMs ?? 15_000;
  const logger = options.logger ?? { warn: () => {} };
  const blockedLog = new BlockedLog({ logger, intervalMs: options.blockedLogMs });
  let port: number | undefined;
  let blocked = 0;
  const policy = createEgressPolicy({
    allow: options.allow,
    resolve: options.resolve,
    hostAddresses: options.hostAddresses,
    selfPort: () => port,
  });

  const clients = new ProxyClients({ maxConnections, maxConnectionsPerDoor, logger });
  const track = (socket: Duplex) => clients.track(socket);
  /** Remembers why a target failed, for the room whose door the client came through. */
  const remember = (client: Duplex, target: TTarget, failure: TEgressFailure) =>
    clients.remember(client, target.host, failure);
  /** Answers a plain http:// request with the page that says why its address cannot be opened. */
  const refusePage = (res: ServerResponse, url: string, failure: TEgressFailure) => {
    if (res.headersSent) return res.destroy();
    res
      .writeHead(FAILURE_STATUS[failure], {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      })
      .end(failurePage(url, failure));
  };

  /** Tunnels leave the HTTP server's timeouts behind; this closes one that carries nothing either way. */
  const closeWhenIdle = (socket: Duplex) => {
    if (socket instanceof Socket) socket.setTimeout(idleTimeoutMs, () => socket.destroy());
  };

  /**
   * Resolves and checks one target; a refusal is counted, and summed in the log by the room whose door the
   * client came through. Unresolvable names are not refusals; the callers answer those with 502.
   */
  async function admit(
    client: Duplex,
    target: TTarget,
    via: 'http' | 'connect' | 'upgrade',
    raw?: string,
  ): Promise<TEgressDecision> {
    const decision = await policy.check(target.host, target.port);
    if (!decision.allowed)
      remember(client, target, decision.reason === 'unresolvable' ? 'name-not-found' : 'blocked');
    if (!decision.allowed && decision.reason !== 'unresolvable') {
      blocked++;
      blockedLog.record(clients.roomOf(client) ?? 'unsandboxed', {
        target: target.host === '' ? String(raw).slice(0, 200) : `${target.host}:${target.port}`,
        via,
        reason: decision.reason,
      });
    }
    return decision;
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (clients.isOverCap(req.socket)) {
      res.writeHead(503, { 'content-type': 'text/plain', connection: 'close' }).end('The proxy is busy.\n');
      return;
    }
    // The client socket went silent (the HTTP server's idle timeout): the site has not answered for that long.
    res.on('timeout', () => {
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(504, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
          .end(failurePage(req.url ?? '', 'timeout'));
    });
    const target = absoluteTarget(req.url);
    if (!target) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('This is a forward proxy for http:// URLs.\n');
      return;
    }
    const decision = await admit(req.socket, target, 'http');
    if (!decision.allowed) {
      refusePage(res, req.url ?? '', decision.reason === 'unresolvable' ? 'name-not-found' : 'blocked');
      return;
    }

    let upstream: Socket;
    try {
      upstream = await connectToChecked(decision.addresses, target.port, connectTimeoutMs);
    } catch (error) {
      const failure = connectFailure(error);
      remember(req.socket, target, failure);
      refusePage(res, req.url ?? '', failure);
      return;
    }
    track(upstream);
    if (res.destroyed) {
      upstream.destroy();
      return;
    }

    const headers = endToEndHeaders(req.rawHeaders);
    headers.push('Host', hostHeader(target));
    // A body of unknown length (chunked from the client) must stay chunked towards the site.
    if (req.headers['transfer-encoding'] !== undefined) headers.push('Transfer-Encoding', 'chunked');
    const outgoing = request({
      createConnection: () => upstream,
      method: req.method,
      path: target.path,
      headers,
      setHost: false,
    });
    outgoing.on('response', (incoming) => {
      res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, endToEndHeaders(incoming.rawHeaders));
      incoming.pipe(res);
      incoming.on('error', () => res.destroy());
    });
    outgoing.on('error', () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain' }).end();
    });
    // The browser gave up (navigation, tab closed): stop talking to the site too.
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
      upstream.destroy();
    });
    req.pipe(outgoing);
  }

  /**
   * For tunnels (CONNECT and ws:// upgrades): checks the target and connects to exactly the checked address.
   * Answers the client itself and returns null when refused, unreachable or gone meanwhile.
   */
  async function openChecked(
    client: Duplex,
    target: TTarget,
    via: 'connect' | 'upgrade',
    raw?: string,
  ): Promise<Socket | null> {
    closeWhenIdle(client);
    if (clients.isOverCap(client)) {
      refuseRaw(client, 503);
      return null;
    }
    const decision = await admit(client, target, via, raw);
    if (!decision.allowed) {
      refuseRaw(client, decision.reason === 'unresolvable' ? 502 : 403);
      return null;
    }
    let upstream: Socket;
    try {
      upstream = await connectToChecked(decision.addresses, target.port, connectTimeoutMs);
    } catch (error) {
      remember(client, target, connectFailure(error));
      refuseRaw(client, 502);
      return null;
    }
    track(upstream);
    closeWhenIdle(upstream);
    if (client.destroyed) {
      upstream.destroy();
      return null;
    }
    return upstream;
  }

  async function onConnect(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    track(client);
    client.on('error', () => client.destroy());
    const authority = splitAuthority(req.url ?? '');
    const target = authority ? { ...authority, path: '' } : { host: '', port: 0, path: '' };
    const upstream = await openChecked(client, target, 'connect', req.url);
    if (!upstream) return;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  // A plain ws:// upgrade sent to the proxy in absolute form: replay the request to the site, then splice.
  async function onUpgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    track(client);
    client.on('error', () => client.destroy());
    const target = absoluteTarget(req.url);
    if (!target) {
      refuseRaw(client, 400);
      return;
    }
    const upstream = await openChecked(client, target, 'upgrade');
    if (!upstream) return;
    const headers = endToEndHeaders(req.rawHeaders);
    headers.push('Host', hostHeader(target), 'Connection', 'Upgrade', 'Upgrade', req.headers.upgrade ?? '');
    let text = `${req.method} ${target.path} HTTP/1.1\r\n`;
    for (let i = 0; i < headers.length; i += 2) text += `${headers[i]}: ${headers[i + 1]}\r\n`;
    upstream.write(`${text}\r\n`);
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  const server = createServer(
    {
      // Uploads from a room may legitimately take long: only the head has a deadline, the body the idle one.
      requestTimeout: 0,
      headersTimeout: headersTimeoutMs,
      // Node looks for missed head deadlines only this often; its default (30 s) is longer than the deadline.
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(headersTimeoutMs / 4))),
    },
    (req, res) => {
      onRequest(req, res).catch(() => res.destroy());
    },
  );
  // Node applies it to each client socket and restores it after every keep-alive wait.
  server.setTimeout(idleTimeoutMs);
  server.on('connection', (socket: Socket) => clients.connected(socket));
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    onConnect(req, socket, head).catch(() => socket.destroy());
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    onUpgrade(req, socket, head).catch(() => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, listenHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const urlHost = listenHost.includes(':') ? `[${listenHost}]` : listenHost;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    get blocked() {
      return blocked;
    },
    async openDoor(socketPath, room = () => socketPath) {
      return { socketPath, ...(await clients.openDoor(socketPath, room, server)) };
    },
    failure: (address) => clients.doorless.lookup(address),
    close: async () => {
      blockedLog.flush();
      await clients.close(server);
    },
  };
}

/** The target of an absolute-form request ("GET http://host:port/path"); null for anything else. */
function absoluteTarget(raw: string | undefined): TTarget | null {
  if (!raw || !/^http:\/\//i.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  return {
    host: url.hostname,
    port: url.port === '' ? 80 : Number(url.port),
    path: `${url.pathname}${url.search}`,
  };
}

function hostHeader(target: TTarget): string {
  return target.port === 80 ? target.host : `${target.host}:${target.port}`;
}

/**
 * Answers a CONNECT or upgrade without a tunnel, then closes: the socket never carries anything else. Chromium
 * shows no body of a refused tunnel; the room shows its own page over Chromium's (failure-page.ts).
 */
function refuseRaw(client: Duplex, status: 400 | 403 | 502 | 503): void {
  if (client.destroyed) return;
  const text = STATUS_CODES[status];
  const body = '';
  client.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/html; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => client.destroy(),
  );
}
