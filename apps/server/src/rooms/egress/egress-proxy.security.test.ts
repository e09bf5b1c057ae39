// Security review, finding 7 (the proxy's part): a room's page is a stranger's code, so the egress proxy bounds
// what one room can hold open. Before the fix it had no connection cap (a room could take every file descriptor)
// and no timeouts: a silent tunnel or a site that never answered kept its sockets for ever, and a client that
// trickled its request head was never dropped. The host's own addresses: egress-policy.security.test.ts.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closed,
  dial,
  exchange,
  openTunnel,
  startSite,
  type TSite,
  viaProxy,
  within,
} from '../../testing/rooms/proxy-test-kit';
import { startEgressProxy } from './egress-proxy';

let allowed: TSite;
/** Holds the proxies' door sockets. */
let dir: string;

beforeAll(async () => {
  [allowed, dir] = await Promise.all([startSite(), mkdtemp(join(tmpdir(), 'egress-limits-'))]);
});

afterAll(async () => {
  allowed.server.close();
  allowed.server.closeAllConnections();
  await rm(dir, { recursive: true, force: true });
});

describe('limits on what a room can hold open', () => {
  it('answers 503 beyond maxConnections, counting every door, and admits again once one closes', async () => {
    const own = await startEgressProxy({ allow: [`127.0.0.1:${allowed.port}`], maxConnections: 2 });
    const unixDoor = { path: (await own.openDoor(join(dir, 'cap.sock'))).socketPath };
    const site = `127.0.0.1:${allowed.port}`;
    try {
      const first = await openTunnel(own, site);
      const second = await openTunnel(unixDoor, site);
      expect([first.status, second.status]).toEqual([200, 200]);

      const hitsBefore = allowed.hits.length;
      const plain = await exchange(
        dial(own),
        `GET http://${site}/over-cap HTTP/1.1\r\nHost: ${site}\r\n\r\n`,
      );
      expect(plain).toMatch(/^HTTP\/1.1 503/);
      const refusedTunnel = await openTunnel(unixDoor, site);
      expect(refusedTunnel.status).toBe(503);
      await closed(refusedTunnel.socket);
      expect(allowed.hits.length).toBe(hitsBefore);

      // The connections already admitted keep working; this one ends when the site closes it.
      const answer = await exchange(
        first.socket,
        `GET /admitted HTTP/1.1\r\nHost: ${site}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toContain('site says GET /admitted');
      // The proxy learns of the close a moment after the client does.
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
        if (attempt > 0) await delay(20);
        status = (await viaProxy(own, `http://${site}/after-cap`)).status;
      }
      expect(status).toBe(200);
      second.socket.destroy();
    } finally {
      await own.close();
    }
  });

  it('gives each room run a door with a cap of its own: one room at its cap leaves the others served', async () => {
    const own = await startEgressProxy({ allow: [`127.0.0.1:${allowed.port}`], maxConnectionsPerDoor: 2 });
    const site = `127.0.0.1:${allowed.port}`;
    const [greedy, other] = await Promise.all([
      own.openDoor(join(dir, 'greedy.sock')),
      own.openDoor(join(dir, 'other.sock')),
    ]);
    try {
      expect((await stat(greedy.socketPath)).mode & 0o777).toBe(0o666);
      const held = [
        await openTunnel({ path: greedy.socketPath }, site),
        await openTunnel({ path: greedy.socketPath }, site),
      ];
      expect(held.map((tunnel) => tunnel.status)).toEqual([200, 200]);
      const refused = await openTunnel({ path: greedy.socketPath }, site);
      expect(refused.status).toBe(503);
      await closed(refused.socket);
      // The other room's door, and the proxy's own, still let through.
      const served = await openTunnel({ path: other.socketPath }, site);
      expect(served.status).toBe(200);
      expect((await viaProxy(own, `http://${site}/still-served`)).status).toBe(200);
      for (const tunnel of [...held, served]) tunnel.socket.destroy();
      // A closed door takes no more connections and leaves no socket file behind.
      await greedy.close();
      expect(existsSync(greedy.socketPath)).toBe(false);
    } finally {
      await other.close();
      await own.close();
    }
  });

  it('closes a silent tunnel after the idle timeout and keeps one that carries traffic', async () => {
    const own = await startEgressProxy({
      allow: [`127.0.0.1:${allowed.port}`],
      idleTimeoutMs: 500,
      headersTimeoutMs: 200,
    });
    try {
      const silent = await openTunnel(own, `127.0.0.1:${allowed.port}`);
      const live = await openTunnel(own, `127.0.0.1:${allowed.port}`);
      expect([silent.status, live.status]).toEqual([200, 200]);
      // A WebSocket inside the tunnel, talking more often than the timeout for several timeouts' time.
      live.socket.write(
        `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
      );
      const [switching] = (await once(live.socket, 'data')) as [Buffer];
      expect(switching.toString()).toMatch(/^HTTP\/1.1 101/);
      for (let ping = 0; ping < 12; ping++) {
        live.socket.write(`ping ${ping}`);
        const [echo] = (await once(live.socket, 'data')) as [Buffer];
        expect(echo.toString()).toBe(`ping ${ping}`);
        await delay(100);
      }
      await within(10_000, closed(silent.socket), 'closing the silent tunnel');
      expect(live.socket.destroyed).toBe(false);
      live.socket.destroy();
    } finally {
      await own.close();
    }
  });

  it('lets a steady download outlast the idle timeout, and answers 504 when the site stays silent', async () => {
    const own = await startEgressProxy({ allow: [`127.0.0.1:${allowed.port}`], idleTimeoutMs: 500 });
    try {
      const streamed = await viaProxy(own, `http://127.0.0.1:${allowed.port}/stream`);
      expect(streamed.status).toBe(200);
      expect(streamed.body.trim().split('\n')).toHaveLength(12);
      const silent = await within(
        10_000,
        viaProxy(own, `http://127.0.0.1:${allowed.port}/hang`),
        'an answer for the silent site',
      );
      expect(silent.status).toBe(504);
    } finally {
      await own.close();
    }
  });

  it('drops a client that never finishes its request head, however steadily it trickles', async () => {
    const own = await startEgressProxy({
      allow: [`127.0.0.1:${allowed.port}`],
      headersTimeoutMs: 300,
      idleTimeoutMs: 60_000,
    });
    const socket = dial(own);
    let received = '';
    socket.on('data', (data: Buffer) => {
      received += data.toString();
    });
    // The trickle may still be writing when the proxy hangs up.
    socket.on('error', () => {});
    socket.write(`GET http://127.0.0.1:${allowed.port}/slow-head HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
    const trickle = setInterval(() => {
      if (socket.writable) socket.write('X-Slow: 1\r\n');
    }, 50);
    try {
      await within(10_000, closed(socket), 'dropping the slow client');
    } finally {
      clearInterval(trickle);
      await own.close();
    }
    expect(received).toMatch(/^HTTP\/1.1 408/);
    expect(allowed.hits.some((hit) => hit.url === '/slow-head')).toBe(false);
  });
});

describe('the log of refused requests (issue 29, finding 20)', () => {
  it('sums each room’s refusals into one line per interval instead of a line each', async () => {
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const own = await startEgressProxy({
      logger: { warn: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }) },
      blockedLogMs: 300,
    });
    const [loud, quiet] = await Promise.all([
      own.openDoor(join(dir, 'loud.sock'), () => 'room-loud'),
      own.openDoor(join(dir, 'quiet.sock'), () => 'room-quiet'),
    ]);
    try {
      // A page retrying addresses of the server's own network in a loop: every try is refused…
      for (let i = 0; i < 30; i++) {
        const refused = await openTunnel({ path: loud.socketPath }, `127.0.0.1:${1000 + (i % 7)}`);
        expect(refused.status).toBe(403);
        refused.socket.destroy();
      }
      const other = await openTunnel({ path: quiet.socketPath }, '10.0.0.1:80');
      expect(other.status).toBe(403);
      other.socket.destroy();
      // …and the log has one line per room for the interval, with the count and what it reached for.
      await expect.poll(() => lines.length).toBeGreaterThanOrEqual(2);
      await delay(400);
      const blocked = lines.filter((line) => line.msg === 'room browser egress blocked');
      expect(blocked).toHaveLength(2);
      expect(blocked.find((line) => line.obj.room === 'room-loud')?.obj).toMatchObject({
        blocked: 30,
        targets: expect.arrayContaining([expect.objectContaining({ target: '127.0.0.1:1000' })]),
      });
      const loudLine = blocked.find((line) => line.obj.room === 'room-loud');
      expect(loudLine?.obj.targets).toHaveLength(5);
      expect(blocked.find((line) => line.obj.room === 'room-quiet')?.obj).toMatchObject({ blocked: 1 });
    } finally {
      await Promise.all([loud.close(), quiet.close()]);
      await own.close();
    }
  });
});
