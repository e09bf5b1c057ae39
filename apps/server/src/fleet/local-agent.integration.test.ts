// Every server joins the fleet's registry in PostgreSQL: /serverstate then shows each server of each zone from its
// heartbeats, whichever server is asked; a server that shuts down leaves at once, and one that falls silent is
// swept out as lost by the others.
import type { TServerState } from '@rooms/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let owner: TTestOwner;

beforeAll(async () => {
  server = await startTestServer({ listen: false, env: { ROOM_CAPACITY: '3' } });
  owner = await createOwner(server.app);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

async function zoneOn(on: TTestServer) {
  const reply = await rest<TServerState>(on.app, 'GET', '/api/server/getServerState', { token: owner.token });
  expect(reply.msg, JSON.stringify(reply.data)).toBe('success');
  return reply.data.regions.find((region) => region.code === 'local')!;
}

const sql = (text: string, values: unknown[] = []) =>
  server.app.orm.em.fork().execute<{ id: string; state: string }[]>(text, values);

describe('the fleet registry', () => {
  it('shows every server of a zone, from either one, and a server that shuts down leaves at once', async () => {
    const databaseUrl = server.config.databaseUrl;
    if (!databaseUrl) throw new Error('the test server runs on a database of its own');
    const other = await startTestServer({
      listen: false,
      env: { DATABASE_URL: databaseUrl, ROOM_CAPACITY: '5' },
    });
    let otherClosed = false;
    try {
      // The other server's first heartbeat carries its load (capacity 5): a few seconds at most.
      await expect
        .poll(async () => (await zoneOn(server)).nodes.map((node) => node.rooms.max).sort(), {
          timeout: 10_000,
        })
        .toEqual([3, 5]);
      expect((await zoneOn(other)).nodes.map((node) => node.rooms.max).sort()).toEqual([3, 5]);
      const agents = await sql(`select state from room_agents where state <> 'lost'`);
      expect(agents).toHaveLength(2);

      await other.close();
      otherClosed = true;
      expect((await zoneOn(server)).nodes.map((node) => node.rooms.max)).toEqual([3]);
    } finally {
      if (!otherClosed) await other.close();
    }
  }, 60_000);

  it('sweeps out a server that fell silent', async () => {
    const [region] = await sql(`select id from regions where code = 'local'`);
    if (!region) throw new Error('the local zone is seeded');
    const report = {
      name: 'silent',
      startedAt: new Date().toISOString(),
      rooms: { running: 0, max: 7 },
      cpu: { cores: 2, percent: 1 },
      memory: { totalBytes: 1, usedBytes: 1 },
      startLatency: { windowMinutes: 60, started: 0, failed: 0, medianMs: null, p95Ms: null, maxMs: null },
    };
    // Registered and last heard from 6 s ago, then never again (a machine cut off): the test waits out the rest of
    // the 10 s of silence, not all of it.
    const [silent] = await sql(
      `insert into room_agents (id, region_id, address, capacity, version, state, assigned, registered_at, heartbeat_at, report)
       values (gen_random_uuid(), ?, 'cut-off/1', 7, 'test', 'active', 0, now() - interval '6 seconds',
               now() - interval '6 seconds', ?::jsonb) returning id`,
      [region.id, JSON.stringify(report)],
    );
    if (!silent) throw new Error('the silent agent was inserted');
    expect((await zoneOn(server)).nodes.map((node) => node.rooms.max).sort()).toEqual([3, 7]);
    // Lost after 10 s of silence, by the next sweep (every 2 s): within 6 s from now.
    await expect
      .poll(async () => (await sql('select state from room_agents where id = ?', [silent.id]))[0]?.state, {
        timeout: 15_000,
        interval: 500,
      })
      .toBe('lost');
    expect((await zoneOn(server)).nodes.map((node) => node.rooms.max)).toEqual([3]);
  }, 30_000);
});
