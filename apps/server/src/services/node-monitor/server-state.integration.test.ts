// /serverstate's data over REST and tRPC with the real engine: a started room shows in its zone and in this
// server's load, and its start time lands in the last hour's figures.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TServerState } from '@rooms/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../testing/admin-accounts';
import { rest } from '../../testing/rest-client';
import { createOwner, uniqueRoomName } from '../../testing/room-test-users';
import { startTestServer, type TTestServer } from '../../testing/test-server';

let server: TTestServer;
let roomsDataDir: string;

beforeAll(async () => {
  roomsDataDir = await mkdtemp(join(tmpdir(), 'server-state-'));
  server = await startTestServer({
    listen: false,
    env: { ROOMS_DATA_DIR: roomsDataDir, ROOM_CAPACITY: '3' },
  });
});

afterAll(async () => {
  await server?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

describe('GET /api/server/getServerState', () => {
  it('shows the zones, this server with its capacity and load, and the start time of a room', async () => {
    const owner = await createOwner(server.app);
    const state = async () => {
      const reply = await rest<TServerState>(server.app, 'GET', '/api/server/getServerState', {
        token: owner.token,
      });
      expect(reply.msg, JSON.stringify(reply.data)).toBe('success');
      return reply.data;
    };

    const before = await state();
    const local = before.regions.find((region) => region.code === 'local');
    expect(local?.nodes).toHaveLength(1);
    const node = local!.nodes[0]!;
    expect(node.rooms).toEqual({ running: 0, max: 3 });
    // The host (its name, CPU, memory) is an administrator's to see.
    expect(node.host).toBeNull();
    expect(node.startLatency).toMatchObject({ windowMinutes: 60, started: 0, medianMs: null });

    const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
      token: owner.token,
      body: { name: uniqueRoomName('state'), region: 'local', image: 'chromium-blank' },
    });
    const started = await rest(server.app, 'POST', '/api/room/startRoom', {
      token: owner.token,
      query: { id: created.data.id },
    });
    expect(started.msg, JSON.stringify(started.data)).toBe('success');

    const during = await state();
    const zone = during.regions.find((region) => region.code === 'local')!;
    expect(zone.runningRooms).toBe(1);
    expect(zone.nodes[0]!.rooms).toEqual({ running: 1, max: 3 });
    const latency = zone.nodes[0]!.startLatency;
    expect(latency.started).toBe(1);
    // A real Chromium start: more than nothing, less than the start timeout.
    expect(latency.medianMs).toBeGreaterThan(10);
    expect(latency.medianMs).toBeLessThan(60_000);

    // The same data through tRPC, the web app's path.
    const trpc = await server.app.inject({
      method: 'GET',
      url: '/trpc/server.getServerState',
      headers: { authorization: owner.token },
    });
    expect(trpc.statusCode, trpc.body).toBe(200);
    expect(trpc.json().result.data.json.regions[0].nodes[0].rooms.running).toBe(1);

    // The summary is everyone's; the room-by-room details are an administrator's alone.
    expect(during.details).toBeNull();
    const admin = await createAdmin(server.app);
    const forAdmin = await rest<TServerState>(server.app, 'GET', '/api/server/getServerState', {
      token: admin.token,
    });
    expect(forAdmin.data.details?.rooms).toMatchObject([{ id: created.data.id, state: 'running' }]);
    expect(forAdmin.data.details?.process.rssBytes).toBeGreaterThan(0);
    const host = forAdmin.data.regions.find((region) => region.code === 'local')!.nodes[0]!.host;
    expect(host?.cpu.cores).toBeGreaterThan(0);
    expect(host?.cpu.percent).toBeGreaterThanOrEqual(0);
    expect(host?.memory.usedBytes).toBeGreaterThan(0);

    await rest(server.app, 'POST', '/api/room/stopRoom', {
      token: owner.token,
      query: { id: created.data.id },
    });
    expect((await state()).regions.find((region) => region.code === 'local')!.runningRooms).toBe(0);
  });

  it('answers a visitor without a session with Not logged in', async () => {
    const reply = await rest(server.app, 'GET', '/api/server/getServerState');
    expect(reply).toMatchObject({ status: 401, data: 'Not logged in' });
  });
});
