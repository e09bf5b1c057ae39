// Starting, stopping, restarting and deleting rooms over REST with the real engine (one Chromium per room),
// and the stored state following the browser: crashes, stops the engine makes on its own, a node restart.
// The rooms open a page served here on loopback, which the egress guard lets through for this test only.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fleet } from '@rooms/api';
import { LOCAL_REGION_CODE, Room } from '@rooms/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let roomsDataDir: string;
let page: Server;
let pageOrigin: string;
/** Paths the room browsers asked the page server for. */
const pageHits: string[] = [];

beforeAll(async () => {
  page = createServer((request, response) => {
    pageHits.push(request.url ?? '');
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>room</title><p>hello');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  const address = page.address();
  if (!address || typeof address !== 'object') throw new Error('page server has no port');
  pageOrigin = `http://127.0.0.1:${address.port}`;

  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-lifecycle-'));
  server = await startTestServer({
    listen: false,
    env: {
      ROOMS_DATA_DIR: roomsDataDir,
      // One room at a time, so the capacity test can fill the server.
      ROOM_CAPACITY: '1',
      ROOM_EGRESS_ALLOW: `127.0.0.1:${address.port}`,
    },
  });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => page?.close(resolve));
  await rm(roomsDataDir, { recursive: true, force: true });
});

type TRoom = Record<string, unknown> & { id: string; name: string; state: string };

function call<T = unknown>(
  owner: TTestOwner,
  method: 'GET' | 'POST',
  procedure: string,
  options: { query?: Record<string, string>; body?: unknown } = {},
) {
  return rest<T>(server.app, method, `/api/room/${procedure}`, { ...options, token: owner.token });
}

/** A room opening our loopback page, tagged with its name so the page server can tell rooms apart. */
async function createRoom(owner: TTestOwner, body: Record<string, unknown> = {}): Promise<TRoom> {
  const name = uniqueRoomName('live');
  const reply = await call<TRoom>(owner, 'POST', 'createRoom', {
    body: {
      name,
      region: 'local',
      image: 'chromium-url',
      startUrl: `${pageOrigin}/start?room=${name}`,
      ...body,
    },
  });
  expect(reply, JSON.stringify(reply.data)).toMatchObject({ msg: 'success' });
  return reply.data;
}

async function storedState(owner: TTestOwner, room: TRoom): Promise<string | undefined> {
  const list = await call<TRoom[]>(owner, 'GET', 'getRoomList');
  return list.data.find((item) => item.id === room.id)?.state;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a room’s browser', () => {
  it('starts on its start page, shows as running, and stops', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);

    expect(await call(owner, 'POST', 'startRoom', { query: { id: room.id } })).toEqual({
      status: 200,
      msg: 'success',
      data: { id: room.id, name: room.name, state: 'running' },
    });
    await expect.poll(() => pageHits.some((hit) => hit.includes(room.name)), { timeout: 20_000 }).toBe(true);

    const [listed] = (await call<TRoom[]>(owner, 'GET', 'getRoomList')).data;
    expect(listed).toMatchObject({ id: room.id, state: 'running' });
    expect(listed?.lastStartedAt).not.toBeNull();
    expect(await call(owner, 'GET', 'updateState', { query: { name: room.name } })).toMatchObject({
      data: { state: 'running' },
    });
    expect(await call(owner, 'GET', 'getRoomConfig', { query: { id: room.id } })).toMatchObject({
      data: { state: 'running', width: 1280, height: 720 },
    });
    // Starting a running room changes nothing.
    expect(await call(owner, 'POST', 'startRoom', { query: { name: room.name } })).toMatchObject({
      data: { state: 'running' },
    });

    const pid = server.app.roomEngine.browserPid(room.id);
    expect(pid).toBeTypeOf('number');
    expect(await call(owner, 'POST', 'stopRoom', { query: { name: room.name } })).toMatchObject({
      status: 200,
      data: { state: 'stopped' },
    });
    expect(await storedState(owner, room)).toBe('stopped');
    expect(processAlive(pid!)).toBe(false);
    // Without keep-data nothing of the room stays on disk.
    expect(existsSync(join(roomsDataDir, room.id))).toBe(false);
  });

  it('is refused beyond the server’s capacity with the engine’s error, and the refused room stays stopped', async () => {
    const first = await createOwner(server.app);
    const second = await createOwner(server.app);
    const running = await createRoom(first);
    const refused = await createRoom(second);

    expect(await call(first, 'POST', 'startRoom', { query: { id: running.id } })).toMatchObject({
      data: { state: 'running' },
    });
    expect(await call(second, 'POST', 'startRoom', { query: { id: refused.id } })).toEqual({
      status: 503,
      msg: 'error',
      data: 'This server is running as many rooms as it can; please try again later',
    });
    expect(await storedState(second, refused)).toBe('stopped');

    await call(first, 'POST', 'stopRoom', { query: { id: running.id } });
    expect(await call(second, 'POST', 'startRoom', { query: { id: refused.id } })).toMatchObject({
      data: { state: 'running' },
    });
    await call(second, 'POST', 'stopRoom', { query: { id: refused.id } });
  });

  it('starts again by itself within 5 s when its browser dies, and stays crashed when it keeps dying', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    await call(owner, 'POST', 'startRoom', { query: { id: room.id } });
    let pid = server.app.roomEngine.browserPid(room.id);
    expect(pid).toBeTypeOf('number');

    // Three deaths within a minute: each time a new browser runs the room within 5 s.
    for (let death = 1; death <= 3; death++) {
      const killedAt = performance.now();
      process.kill(pid!, 'SIGKILL');
      await expect
        .poll(() => server.app.roomEngine.browserPid(room.id), { timeout: 5_000, interval: 100 })
        .not.toBe(pid);
      await expect
        .poll(() => server.app.roomEngine.state(room.id), { timeout: 5_000, interval: 100 })
        .toBe('running');
      console.log(
        `[crash] death ${death}: running again after ${Math.round(performance.now() - killedAt)} ms`,
      );
      pid = server.app.roomEngine.browserPid(room.id);
      expect(processAlive(pid!)).toBe(true);
    }
    await expect.poll(() => storedState(owner, room)).toBe('running');

    // The fourth within the minute: it keeps dying, so it is left crashed for its owner to see.
    process.kill(pid!, 'SIGKILL');
    await expect.poll(() => storedState(owner, room), { timeout: 20_000 }).toBe('crashed');
    expect(await call(owner, 'GET', 'updateState', { query: { name: room.name } })).toMatchObject({
      data: { state: 'crashed' },
    });

    expect(
      await call(owner, 'POST', 'restartRoom', { query: { id: room.id, name: room.name } }),
    ).toMatchObject({
      status: 200,
      data: { state: 'running' },
    });
    expect(await storedState(owner, room)).toBe('running');
    const restartedPid = server.app.roomEngine.browserPid(room.id);
    expect(restartedPid).not.toBe(pid);
    expect(processAlive(restartedPid!)).toBe(true);
    await call(owner, 'POST', 'stopRoom', { query: { id: room.id } });
  });

  it('is stored as stopped when the engine stops it on its own (as auto-close does)', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    await call(owner, 'POST', 'startRoom', { query: { id: room.id } });
    expect(await storedState(owner, room)).toBe('running');

    await server.app.roomEngine.stop(room.id);
    await expect.poll(() => storedState(owner, room), { timeout: 10_000 }).toBe('stopped');
  });
});

describe('deleting a room', () => {
  it('stops its running browser and removes its kept data', async () => {
    const owner = await createOwner(server.app, { plan: 'pro' });
    const room = await createRoom(owner, { keepData: true });
    const profile = join(roomsDataDir, room.id);

    await call(owner, 'POST', 'startRoom', { query: { id: room.id } });
    await call(owner, 'POST', 'stopRoom', { query: { id: room.id } });
    // Kept data outlives a stop…
    expect(existsSync(profile)).toBe(true);

    await call(owner, 'POST', 'startRoom', { query: { id: room.id } });
    const pid = server.app.roomEngine.browserPid(room.id);
    expect(await call(owner, 'POST', 'deleteRoom', { query: { name: room.name } })).toEqual({
      status: 200,
      msg: 'success',
      data: { id: room.id, name: room.name },
    });
    // …but not the room.
    expect(existsSync(profile)).toBe(false);
    expect(processAlive(pid!)).toBe(false);
    expect(server.app.roomEngine.state(room.id)).toBe('stopped');
    expect((await call<TRoom[]>(owner, 'GET', 'getRoomList')).data).toEqual([]);
  });
});

describe('a node that restarts', () => {
  it('starts again the rooms it ran, on an agent that serves, and shows the others as stopped', async () => {
    const owner = await createOwner(server.app, { plan: 'pro' });
    const [ran, died] = await Promise.all([createRoom(owner), createRoom(owner)]);
    // As a node killed mid-run leaves them: the room's run on an agent that fell silent, a crashed room stored.
    const em = server.app.orm.em.fork();
    const longAgo = new Date(Date.now() - 60_000);
    await fleet.registerAgent(
      em,
      { regionCode: LOCAL_REGION_CODE, address: 'killed-node/1/gone', capacity: 4, version: 'test' },
      longAgo,
    );
    const placed = await fleet.placeRun(em, ran.id, longAgo);
    await fleet.markRunRunning(em, placed.run.id, placed.run.epoch, longAgo);
    expect(placed.agentAddress).toBe('killed-node/1/gone');
    await em.nativeUpdate(Room, { id: ran.id }, { state: 'running' });
    await em.nativeUpdate(Room, { id: died.id }, { state: 'crashed' });

    const restarted = await buildApp(server.config, { logger: false });
    try {
      await restarted.ready();
      expect(await storedState(owner, died)).toBe('stopped');
      // The room that ran comes back by itself on a live agent (its members' pages are waiting for it).
      const runsAgain = () =>
        [server.app, restarted].some((app) => app.roomEngine.state(ran.id) === 'running');
      await expect.poll(runsAgain, { timeout: 30_000 }).toBe(true);
      await expect.poll(() => storedState(owner, ran)).toBe('running');
      const run = await fleet.liveRunOf(server.app.orm.em.fork(), ran.id);
      expect(run?.epoch).toBe(placed.run.epoch + 1);
      expect(restarted.roomEngine.state(died.id)).toBe('stopped');
      const host = [server.app, restarted].find((app) => app.roomEngine.state(ran.id) === 'running');
      await host?.services.rooms.stop(ran.id);
      await expect.poll(() => storedState(owner, ran)).toBe('stopped');
    } finally {
      await restarted.close();
    }
  });
});

describe('a server that cannot run rooms', () => {
  /** The same server with other room settings: a second app on the same database. */
  async function withRooms(
    rooms: Partial<TTestServer['config']['rooms']>,
    check: (app: FastifyInstance) => Promise<void>,
  ) {
    const app = await buildApp(
      { ...server.config, rooms: { ...server.config.rooms, ...rooms } },
      { logger: false },
    );
    try {
      await app.ready();
      await check(app);
    } finally {
      await app.close();
    }
  }

  async function refusedStart(app: FastifyInstance) {
    const owner = await createOwner(app, { plan: 'pro' });
    const room = await createRoom(owner);
    const started = performance.now();
    const answer = await rest(app, 'POST', '/api/room/startRoom', {
      token: owner.token,
      query: { id: room.id },
    });
    expect(answer).toEqual({
      status: 503,
      msg: 'error',
      data: 'Rooms cannot start on this server right now; please try again later',
    });
    // Refused at once, not after a launch that hangs or fails deep inside.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(app.roomEngine.state(room.id)).toBe('stopped');
  }

  it('refuses a start clearly when its browser is missing', async () => {
    await withRooms({ chromiumPath: '/nonexistent/chromium' }, refusedStart);
  });

  it.runIf(process.getuid?.() === 0)("refuses a start clearly when the rooms' disk is full", async () => {
    const full = await mkdtemp(join(tmpdir(), 'rooms-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', full]);
    try {
      await withRooms({ dataDir: full }, refusedStart);
    } finally {
      execFileSync('umount', [full]);
      await rm(full, { recursive: true, force: true });
    }
  });
});
