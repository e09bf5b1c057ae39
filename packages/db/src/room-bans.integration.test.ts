// Room bans and removals as stored: they last until the room stops, whoever stores the stop, and a room that is
// only moving (a run lost and started again, never stored as stopped) keeps them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Region, Room, RoomBan, RoomRemoval, type RoomState, SystemImage, User } from './index';
import { createTestDatabase, type TestDatabase } from './testing';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

let sequence = 0;
async function runningRoom() {
  const em = db.orm.em.fork();
  sequence += 1;
  const owner = em.create(User, {
    username: `banner${sequence}`,
    email: `banner-${Date.now()}-${sequence}@example.com`,
    passwordHash: 'argon2id$placeholder',
  });
  const room = em.create(Room, {
    name: `bans-${Date.now().toString(36)}${sequence}`,
    password: null,
    state: 'running',
    region: await em.findOneOrFail(Region, { code: 'local' }),
    image: (await em.find(SystemImage, {}, { limit: 1 }))[0]!,
    startUrl: null,
    maxConnections: 5,
    width: 1280,
    height: 720,
    videoBitrateKbps: 2000,
    maxFrameRate: 30,
    owner,
  });
  await em.flush();
  return room.id;
}

async function ban(roomId: string) {
  const em = db.orm.em.fork();
  em.create(RoomBan, {
    room: em.getReference(Room, roomId),
    userId: null,
    guestId: 'browser-1',
    ip: '10.0.0.1',
  });
  await em.flush();
}

const bans = (roomId: string) => db.orm.em.fork().count(RoomBan, { room: roomId });
const store = (roomId: string, state: RoomState) =>
  db.orm.em.fork().nativeUpdate(Room, { id: roomId }, { state });

describe('room bans', () => {
  it('hold while the room runs or moves, and end when it stops or crashes', async () => {
    const roomId = await runningRoom();
    await ban(roomId);
    // Started again without a stop in between (a lost run placed elsewhere): still banned.
    await store(roomId, 'starting');
    await store(roomId, 'running');
    await store(roomId, 'stopping');
    expect(await bans(roomId)).toBe(1);
    await store(roomId, 'stopped');
    expect(await bans(roomId)).toBe(0);

    await store(roomId, 'running');
    await ban(roomId);
    await store(roomId, 'crashed');
    expect(await bans(roomId)).toBe(0);
  });

  it('stored in the instant the room was stopping are gone when it starts again', async () => {
    const roomId = await runningRoom();
    await store(roomId, 'stopped');
    await ban(roomId);
    await store(roomId, 'starting');
    expect(await bans(roomId)).toBe(0);
  });

  it('go with the room', async () => {
    const roomId = await runningRoom();
    await ban(roomId);
    await db.orm.em.fork().nativeDelete(Room, { id: roomId });
    expect(await bans(roomId)).toBe(0);
  });
});

describe('room removals', () => {
  const removals = (roomId: string) => db.orm.em.fork().count(RoomRemoval, { room: roomId });
  async function remove(roomId: string) {
    const em = db.orm.em.fork();
    em.create(RoomRemoval, {
      room: em.getReference(Room, roomId),
      nickname: 'Gus',
      userId: null,
      guestIds: ['browser-1', 'browser-2'],
    });
    await em.flush();
  }

  it('hold while the room runs or moves, end when it stops or crashes, and go with the room', async () => {
    const roomId = await runningRoom();
    await remove(roomId);
    const stored = await db.orm.em.fork().findOneOrFail(RoomRemoval, { room: roomId });
    expect(stored.guestIds).toEqual(['browser-1', 'browser-2']);
    await store(roomId, 'starting');
    await store(roomId, 'running');
    expect(await removals(roomId)).toBe(1);
    await store(roomId, 'stopped');
    expect(await removals(roomId)).toBe(0);

    await store(roomId, 'running');
    await remove(roomId);
    await store(roomId, 'crashed');
    expect(await removals(roomId)).toBe(0);

    await store(roomId, 'running');
    await remove(roomId);
    await db.orm.em.fork().nativeDelete(Room, { id: roomId });
    expect(await removals(roomId)).toBe(0);
  });
});
