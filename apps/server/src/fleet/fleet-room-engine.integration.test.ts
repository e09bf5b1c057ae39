// The control plane's engine against real PostgreSQL: an owner's Stop of a room the fleet is bringing back after
// its agent was lost keeps it stopped; an agent that heartbeats but cannot be reached is passed over, and the start
// lands on one that can (a real agent process on loopback).
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { fleet } from '@rooms/api';
import { freePort, LOCAL_REGION_CODE, Room } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedRoom, storedUser } from '../testing/stored-accounts';
import { startTestServer } from '../testing/test-server';
import { controlCaller } from './fleet-callers';
import { developmentSigningKey } from './fleet-keys';
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
    const engine = new FleetRoomEngine({ orm: db.orm, caller: undefined, log: { warn() {} } });

    await engine.stop(roomId);

    expect(await fleet.lostRunOf(em(), roomId)).toBeNull();
    expect((await fleet.lostRuns(em())).map((lost) => lost.run.roomId)).not.toContain(roomId);
    expect((await em().findOneOrFail(Room, roomId)).state).toBe('stopped');
    expect(engine.state(roomId)).toBe('stopped');
  });

  it('passes over an agent it cannot reach and starts the room on one it can, then keeps away from it', async () => {
    // Heartbeating through the database, but at an address nothing listens on (a wrong AGENT_ADDRESS).
    const closed = await freePort();
    const { agent: unreachable } = await fleet.registerAgent(
      em(),
      { regionCode: LOCAL_REGION_CODE, address: `127.0.0.1:${closed}`, capacity: 2, version: 'test' },
      new Date(),
    );
    const port = await freePort();
    const agent = await startTestServer({
      env: {
        ROOM_ROLE: 'agent',
        DATABASE_URL: db.url,
        AGENT_ADDRESS: `127.0.0.1:${port}`,
        PORT: String(port),
        ROOM_CAPACITY: '2',
        ROOM_MEDIA: 'screencast',
      },
    });
    const warnings: string[] = [];
    const engine = new FleetRoomEngine({
      orm: db.orm,
      // A control plane's, with the install's key (test servers derive it from APP_SECRET).
      caller: controlCaller(developmentSigningKey(agent.config.appSecret), 'test control plane'),
      log: { warn: (_object, message) => warnings.push(message) },
    });
    try {
      const owner = await storedUser(db.orm);
      const spec = async () => ({
        roomId: (await storedRoom(db.orm, owner.id, { startUrl: 'about:blank' })).id,
        width: 640,
        height: 360,
        maxFrameRate: 10,
        videoBitrateKbps: 1000,
        startUrl: 'about:blank',
        keepData: false,
        autoCloseMs: null,
      });
      // Equally loaded (none), the agent placed on longest ago goes first: the unreachable one, never placed on.
      await em().execute(`update room_agents set last_placed_at = now() where address = ?`, [
        `127.0.0.1:${port}`,
      ]);
      const first = await spec();
      await engine.start(first);
      const run = await fleet.liveRunOf(em(), first.roomId);
      expect(run?.agentId).not.toBe(unreachable.id);
      expect(agent.app.roomEngine.state(first.roomId)).toBe('running');
      expect(warnings).toEqual(['a room agent could not be reached: passed over for a while']);

      // The next start goes straight to the agent that answers.
      const second = await spec();
      await engine.start(second);
      expect(agent.app.roomEngine.state(second.roomId)).toBe('running');
      expect(warnings).toHaveLength(1);
      for (const started of [first, second]) await engine.stop(started.roomId);
    } finally {
      engine.close();
      await agent.close();
    }
  }, 90_000);
});
