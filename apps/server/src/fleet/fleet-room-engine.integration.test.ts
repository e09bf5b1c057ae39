// The control plane's engine against real PostgreSQL: an owner's Stop of a room the fleet is bringing back after
// its agent was lost keeps it stopped.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { fleet } from '@rooms/api';
import { Region, Room, SystemImage, User } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetRoomEngine } from './fleet-room-engine';

let db: TestDatabase;
const em = () => db.orm.em.fork() as unknown as EntityManager;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

async function lostRoom(): Promise<string> {
  const fork = em();
  const suffix = randomBytes(4).toString('hex');
  const owner = fork.create(User, {
    username: `engine-${suffix}`,
    email: `engine-${suffix}@example.test`,
    passwordHash: 'unused',
  });
  const region = fork.create(Region, { code: `r-${suffix}`, name: `r-${suffix}` });
  const room = fork.create(Room, {
    name: `lost-${suffix}`,
    region,
    image: await fork.findOneOrFail(SystemImage, { kind: 'blank' }),
    owner,
    startUrl: null,
    password: null,
    maxConnections: 4,
    width: 1280,
    height: 720,
    videoBitrateKbps: 2500,
    maxFrameRate: 30,
    state: 'running',
  });
  await fork.flush();
  const t0 = new Date(Date.now() - 60_000);
  await fleet.registerAgent(
    em(),
    { regionCode: region.code, address: `10.9.${suffix.slice(0, 2)}.1:4100`, capacity: 2, version: 'test' },
    t0,
  );
  await fleet.placeRun(em(), room.id, t0);
  await fleet.markLostAgents(em(), new Date());
  return room.id;
}

describe('FleetRoomEngine', () => {
  it("gives up a lost room its owner stops, so the fleet's restart does not bring it back", async () => {
    const roomId = await lostRoom();
    expect(await fleet.lostRunOf(em(), roomId)).not.toBeNull();
    const engine = new FleetRoomEngine({ orm: db.orm as never, token: 'unused', log: { warn() {} } });

    await engine.stop(roomId);

    expect(await fleet.lostRunOf(em(), roomId)).toBeNull();
    expect((await fleet.lostRuns(em())).map((lost) => lost.run.roomId)).not.toContain(roomId);
    expect((await em().findOneOrFail(Room, roomId)).state).toBe('stopped');
    expect(engine.state(roomId)).toBe('stopped');
  });
});
