// A room agent holds only the runs the fleet holds it to. Each heartbeat's answer names them; a room running here
// under a run the fleet has ended (the control plane stopped the room and its order never arrived) or given away
// (the agent was declared lost after a stall) stops at the next beat, instead of running on unseen: still costing
// a slot, still open to whoever was inside after its owner stopped it.
import { fleet } from '@rooms/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetProcess } from '../testing/fleet-calls';
import { storedRoom, storedUser } from '../testing/stored-accounts';
import { startTestServer, type TTestServer } from '../testing/test-server';
import { developmentSigningKey } from './fleet-keys';

const ADDRESS = '127.0.0.1:9';
let agent: TTestServer;

beforeAll(async () => {
  agent = await startTestServer({
    listen: false,
    env: { ROOM_ROLE: 'agent', AGENT_ADDRESS: ADDRESS, ROOM_CAPACITY: '1', ROOM_MEDIA: 'screencast' },
  });
}, 60_000);

afterAll(async () => {
  await agent?.close();
});

const sql = <T>(text: string, values: unknown[] = []) => agent.app.orm.em.fork().execute<T[]>(text, values);

/** A room placed on the agent (the only one of its zone) and started there as the control plane orders it. */
async function runningRoom(): Promise<{ roomId: string; runId: string; epoch: number }> {
  const owner = await storedUser(agent.app.orm, { prefix: 'held' });
  const room = await storedRoom(agent.app.orm, owner.id, { startUrl: 'about:blank' });
  const { run } = await fleet.placeRun(agent.app.orm.em.fork(), room.id, new Date());
  const started = await agent.app.inject({
    method: 'POST',
    url: '/fleet/runs',
    // The control plane's order, signed for this agent (test servers derive the install's key from APP_SECRET).
    headers: {
      authorization: fleetProcess(developmentSigningKey(agent.config.appSecret), 'control').call(
        ADDRESS,
        'POST',
        '/fleet/runs',
      ),
    },
    payload: {
      runId: run.id,
      epoch: run.epoch,
      spec: {
        roomId: room.id,
        width: 640,
        height: 360,
        maxFrameRate: 10,
        videoBitrateKbps: 1000,
        startUrl: 'about:blank',
        keepData: false,
        autoCloseMs: null,
      },
    },
  });
  expect(started.statusCode, started.body).toBe(200);
  expect(agent.app.roomEngine.state(room.id)).toBe('running');
  return { roomId: room.id, runId: run.id, epoch: run.epoch };
}

describe('the runs the fleet holds an agent to', () => {
  it('stops a room whose run the fleet ended without reaching the agent', async () => {
    const { roomId, runId, epoch } = await runningRoom();
    // The control plane's stop order failed; it ended the run anyway (the room counts as stopped everywhere else).
    expect(await fleet.endRun(agent.app.orm.em.fork(), runId, epoch, new Date())).toMatchObject({ ok: true });
    // Heartbeats come every 3 s.
    await expect.poll(() => agent.app.roomEngine.state(roomId), { timeout: 15_000 }).toBe('stopped');
    expect(agent.app.agentRuns.has(roomId)).toBe(false);
  }, 60_000);

  it('stops its rooms when the fleet declared it lost, and serves on under a new registration', async () => {
    const { roomId, runId } = await runningRoom();
    const [before] = await sql<{ id: string }>(
      `select id from room_agents where address = ? and state <> 'lost'`,
      [ADDRESS],
    );
    // The lost sweep, as another server runs it after a stall of this one: the agent and its run are lost.
    const later = new Date(Date.now() + fleet.AGENT_LOST_AFTER_MS + 1000);
    const swept = await fleet.markLostAgents(agent.app.orm.em.fork(), later);
    expect(swept.runs.map((run) => run.id)).toEqual([runId]);
    await expect.poll(() => agent.app.roomEngine.state(roomId), { timeout: 15_000 }).toBe('stopped');
    const live = await sql<{ id: string }>(
      `select id from room_agents where address = ? and state <> 'lost'`,
      [ADDRESS],
    );
    expect(live).toHaveLength(1);
    expect(live[0]!.id).not.toBe(before!.id);
  }, 60_000);

  it('stops its rooms when no heartbeat is answered for a run’s lease, and joins again once one is', async () => {
    const { roomId, runId } = await runningRoom();
    const [before] = await sql<{ id: string }>(
      `select id from room_agents where address = ? and state <> 'lost'`,
      [ADDRESS],
    );
    // The database refuses the agent's heartbeats (as one out of its reach would): past the run's lease the fleet
    // may start the room elsewhere, so the room must not run on here.
    await sql('alter table room_agents rename to room_agents_away');
    try {
      await expect
        .poll(() => agent.app.roomEngine.state(roomId), { timeout: fleet.RUN_LEASE_MS + 15_000 })
        .toBe('stopped');
    } finally {
      await sql('alter table room_agents_away rename to room_agents');
    }
    // Back in reach, it registers anew: its former registration and the room's run are lost, so the fleet starts
    // the room again instead of counting it running here.
    await expect
      .poll(
        async () => (await sql<{ state: string }>('select state from room_runs where id = ?', [runId]))[0],
      )
      .toEqual({ state: 'lost' });
    const live = await sql<{ id: string }>(
      `select id from room_agents where address = ? and state <> 'lost'`,
      [ADDRESS],
    );
    expect(live.map((row) => row.id)).not.toContain(before!.id);
    expect(live).toHaveLength(1);
  }, 60_000);
});
