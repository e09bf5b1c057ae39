// The dashboards' room lists are kept in memory between polls (packages/api/src/domains/rooms/room-list-cache.ts).
// Every change that shows in a list must still show at once: the owner's own creates and deletes on their next
// read, and a change written by anyone else (the room sync's raw state updates, another server, an operator's SQL)
// within moments on every server, through the triggers on rooms, zones and images.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

interface TListed {
  id: string;
  name: string;
  state: string;
  region: { code: string; name: string };
}

let server: TTestServer;
let other: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  const databaseUrl = server.config.databaseUrl;
  if (!databaseUrl) throw new Error('the test server runs on a database of its own');
  other = await startTestServer({ listen: false, env: { DATABASE_URL: databaseUrl } });
}, 60_000);

afterAll(async () => {
  await other?.close();
  await server?.close();
});

const listOn = async (on: TTestServer, owner: TTestOwner) =>
  (await rest<TListed[]>(on.app, 'GET', '/api/room/getRoomList', { token: owner.token })).data;

async function createRoom(owner: TTestOwner): Promise<TListed> {
  const created = await rest<TListed>(server.app, 'POST', '/api/room/createRoom', {
    token: owner.token,
    body: {
      name: uniqueRoomName('listed'),
      region: 'local',
      image: 'chromium-url',
      startUrl: 'http://127.0.0.1:9/',
    },
  });
  expect(created.status).toBe(200);
  return created.data;
}

/** SQL as another process or an operator would write it: nothing in the servers hears of it but the trigger. */
const sql = (text: string, values: unknown[] = []) => server.app.orm.em.fork().execute(text, values);

/** Until `check` holds on both servers, for at most 2 s (a notice takes moments; the cache keeps lists 10 s). */
async function settlesOnBoth(owner: TTestOwner, check: (rooms: TListed[]) => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  const settled = async () => check(await listOn(server, owner)) && check(await listOn(other, owner));
  while (!(await settled()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(check(await listOn(server, owner))).toBe(true);
  expect(check(await listOn(other, owner))).toBe(true);
}

describe('the room list cache', () => {
  it('serves a read list from memory until something changes it', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    // The create's own notice arrives after the ORM's eviction and would evict the list read below: wait for it.
    // Notices arrive in commit order, so once a later announced change shows, the create's has come and gone.
    const settled = `${room.name} (settled)`;
    await sql(`update rooms set name = ? where id = ?`, [settled, room.id]);
    await settlesOnBoth(owner, (rooms) => rooms[0]?.name === settled);
    expect((await listOn(server, owner)).map((listed) => listed.state)).toEqual(['stopped']);
    // A change the database does not announce (its trigger off for the moment) is not seen: the list is cached.
    await sql('alter table rooms disable trigger room_list_changed');
    try {
      await sql(`update rooms set state = 'crashed' where id = ?`, [room.id]);
    } finally {
      await sql('alter table rooms enable trigger room_list_changed');
    }
    expect((await listOn(server, owner)).map((listed) => listed.state)).toEqual(['stopped']);
  });

  it("shows the owner's new and deleted rooms on their very next read", async () => {
    const owner = await createOwner(server.app);
    expect(await listOn(server, owner)).toEqual([]);
    const room = await createRoom(owner);
    expect((await listOn(server, owner)).map((listed) => listed.id)).toEqual([room.id]);
    const deleted = await rest(server.app, 'POST', '/api/room/deleteRoom', {
      token: owner.token,
      query: { id: room.id },
    });
    expect(deleted.status).toBe(200);
    expect(await listOn(server, owner)).toEqual([]);
  });

  it('shows a state written by raw SQL (as the room sync writes it) within moments on every server', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    await settlesOnBoth(owner, (rooms) => rooms.length === 1 && rooms[0]?.state === 'stopped');
    await sql(`update rooms set state = 'crashed' where id = ?`, [room.id]);
    await settlesOnBoth(owner, (rooms) => rooms[0]?.state === 'crashed');
  });

  it('shows a room created on another server within moments', async () => {
    const owner = await createOwner(server.app);
    expect(await listOn(other, owner)).toEqual([]);
    const room = await createRoom(owner);
    await settlesOnBoth(owner, (rooms) => rooms.length === 1 && rooms[0]?.id === room.id);
  });

  it('shows a renamed zone in every cached list', async () => {
    const owner = await createOwner(server.app);
    await createRoom(owner);
    const [before] = await listOn(server, owner);
    await listOn(other, owner);
    const renamed = `${before?.region.name ?? ''} (renamed)`;
    try {
      await sql(`update regions set name = ? where code = 'local'`, [renamed]);
      await settlesOnBoth(owner, (rooms) => rooms[0]?.region.name === renamed);
    } finally {
      await sql(`update regions set name = ? where code = 'local'`, [before?.region.name]);
    }
  });
});
