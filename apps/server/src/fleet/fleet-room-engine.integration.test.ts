// The control plane's engine against real PostgreSQL: an owner's Stop of a room the fleet is bringing back after
// its agent was lost keeps it stopped.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { fleet } from '@rooms/api';
import { LOCAL_REGION_CODE, Room } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedRoom, storedUser } from '../testing/stored-accounts';
import { FleetRoomEngine } from './fleet-room-engine';

let db: TestDatabase;
const em = () => db.orm.em.fork() as unknown as EntityManager;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** A running room whose agent went silent: its run is lost, and the fleet would start it again. */
async function lostRoom(): Promise<string> {
  const owner = await storedUser(db.orm);
  const room = await storedRoom(db.orm, owner.id, { startUrl: 'http://127.0.0.1:9/' });
  await em().nativeUpdate(Room, { id: room.id }, { state: 'running' });
  const t0 = new Date(Date.now() - 60_000);
  await fleet.registerAgent(
    em(),
    {
      regionCode: LOCAL_REGION_CODE,
      address: `10.9.${randomBytes(2).join('.')}:4100`,
      capacity: 2,
      version: 'test',
    },
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
    const engine = new FleetRoomEngine({ orm: db.orm, token: 'unused', log: { warn() {} } });

    await engine.stop(roomId);

    expect(await fleet.lostRunOf(em(), roomId)).toBeNull();
    expect((await fleet.lostRuns(em())).map((lost) => lost.run.roomId)).not.toContain(roomId);
    expect((await em().findOneOrFail(Room, roomId)).state).toBe('stopped');
    expect(engine.state(roomId)).toBe('stopped');
  });
});
