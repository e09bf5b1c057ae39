// The room page on a fleet, as a user lives a lost machine: the web app served by a control plane, the room's
// socket through a gateway (a front proxy routes /ws/room/… there and the rest to the control plane, as an ingress
// does), the room on one of two agents. The agent's machine dies (kill -9 of its process group): the page says the
// room is restarting, and shows the picture again, from the other agent, with nobody clicking anything.
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { COOKIES } from '@rooms/i18n';
import {
  killServerProcesses,
  QUIET_CHROMIUM_ARGS,
  startServerProcess,
  storedRoom,
  storedUser,
  type TServerProcess,
} from '@rooms/server/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESS_ME_PAGE, passEntry, servePages, type TPages } from './room-support';
import { DESKTOP, screenshots } from './support';

const SECRET = 'fleet-journey-secret-long-enough-for-hmac-keys';

let database: TestDatabase;
let pages: TPages;
let front: TFront | undefined;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  [database, pages, browser] = await Promise.all([
    createTestDatabase(),
    servePages(PRESS_ME_PAGE),
    chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', ...QUIET_CHROMIUM_ARGS],
    }),
  ]);
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-fleet-journey-'));
}, 60_000);

afterAll(async () => {
  killServerProcesses();
  await boundedStep('closing the browser', () => browser?.close());
  await boundedStep('closing the front proxy', () => front?.close());
  await boundedStep('closing the page server', () => {
    pages?.server.closeAllConnections();
    return new Promise((resolve) => (pages ? pages.server.close(resolve) : resolve(undefined)));
  });
  await boundedStep('dropping the database', () => database?.drop());
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 90_000);

/**
 * One teardown step, given at most 15 s: a step that hangs is named in the output and the file still ends (a
 * teardown once sat out the hook's whole 120 s after a passing test, and failed the run without saying where).
 */
async function boundedStep(what: string, step: () => unknown): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<'stalled'>((resolve) => {
    timer = setTimeout(() => resolve('stalled'), 15_000);
  });
  const outcome = await Promise.race([Promise.resolve().then(step), stalled]).finally(() =>
    clearTimeout(timer),
  );
  if (outcome === 'stalled')
    console.warn(`[fleet] teardown: ${what} still had not finished after 15 s; going on`);
}

interface TFront {
  /** Stops listening and cuts every connection, the upgraded room sockets included (server.close waits for those). */
  close(): Promise<void>;
}

/** The ingress: room sockets to the gateway, everything else to the control plane. */
async function frontProxy(port: number, controlPort: number, gatewayPort: number): Promise<TFront> {
  const connections = new Set<Socket>();
  const server = createServer((incoming, outgoing) => {
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: controlPort,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  server.on('upgrade', (incoming, socket, head) => {
    const target = connect(gatewayPort, '127.0.0.1', () => {
      const lines = [`${incoming.method} ${incoming.url} HTTP/1.1`];
      for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
        lines.push(`${incoming.rawHeaders[index]}: ${incoming.rawHeaders[index + 1]}`);
      }
      target.write(`${lines.join('\r\n')}\r\n\r\n`);
      target.write(head);
      socket.pipe(target).pipe(socket);
    });
    target.on('error', () => socket.destroy());
    socket.on('error', () => target.destroy());
    socket.once('close', () => target.destroy());
  });
  server.on('connection', (socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of connections) socket.destroy();
      }),
  };
}

async function ownerWithRoom(): Promise<{ token: string; username: string; roomId: string }> {
  const owner = await storedUser(database.orm, { prefix: 'fleet' });
  const room = await storedRoom(database.orm, owner.id, { startUrl: `${pages.origin}/` });
  return { token: owner.token, username: owner.username, roomId: room.id };
}

/** The room's live run: which agent, at which address. */
async function liveRun(roomId: string): Promise<{ agentId: string; address: string } | undefined> {
  const [row] = await database.orm.em.fork().execute<{ agent_id: string; address: string }[]>(
    `select r.agent_id, a.address from room_runs r join room_agents a on a.id = r.agent_id
     where r.room_id = ? and r.state in ('starting', 'running')`,
    [roomId],
  );
  return row ? { agentId: row.agent_id, address: row.address } : undefined;
}

const framesOf = (canvas: Element) => Number((canvas as HTMLCanvasElement).dataset.frames ?? 0);

describe('a room page on a fleet', () => {
  it('says the room is restarting when its agent dies, and shows the picture again from another agent', async () => {
    const [controlPort, frontPort] = [await freePort(), await freePort()];
    const frontUrl = `http://127.0.0.1:${frontPort}`;
    const shared = {
      DATABASE_URL: database.url,
      APP_SECRET: SECRET,
      BILLING_JOBS: 'off',
      PUBLIC_URL: frontUrl,
    };
    const agent = async (name: string): Promise<TServerProcess> => {
      const port = await freePort();
      return startServerProcess(
        name,
        {
          ...shared,
          ROOM_ROLE: 'agent',
          AGENT_ADDRESS: `127.0.0.1:${port}`,
          DATA_DIR: join(dataDir, name),
          ROOMS_DATA_DIR: join(dataDir, name, 'rooms'),
          ROOM_EGRESS_ALLOW: new URL(pages.origin).host,
          ROOM_WARM_POOL: '0',
          ROOM_CAPACITY: '2',
        },
        port,
      );
    };
    await startServerProcess(
      'control',
      { ...shared, ROOM_ROLE: 'control', DATA_DIR: join(dataDir, 'control') },
      controlPort,
    );
    const agents = [await agent('agent-1'), await agent('agent-2')];
    const gateway = await startServerProcess('gateway', {
      ...shared,
      ROOM_ROLE: 'gateway',
      DATA_DIR: join(dataDir, 'gw'),
    });
    front = await frontProxy(frontPort, controlPort, gateway.port);

    const owner = await ownerWithRoom();
    const started = await fetch(`${frontUrl}/api/room/startRoom?id=${owner.roomId}`, {
      method: 'POST',
      headers: { authorization: owner.token },
    });
    expect(((await started.json()) as { data: { state: string } }).data.state).toBe('running');

    const context = await browser.newContext({ baseURL: frontUrl, viewport: DESKTOP, locale: 'en-US' });
    const expires = Date.now() + 3_600_000;
    await context.addCookies(
      [
        [COOKIES.token, owner.token],
        [COOKIES.tokenExpires, String(expires)],
        [COOKIES.username, owner.username],
        [COOKIES.avatar, ''],
      ].map(([name, value]) => ({ name: name!, value: value!, url: frontUrl, expires: expires / 1000 })),
    );
    const page = await context.newPage();
    await page.goto(`/room/${owner.roomId}`);
    await passEntry(page, 'Olga');
    const canvas = page.getByTestId('room-canvas');
    await expect.poll(() => canvas.evaluate(framesOf), { timeout: 30_000 }).toBeGreaterThan(2);
    // Every text the away cover shows, kept (the restart's can be gone in a few seconds).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { awayTexts: string[] }).awayTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="room-away-text"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });

    const before = await liveRun(owner.roomId);
    const victim = agents.find((candidate) => `127.0.0.1:${candidate.port}` === before?.address);
    if (!victim || !before) throw new Error('no agent runs the room');
    const killedAt = Date.now();
    victim.kill();

    const status = page.getByTestId('room-page');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 10_000 }).not.toBe('joined');
    await page.getByTestId('room-away-text').waitFor({ timeout: 10_000 });
    await screenshots(page, 'fleet-room-restarting');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 60_000 }).toBe('joined');
    const after = await liveRun(owner.roomId);
    expect(after?.agentId).not.toBe(before.agentId);
    // The picture moves again, from the new agent.
    const resumed = await canvas.evaluate(framesOf);
    await expect.poll(() => canvas.evaluate(framesOf), { timeout: 30_000 }).toBeGreaterThan(resumed + 2);
    const texts = await page.evaluate(() => (window as unknown as { awayTexts: string[] }).awayTexts);
    expect(texts).toContain('Room restarting…');
    console.log(
      `[fleet] picture back ${Date.now() - killedAt} ms after the agent was killed; cover said ${JSON.stringify(texts)}`,
    );
    await screenshots(page, 'fleet-room-back');
    await context.close();
  }, 240_000);
});
