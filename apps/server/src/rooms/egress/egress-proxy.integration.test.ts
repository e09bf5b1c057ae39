// The egress proxy over real sockets, driven the way Chromium drives it: absolute-form HTTP requests, CONNECT
// tunnels and ws:// upgrades. An injected resolver plays DNS so names can "rebind" to private addresses.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { lstat, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closed,
  exchange,
  openTunnel,
  startSite,
  type TSite,
  viaProxy,
} from '../../testing/rooms/proxy-test-kit';
import { startEgressProxy, type TEgressProxy } from './egress-proxy';

const BLOCK_TEXT = 'This address is blocked in rooms';

/**
 * A loopback port that never completes a connection, like a firewalled host: a child process listens with the
 * smallest backlog and is then stopped, so once its queue is full the kernel drops every further SYN.
 */
async function startSilentListener(): Promise<{ port: number; stop(): void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const s = require('node:net').createServer();
       s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => console.log(s.address().port));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const port = Number(line.toString().trim());
  child.kill('SIGSTOP');
  const fillers: Socket[] = [];
  // Fill the accept queue until a connect attempt hangs.
  for (let attempt = 0; attempt < 20; attempt++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    fillers.push(socket);
    const connected = await Promise.race([
      once(socket, 'connect').then(() => true),
      delay(200).then(() => false),
    ]);
    if (!connected) break;
  }
  return {
    port,
    stop: () => {
      for (const socket of fillers) socket.destroy();
      child.kill('SIGKILL');
    },
  };
}

/** A socket file with nothing behind it, as a server killed with SIGKILL leaves one. */
async function leaveStaleSocket(path: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('ready'))`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await once(child.stdout!, 'data');
  child.kill('SIGKILL');
  await once(child, 'exit');
  expect((await lstat(path)).isSocket()).toBe(true);
}

/** Follows redirects through the proxy, each hop a new proxied request as in a browser. */
async function followViaProxy(proxy: TEgressProxy, url: string): Promise<{ status: number; body: string }> {
  let current = url;
  for (let hop = 0; hop < 10; hop++) {
    const res = await viaProxy(proxy, current);
    if (res.status !== 302) return res;
    current = new URL(String(res.headers.location), current).href;
  }
  throw new Error('too many redirects');
}

describe('egress proxy over sockets', () => {
  let allowed: TSite;
  let canary: TSite;
  let proxy: TEgressProxy;
  let closedPort: number;
  let silent: Awaited<ReturnType<typeof startSilentListener>>;
  const warnings: { obj: object; msg: string }[] = [];
  const dns: Record<string, string[]> = {};

  beforeAll(async () => {
    allowed = await startSite();
    canary = await startSite();
    closedPort = await freePort();
    silent = await startSilentListener();
    Object.assign(dns, {
      // Each simulates an attacker-controlled DNS answer.
      'public.test': ['127.0.0.1'], // stands in for a public site; allow-listed by name below
      'example.test': ['127.0.0.1'],
      'rebind.test': ['10.0.0.5'],
      'metadata.test': ['169.254.169.254'],
      'mixed.test': ['8.8.8.8', '10.0.0.1'],
      'ula.test': ['fd12:3456::1'],
      'mapped.test': ['::ffff:192.168.0.1'],
    });
    proxy = await startEgressProxy({
      allow: [
        `127.0.0.1:${allowed.port}`,
        `public.test:${allowed.port}`,
        `127.0.0.1:${closedPort}`,
        `127.0.0.1:${silent.port}`,
      ],
      resolve: async (name) => {
        const found = dns[name];
        if (!found) throw new Error(`ENOTFOUND ${name}`);
        return found;
      },
      logger: { warn: (obj, msg) => warnings.push({ obj, msg }) },
      connectTimeoutMs: 500,
      // Refusals are summed into a line a minute; here every second, so the test reads its lines soon.
      blockedLogMs: 1000,
    });
  });

  afterAll(async () => {
    await proxy.close();
    allowed.server.close();
    allowed.server.closeAllConnections();
    canary.server.close();
    silent.stop();
  });

  const refusedTargets = (): [label: string, host: string, port: number][] => [
    ['another loopback port', '127.0.0.1', canary.port],
    ['another loopback IP on the allowed port', '127.0.0.2', allowed.port],
    ['localhost', 'localhost', canary.port],
    ['localhost on the allowed port (it is also ::1)', 'localhost', allowed.port],
    ['IPv6 loopback', '[::1]', canary.port],
    ['IPv4-mapped loopback', '[::ffff:127.0.0.1]', canary.port],
    ['IPv4-mapped loopback in hex', '[::ffff:7f00:1]', canary.port],
    ['NAT64 loopback', '[64:ff9b::7f00:1]', canary.port],
    ['IPv6 unspecified', '[::]', canary.port],
    ['decimal loopback', '2130706433', canary.port],
    ['hex loopback', '0x7f.1', canary.port],
    ['octal loopback', '0177.0.0.1', canary.port],
    ['short loopback', '127.1', canary.port],
    ['0.0.0.0 (is localhost on Linux)', '0.0.0.0', canary.port],
    ['cloud metadata', '169.254.169.254', 80],
    ['cloud metadata in hex', '0xa9fea9fe', 80],
    ['RFC 1918 10/8', '10.0.0.1', 80],
    ['RFC 1918 172.16/12', '172.16.0.1', 80],
    ['RFC 1918 192.168/16', '192.168.1.1', 80],
    ['CGNAT', '100.64.0.1', 80],
    ['IPv6 ULA', '[fd00::1]', 80],
    ['IPv6 link-local', '[fe80::1]', 80],
    ['name rebinding to loopback', 'example.test', canary.port],
    ['name resolving to a private IP', 'rebind.test', 80],
    ['name resolving to the metadata IP', 'metadata.test', 80],
    ['name with one public and one private record', 'mixed.test', 80],
    ['name resolving to a ULA', 'ula.test', 80],
    ['name resolving to a mapped private IP', 'mapped.test', 80],
    ["the proxy's own port", '127.0.0.1', proxy.port],
    ["the proxy's own port by name", 'localhost', proxy.port],
  ];

  it('refuses every blocked target as plain HTTP with the block page, and counts and logs it', async () => {
    const targets = refusedTargets();
    expect(targets.length).toBeGreaterThanOrEqual(20);
    const before = proxy.blocked;
    const logged = warnings.length;
    for (const [label, host, port] of targets) {
      const res = await viaProxy(proxy, `http://${host}:${port}/secret`);
      expect({ label, status: res.status }).toEqual({ label, status: 403 });
      expect(res.body).toContain(BLOCK_TEXT);
    }
    expect(proxy.blocked - before).toBe(targets.length);
    // Logged as sums, never a line per refusal: every refusal counted, a few targets named a line. Read once the
    // last second's line is out.
    const blockedLines = () =>
      warnings
        .slice(logged)
        .filter(({ msg }) => msg === 'room browser egress blocked')
        .map(({ obj }) => obj as { blocked: number; targets: { target: string }[] });
    await expect
      .poll(() => blockedLines().reduce((sum, line) => sum + line.blocked, 0), { timeout: 5000 })
      .toBeGreaterThanOrEqual(targets.length);
    const lines = blockedLines();
    expect(lines.length).toBeLessThan(targets.length);
    expect(lines.some((line) => line.targets.some(({ target }) => target.includes('127.0.0.1')))).toBe(true);
    expect(canary.hits).toEqual([]);
  });

  it('refuses every blocked target as CONNECT with 403 and closes the socket', async () => {
    const targets = refusedTargets();
    const before = proxy.blocked;
    for (const [label, host, port] of targets) {
      const { status, socket } = await openTunnel(proxy, `${host}:${port}`);
      expect({ label, status }).toEqual({ label, status: 403 });
      await closed(socket);
    }
    expect(proxy.blocked - before).toBe(targets.length);
    expect(canary.hits).toEqual([]);
  });

  it('refuses a blocked ws:// upgrade', async () => {
    const socket = connect(proxy.port, '127.0.0.1');
    const answer = await exchange(
      socket,
      `GET http://127.0.0.1:${canary.port}/ws HTTP/1.1\r\nHost: 127.0.0.1:${canary.port}\r\n` +
        'Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1.1 403/);
    expect(canary.hits).toEqual([]);
  });

  it('ends blocked when an allowed site redirects to a blocked address', async () => {
    const blockedHop = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
    const secondHop = encodeURIComponent(`http://public.test:${allowed.port}/redirect?to=${blockedHop}`);
    const res = await followViaProxy(proxy, `http://public.test:${allowed.port}/redirect?to=${secondHop}`);
    expect(res.status).toBe(403);
    expect(res.body).toContain(BLOCK_TEXT);

    const toCanary = await followViaProxy(
      proxy,
      `http://127.0.0.1:${allowed.port}/redirect?to=${encodeURIComponent(`http://localhost:${canary.port}/`)}`,
    );
    expect(toCanary.status).toBe(403);
    expect(canary.hits).toEqual([]);
  });

  it('ends blocked when a redirect read through a tunnel points at a blocked address', async () => {
    const tunnel = await openTunnel(proxy, `public.test:${allowed.port}`);
    expect(tunnel.status).toBe(200);
    const target = encodeURIComponent(`http://10.0.0.1:${canary.port}/`);
    const answer = await exchange(
      tunnel.socket,
      `GET /redirect?to=${target} HTTP/1.1\r\nHost: public.test\r\nConnection: close\r\n\r\n`,
    );
    const location = new URL(/location: (.*)\r\n/i.exec(answer)![1]!);
    const next = await openTunnel(proxy, location.host);
    expect(next.status).toBe(403);
  });

  it('forwards to the allow-listed loopback site, cleaning hop-by-hop and Proxy-* headers', async () => {
    const res = await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/hello?x=1`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain',
        'proxy-authorization': 'Basic c2VjcmV0',
        'proxy-connection': 'keep-alive',
        connection: 'x-private',
        'x-private': 'hop only',
        'x-keep': 'end to end',
      },
      body: 'payload',
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe('site says POST /hello payload');
    expect(res.headers['x-hop']).toBeUndefined();
    const hit = allowed.hits.at(-1)!;
    expect(hit.url).toBe('/hello?x=1');
    expect(hit.headers.host).toBe(`127.0.0.1:${allowed.port}`);
    expect(hit.headers['x-keep']).toBe('end to end');
    expect(hit.headers['proxy-authorization']).toBeUndefined();
    expect(hit.headers['proxy-connection']).toBeUndefined();
    expect(hit.headers['x-private']).toBeUndefined();
  });

  it('reaches the site through a name on the allow-list', async () => {
    const res = await viaProxy(proxy, `http://public.test:${allowed.port}/named`);
    expect(res.status).toBe(200);
    expect(allowed.hits.at(-1)!.headers.host).toBe(`public.test:${allowed.port}`);
  });

  it('tunnels CONNECT to the allow-listed site', async () => {
    const { status, socket } = await openTunnel(proxy, `127.0.0.1:${allowed.port}`);
    expect(status).toBe(200);
    const answer = await exchange(
      socket,
      `GET /tunnelled HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(answer).toContain('site says GET /tunnelled');
  });

  it('passes a ws:// upgrade to the allow-listed site and relays both ways', async () => {
    const socket = connect(proxy.port, '127.0.0.1');
    let received = '';
    const echoed = new Promise<void>((resolve) => {
      socket.on('data', (data) => {
        received += data.toString();
        if (received.includes('\r\n\r\n') && !received.includes('ping')) socket.write('ping');
        if (received.includes('ping')) resolve();
      });
    });
    socket.write(
      `GET http://127.0.0.1:${allowed.port}/ws HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\n` +
        'Connection: Upgrade\r\nUpgrade: websocket\r\nProxy-Authorization: Basic eA==\r\n\r\n',
    );
    await echoed;
    expect(received).toMatch(/^HTTP\/1.1 101/);
    const hit = allowed.hits.at(-1)!;
    expect(hit.url).toBe('/ws');
    expect(hit.headers.upgrade).toBe('websocket');
    expect(hit.headers['proxy-authorization']).toBeUndefined();
    socket.destroy();
  });

  it('answers a target that refuses, never answers or has no name with a page saying so, and keeps serving', async () => {
    const refused = await viaProxy(proxy, `http://127.0.0.1:${closedPort}/`);
    expect(refused.status).toBe(502);
    expect(refused.body).toContain('This site refused to connect');
    expect((await openTunnel(proxy, `127.0.0.1:${closedPort}`)).status).toBe(502);
    const silentAnswer = await viaProxy(proxy, `http://127.0.0.1:${silent.port}/`);
    expect(silentAnswer.status).toBe(504);
    expect(silentAnswer.body).toContain('This site didn’t answer');
    expect((await openTunnel(proxy, `127.0.0.1:${silent.port}`)).status).toBe(502);
    const nameless = await viaProxy(proxy, 'http://nowhere.test/');
    expect(nameless.status).toBe(502);
    expect(nameless.body).toContain('This site can’t be found');
    expect((await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/still-up`)).status).toBe(200);
  });

  it('survives a site that dies mid-response', async () => {
    await expect(viaProxy(proxy, `http://127.0.0.1:${allowed.port}/die`)).rejects.toThrow();
    expect((await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/after-die`)).status).toBe(200);
  });

  it('refuses requests that are not absolute http:// URLs', async () => {
    expect((await viaProxy(proxy, '/origin-form')).status).toBe(400);
    expect((await viaProxy(proxy, `https://127.0.0.1:${allowed.port}/`)).status).toBe(400);
  });

  it('destroys open tunnels on close()', async () => {
    const own = await startEgressProxy({ allow: [`127.0.0.1:${allowed.port}`] });
    const { status, socket } = await openTunnel(own, `127.0.0.1:${allowed.port}`);
    expect(status).toBe(200);
    await own.close();
    await closed(socket);
    expect(socket.destroyed).toBe(true);
  });

  describe('on a unix socket', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'egress-unix-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('proxies requests and CONNECT under the same policy, and removes the socket on close()', async () => {
      const socketPath = join(dir, 'proxy.sock');
      await leaveStaleSocket(socketPath);
      const own = await startEgressProxy({ allow: [`127.0.0.1:${allowed.port}`] });
      const opened = await own.openDoor(socketPath);
      expect(opened.socketPath).toBe(socketPath);
      // The room user is another user: it must be able to connect.
      expect((await stat(socketPath)).mode & 0o777).toBe(0o666);
      const door = { path: socketPath };

      const res = await viaProxy(door, `http://127.0.0.1:${allowed.port}/over-unix`);
      expect(res.status).toBe(200);
      expect(res.body).toBe('site says GET /over-unix ');
      const tunnel = await openTunnel(door, `127.0.0.1:${allowed.port}`);
      expect(tunnel.status).toBe(200);
      const answer = await exchange(
        tunnel.socket,
        `GET /unix-tunnel HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1.1 200/);
      expect(answer).toContain('site says GET /unix-tunnel');

      expect((await viaProxy(door, `http://127.0.0.1:${canary.port}/`)).status).toBe(403);
      const refused = await openTunnel(door, `127.0.0.1:${canary.port}`);
      expect(refused.status).toBe(403);
      await closed(refused.socket);
      expect(canary.hits).toEqual([]);

      await own.close();
      expect(existsSync(socketPath)).toBe(false);
    });

    it('will not replace a file that is not a socket', async () => {
      const notes = join(dir, 'notes.txt');
      await writeFile(notes, 'keep me');
      const own = await startEgressProxy();
      try {
        await expect(own.openDoor(notes)).rejects.toThrow(/not a socket/);
      } finally {
        await own.close();
      }
      expect(await readFile(notes, 'utf8')).toBe('keep me');
    });
  });
});
