// Drives the egress proxy over real sockets the way Chromium does (absolute-form requests, CONNECT tunnels, raw
// bytes on either door) and stands up the loopback site it proxies to, for its integration and security tests.
import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

export interface TSite {
  server: Server;
  port: number;
  /** Requests that reached this server; a blocked target's canary must stay at zero. */
  hits: { url: string; headers: Record<string, string | string[] | undefined>; body: string }[];
}

export async function startSite(): Promise<TSite> {
  const hits: TSite['hits'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      hits.push({ url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://site');
      if (url.pathname === '/redirect') {
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      } else if (url.pathname === '/stream') {
        // Like a video: small pieces for a while, never a long pause.
        res.writeHead(200, { 'content-type': 'text/plain' });
        let sent = 0;
        const timer = setInterval(() => {
          res.write(`piece ${++sent}\n`);
          if (sent === 12) {
            clearInterval(timer);
            res.end();
          }
        }, 100);
        res.on('close', () => clearInterval(timer));
      } else if (url.pathname === '/hang') {
        // Never answers.
      } else if (url.pathname === '/die') {
        res.writeHead(200, { 'content-length': '1000' });
        res.write('partial');
        setTimeout(() => req.socket.destroy(), 20);
      } else {
        // A hop-by-hop header named by Connection, which the proxy must not pass on to the browser.
        if (url.pathname === '/hello')
          res.setHeader('connection', 'keep-alive, x-hop').setHeader('x-hop', 'drop');
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`site says ${req.method} ${url.pathname} ${body}`);
      }
    });
  });
  // A WebSocket-like echo: answer 101, then send back whatever arrives.
  server.on('upgrade', (req, socket) => {
    hits.push({ url: req.url ?? '', headers: req.headers, body: '' });
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    socket.on('data', (data) => socket.write(data));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

/** A door of the proxy: its TCP port, or its unix socket. */
export type TDoor = { port: number } | { path: string };

export function dial(door: TDoor): Socket {
  return 'path' in door ? connect(door.path) : connect(door.port, '127.0.0.1');
}

/** Fails instead of hanging when something that should happen does not. */
export function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    delay(ms).then(() => {
      throw new Error(`${what} did not happen within ${ms} ms`);
    }),
  ]);
}

/** One request through the proxy in absolute form, as a browser sends it. */
export function viaProxy(
  door: TDoor,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...('path' in door ? { socketPath: door.path } : { host: '127.0.0.1', port: door.port }),
        path: url,
        method: init.method ?? 'GET',
        headers: init.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Sends CONNECT and resolves with the status line's code once the response head has arrived. */
export function openTunnel(door: TDoor, authority: string): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = dial(door);
    let head = '';
    const onData = (data: Buffer) => {
      head += data.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      resolve({ status: Number(head.split(' ')[1]), socket });
    };
    socket.on('data', onData);
    socket.on('error', reject);
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  });
}

/** Writes raw bytes and collects everything until the peer closes. */
export function exchange(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    socket.on('data', (data) => {
      received += data.toString('utf8');
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.write(text);
  });
}

export function closed(socket: Socket): Promise<void> {
  return socket.destroyed
    ? Promise.resolve()
    : new Promise((resolve) => socket.once('close', () => resolve()));
}
