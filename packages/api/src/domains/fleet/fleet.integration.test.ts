// The fleet's rules against real PostgreSQL: placement by region and load, capacity and one live run per room under
// concurrent starts, epochs and their fence, heartbeats and leases, and the sweep that gives a silent agent's rooms
// back. Every test registers its own region and agents, and passes its own clock.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Region, Room, SystemImage, User } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import {
  agentById,
  endRun,
  giveUpRun,
  heartbeat,
  heartbeats,
  liveRunOf,
  lostRunOf,
  lostRuns,
  markLostAgents,
  markRunRunning,
  placeRun,
  pruneFleet,
  registerAgent,
  retireAgent,
  setAgentDraining,
  type TAgent,
  type TRun,
} from './index';
import { AGENT_LOST_AFTER_MS, WORST_LOSS_DETECTION_MS } from './rules';

let db: TestDatabase;
const em = () => db.orm.em.fork() as unknown as EntityManager;
let ownerId: string;
let imageId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const fork = em();
  const suffix = randomBytes(4).toString('hex');
  const owner = fork.create(User, {
    username: `fleet-${suffix}`,
    email: `fleet-${suffix}@example.test`,
    passwordHash: 'unused',
  });
  await fork.flush();
  ownerId = owner.id;
  imageId = (await fork.findOneOrFail(SystemImage, { kind: 'blank' })).id;
});
afterAll(async () => {
  await db?.drop();
});

const seconds = (base: Date, s: number) => new Date(base.getTime() + s * 1000);

async function newRegion(): Promise<{ id: string; code: string }> {
  const fork = em();
  const code = `r-${randomBytes(5).toString('hex')}`;
  const region = fork.create(Region, { code, name: code });
  await fork.flush();
  return { id: region.id, code };
}

async function newRooms(regionId: string, count: number): Promise<string[]> {
  const fork = em();
  const rooms = Array.from({ length: count }, () =>
    fork.create(Room, {
      name: `f${randomBytes(6).toString('hex')}`,
      region: regionId,
      image: imageId,
      owner: ownerId,
      startUrl: null,
      password: null,
      maxConnections: 4,
      width: 1280,
      height: 720,
      videoBitrateKbps: 2500,
      maxFrameRate: 30,
    }),
  );
  await fork.flush();
  return rooms.map((room) => room.id);
}

async function newAgent(regionCode: string, capacity: number, now: Date, address?: string): Promise<TAgent> {
  const { agent } = await registerAgent(
    em(),
    {
      regionCode,
      address: address ?? `10.${randomBytes(3).join('.')}:4100`,
      capacity,
      version: 'test',
    },
    now,
  );
  return agent;
}

function codeOf(error: unknown): string | undefined {
  return error instanceof AppError ? error.appCode : String(error);
}

/** What the database holds about agents' load, counted from the runs themselves. */
async function liveRunsPerAgent(
  agentIds: string[],
): Promise<Map<string, { assigned: number; live: number }>> {
  const rows = await em().execute<{ id: string; assigned: number; live: string }[]>(
    `select a.id, a.assigned, count(r.id) as live from room_agents a
     left join room_runs r on r.agent_id = a.id and r.state in ('starting', 'running')
     where a.id in (?) group by a.id`,
    [agentIds],
  );
  return new Map(rows.map((row) => [row.id, { assigned: row.assigned, live: Number(row.live) }]));
}

describe('the rules', () => {
  it('declare a silent agent lost within the 15 s issue 15 allows', () => {
    expect(WORST_LOSS_DETECTION_MS).toBeLessThanOrEqual(15_000);
  });
});

describe('placement', () => {
  it('puts runs on the least loaded live agents of the room’s region only, in turns among equals', async () => {
    const now = new Date();
    const region = await newRegion();
    const elsewhere = await newRegion();
    const a = await newAgent(region.code, 4, now);
    const b = await newAgent(region.code, 4, now);
    const idle = await newAgent(elsewhere.code, 10, now);

    const rooms = await newRooms(region.id, 5);
    const placed: string[] = [];
    for (const room of rooms.slice(0, 4)) placed.push((await placeRun(em(), room, now)).run.agentId);
    // Equally loaded agents take turns, so four starts land two and two, never in the other region.
    expect(placed.filter((id) => id === a.id)).toHaveLength(2);
    expect(placed.filter((id) => id === b.id)).toHaveLength(2);
    expect(placed).not.toContain(idle.id);

    // A new, empty agent is the least loaded; load is the share of capacity, so a half-full small agent (1 of 2)
    // is as loaded as a half-full big one (2 of 4).
    const small = await newAgent(region.code, 2, now);
    const first = await placeRun(em(), rooms[4] as string, now);
    expect(first.run.agentId).toBe(small.id);
    expect(first.agentAddress).toBe(small.address);
    const [sixth] = await newRooms(region.id, 1);
    expect([a.id, b.id, small.id]).toContain((await placeRun(em(), sixth as string, now)).run.agentId);

    const loads = await liveRunsPerAgent([a.id, b.id, small.id, idle.id]);
    expect(loads.get(idle.id)).toEqual({ assigned: 0, live: 0 });
    expect([...loads.values()].reduce((sum, load) => sum + load.live, 0)).toBe(6);
  });

  it('fills exactly the free slots under 50 concurrent starts, never an agent over capacity', async () => {
    const now = new Date();
    const region = await newRegion();
    const agents = [
      await newAgent(region.code, 3, now),
      await newAgent(region.code, 2, now),
      await newAgent(region.code, 2, now),
    ];
    const rooms = await newRooms(region.id, 50);
    const results = await Promise.allSettled(rooms.map((room) => placeRun(em(), room, now)));

    const placed = results.filter((result) => result.status === 'fulfilled');
    expect(placed).toHaveLength(7);
    for (const result of results) {
      if (result.status === 'rejected') expect(codeOf(result.reason)).toBe('SERVER_FULL');
    }
    const loads = await liveRunsPerAgent(agents.map((agent) => agent.id));
    for (const agent of agents) {
      expect(loads.get(agent.id)).toEqual({ assigned: agent.capacity, live: agent.capacity });
    }
  });

  it('waits for an agent another transaction holds instead of calling the region full', async () => {
    const now = new Date();
    const region = await newRegion();
    const only = await newAgent(region.code, 5, now);
    const [room] = await newRooms(region.id, 1);
    let placement: Promise<unknown> | undefined;
    await em().transactional(async (tx) => {
      // The agent's row is held, as by its heartbeat or another start, while this start looks for a slot.
      await tx.execute('update room_agents set heartbeat_at = heartbeat_at where id = ?', [only.id]);
      placement = placeRun(em(), room as string, now).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(await placement).toMatchObject({ created: true, run: { agentId: only.id } });
  });

  it('gives a room started 20 times at once one live run', async () => {
    const now = new Date();
    const region = await newRegion();
    const agents = [await newAgent(region.code, 5, now), await newAgent(region.code, 5, now)];
    const [room] = await newRooms(region.id, 1);
    const results = await Promise.all(Array.from({ length: 20 }, () => placeRun(em(), room as string, now)));

    expect(new Set(results.map((result) => result.run.id)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const [runs] = await em().execute<{ n: string }[]>(
      'select count(*) as n from room_runs where room_id = ?',
      [room],
    );
    expect(Number(runs?.n)).toBe(1);
    const loads = await liveRunsPerAgent(agents.map((agent) => agent.id));
    expect([...loads.values()].map((load) => load.assigned).sort()).toEqual([0, 1]);
  });

  it('refuses a region without a live agent, or with every agent full, in words a person reads', async () => {
    const now = new Date();
    const region = await newRegion();
    const [first, second] = await newRooms(region.id, 2);
    const noAgents = await placeRun(em(), first as string, now).catch((error: unknown) => error);
    expect(codeOf(noAgents)).toBe('ROOMS_UNAVAILABLE');
    expect((noAgents as AppError).message).toMatch(/cannot start/);

    await newAgent(region.code, 1, now);
    await placeRun(em(), first as string, now);
    const full = await placeRun(em(), second as string, now).catch((error: unknown) => error);
    expect(codeOf(full)).toBe('SERVER_FULL');
    expect((full as AppError).message).toMatch(/as many rooms as it can/);
    expect(codeOf(await placeRun(em(), randomBytes(4).toString('hex'), now).catch((e: unknown) => e))).toBe(
      'ROOM_NOT_FOUND',
    );
  });

  it('gives no new runs to draining, lost or silent agents', async () => {
    const now = new Date();
    const region = await newRegion();
    const draining = await newAgent(region.code, 5, now);
    const silent = await newAgent(region.code, 5, seconds(now, -(AGENT_LOST_AFTER_MS / 1000) - 1));
    const lost = await newAgent(region.code, 5, now, 'lost.test:4100');
    await newAgent(region.code, 5, now, 'lost.test:4100'); // replaces `lost` at its address …
    expect((await agentById(em(), lost.id))?.state).toBe('lost');
    const replacement = (await em().execute<{ id: string }[]>(
      `select id from room_agents where address = 'lost.test:4100' and state = 'active'`,
    )) as { id: string }[];
    await setAgentDraining(em(), replacement[0]?.id as string, true); // … and drains at once
    expect(await setAgentDraining(em(), draining.id, true)).toBe(true);

    const [room] = await newRooms(region.id, 1);
    expect(codeOf(await placeRun(em(), room as string, now).catch((e: unknown) => e))).toBe(
      'ROOMS_UNAVAILABLE',
    );

    expect(await setAgentDraining(em(), draining.id, false)).toBe(true);
    expect((await placeRun(em(), room as string, now)).run.agentId).toBe(draining.id);
    expect(await setAgentDraining(em(), lost.id, false)).toBe(false); // a lost agent stays lost
    expect((await agentById(em(), silent.id))?.assigned).toBe(0);
  });
});

describe('epochs', () => {
  it('count a room’s runs up, across stops and losses', async () => {
    const now = new Date();
    const region = await newRegion();
    const a = await newAgent(region.code, 2, now);
    const [room] = await newRooms(region.id, 1);

    const epochs: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { run } = await placeRun(em(), room as string, now);
      epochs.push(run.epoch);
      expect(await endRun(em(), run.id, run.epoch, now)).toMatchObject({
        ok: true,
        run: { state: 'stopped' },
      });
    }
    const { run } = await placeRun(em(), room as string, now);
    epochs.push(run.epoch);
    await registerAgent(
      em(),
      { regionCode: region.code, address: a.address, capacity: 2, version: 'test' },
      now,
    );
    epochs.push((await placeRun(em(), room as string, now)).run.epoch);
    expect(epochs).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuse a write from a run the room has moved on from', async () => {
    const t0 = new Date();
    const region = await newRegion();
    const doomed = await newAgent(region.code, 2, t0);
    const [room] = await newRooms(region.id, 1);
    const first = (await placeRun(em(), room as string, t0)).run;
    expect(first.agentId).toBe(doomed.id);

    const t1 = seconds(t0, AGENT_LOST_AFTER_MS / 1000 + 1);
    const survivor = await newAgent(region.code, 2, t1);
    const sweep = await markLostAgents(em(), t1);
    expect(sweep.runs.map((run) => run.id)).toContain(first.id);
    const second = (await placeRun(em(), room as string, t1)).run;
    expect(second).toMatchObject({ agentId: survivor.id, epoch: 2 });

    // The old agent comes back from a network cut and reports its room stopped, or started.
    expect(await endRun(em(), first.id, 1, t1)).toEqual({ ok: false, reason: 'stale' });
    expect(await markRunRunning(em(), first.id, 1, t1)).toEqual({ ok: false, reason: 'stale' });
    expect(await endRun(em(), second.id, 1, t1)).toEqual({ ok: false, reason: 'stale' });
    expect((await liveRunOf(em(), room as string))?.id).toBe(second.id);

    expect(await markRunRunning(em(), second.id, 2, t1)).toMatchObject({
      ok: true,
      run: { state: 'running' },
    });
    expect(await endRun(em(), second.id, 2, t1)).toMatchObject({ ok: true });
    expect(await endRun(em(), second.id, 2, t1)).toEqual({ ok: false, reason: 'ended' });
    expect(await liveRunOf(em(), room as string)).toBeNull();
    expect((await agentById(em(), survivor.id))?.assigned).toBe(0);
  });
});

describe('heartbeats and the lost sweep', () => {
  it('renew the agent and its runs’ leases', async () => {
    const t0 = new Date();
    const region = await newRegion();
    const agent = await newAgent(region.code, 3, t0);
    const [room] = await newRooms(region.id, 1);
    const { run } = await placeRun(em(), room as string, t0);
    expect(run.leaseExpiresAt.getTime()).toBe(t0.getTime() + AGENT_LOST_AFTER_MS);

    const beat = await heartbeat(em(), agent.id, seconds(t0, 8));
    expect(beat).toMatchObject({ ok: true, state: 'active', runs: [{ id: run.id, epoch: 1 }] });
    expect((await liveRunOf(em(), room as string))?.leaseExpiresAt.getTime()).toBe(
      seconds(t0, 8).getTime() + AGENT_LOST_AFTER_MS,
    );

    // Without the heartbeat at 8 s, both would be lost at 15 s; with it, not until 10 s after it.
    const quiet = await markLostAgents(em(), seconds(t0, 15));
    expect(quiet.agentIds).not.toContain(agent.id);
    expect(quiet.runs.map((lost) => lost.id)).not.toContain(run.id);
    const later = await markLostAgents(em(), seconds(t0, 18.5));
    expect(later.agentIds).toContain(agent.id);
    expect(later.runs.find((lost) => lost.id === run.id)).toMatchObject({ roomId: room, state: 'lost' });
  });

  it('renew only the runs the agent says it has: one it never got lapses and is handed back', async () => {
    const t0 = new Date();
    const region = await newRegion();
    const agent = await newAgent(region.code, 3, t0);
    const [got, never] = await newRooms(region.id, 2);
    const { run: held } = await placeRun(em(), got as string, t0);
    // Placed, but its order never reached the agent (the control plane died in between).
    const { run: orphan } = await placeRun(em(), never as string, t0);

    const beat = await heartbeat(em(), agent.id, seconds(t0, 8), undefined, new Set([held.id]));
    expect(beat).toMatchObject({ ok: true, runs: [{ id: held.id }] });
    // It waited as "starting" for good: every heartbeat renewed it.
    const swept = await markLostAgents(em(), seconds(t0, 11));
    expect(swept.agentIds).toEqual([]);
    expect(swept.runs.map((lost) => lost.id)).toEqual([orphan.id]);
    expect((await liveRunOf(em(), got as string))?.id).toBe(held.id);
  });

  it('take many agents’ heartbeats in one batch, each answered as if alone', async () => {
    const t0 = new Date();
    const region = await newRegion();
    const [whole, naming, gone] = [
      await newAgent(region.code, 1, t0),
      await newAgent(region.code, 2, t0),
      await newAgent(region.code, 1, t0),
    ];
    const rooms = await newRooms(region.id, 4);
    const runs: TRun[] = [];
    for (const room of rooms) runs.push((await placeRun(em(), room, t0)).run);
    const runsOf = (agentId: string) => runs.filter((run) => run.agentId === agentId);
    expect(runsOf(naming.id)).toHaveLength(2);
    await markLostAgents(em(), seconds(t0, AGENT_LOST_AFTER_MS / 1000 - 2));
    // `gone` is lost before the batch (swept at 11 s while the other two spoke at 8 s).
    await heartbeats(
      em(),
      [whole.id, naming.id].map((agentId) => ({ agentId })),
      seconds(t0, 8),
    );
    const mine = (ids: string[]) => ids.filter((id) => [whole.id, naming.id, gone.id].includes(id));
    expect(mine((await markLostAgents(em(), seconds(t0, 11))).agentIds)).toEqual([gone.id]);

    const t1 = seconds(t0, 12);
    const answers = await heartbeats(
      em(),
      [
        { agentId: naming.id, held: new Set([runsOf(naming.id)[0]!.id]), report: { cpu: 0.5 } },
        { agentId: whole.id },
        { agentId: gone.id },
        { agentId: '00000000-0000-4000-8000-000000000000' },
        { agentId: 'not-an-id' },
      ],
      t1,
    );
    expect(answers).toEqual([
      { ok: true, state: 'active', runs: [expect.objectContaining({ id: runsOf(naming.id)[0]!.id })] },
      { ok: true, state: 'active', runs: [expect.objectContaining({ id: runsOf(whole.id)[0]!.id })] },
      { ok: false, reason: 'lost' },
      { ok: false, reason: 'not-found' },
      { ok: false, reason: 'not-found' },
    ]);
    expect(await agentById(em(), naming.id)).toMatchObject({ heartbeatAt: t1, report: { cpu: 0.5 } });
    // The run `naming` did not name was not renewed: it lapses at its 8 s lease, the named one lives on.
    const swept = await markLostAgents(em(), seconds(t0, 18.5));
    expect(mine(swept.agentIds)).toEqual([]);
    expect(swept.runs.filter((run) => rooms.includes(run.roomId)).map((run) => run.id)).toEqual([
      runsOf(naming.id)[1]!.id,
    ]);
  });

  it('mark an agent silent past the threshold lost with its runs, handed back once, and refuse its later beats', async () => {
    const t0 = new Date();
    const region = await newRegion();
    const talker = await newAgent(region.code, 4, t0);
    const mute = await newAgent(region.code, 4, t0);
    const rooms = await newRooms(region.id, 4);
    const runs = [];
    for (const room of rooms) runs.push((await placeRun(em(), room, t0)).run);
    const muteRooms = runs.filter((run) => run.agentId === mute.id).map((run) => run.roomId);
    expect(muteRooms).toHaveLength(2);

    const t1 = seconds(t0, AGENT_LOST_AFTER_MS / 1000 - 1);
    await heartbeat(em(), talker.id, t1);
    expect((await markLostAgents(em(), t1)).agentIds).not.toContain(mute.id);

    const t2 = seconds(t0, AGENT_LOST_AFTER_MS / 1000 + 0.5);
    const [sweep, concurrent] = await Promise.all([markLostAgents(em(), t2), markLostAgents(em(), t2)]);
    const handedBack = [...sweep.runs, ...concurrent.runs].filter((run) => rooms.includes(run.roomId));
    expect(handedBack.map((run) => run.roomId).sort()).toEqual([...muteRooms].sort());
    expect([...sweep.agentIds, ...concurrent.agentIds].filter((id) => id === mute.id)).toHaveLength(1);
    expect([...sweep.agentIds, ...concurrent.agentIds]).not.toContain(talker.id);
    expect(await agentById(em(), mute.id)).toMatchObject({ state: 'lost', assigned: 0 });
    expect((await agentById(em(), talker.id))?.assigned).toBe(2);

    expect(await heartbeat(em(), mute.id, t2)).toEqual({ ok: false, reason: 'lost' });
    // The lost rooms start again on the living agent, with the next epoch.
    for (const room of muteRooms) {
      expect((await placeRun(em(), room, t2)).run).toMatchObject({ agentId: talker.id, epoch: 2 });
    }
  });

  it('keep a lost room waiting to start again until a newer run exists or it is given up', async () => {
    const t0 = new Date();
    const region = await newRegion();
    const mute = await newAgent(region.code, 2, t0);
    const [comesBack, stoppedByOwner] = await newRooms(region.id, 2);
    const first = (await placeRun(em(), comesBack!, t0)).run;
    const second = (await placeRun(em(), stoppedByOwner!, t0)).run;
    const later = seconds(t0, AGENT_LOST_AFTER_MS / 1000 + 1);
    await markLostAgents(em(), later);
    expect((await lostRunOf(em(), comesBack!))?.run).toMatchObject({ id: first.id, state: 'lost' });
    expect((await lostRuns(em())).map((lost) => lost.run.id)).toEqual(
      expect.arrayContaining([first.id, second.id]),
    );

    const living = await newAgent(region.code, 2, later);
    expect((await placeRun(em(), comesBack!, later)).run).toMatchObject({ agentId: living.id, epoch: 2 });
    expect(await lostRunOf(em(), comesBack!)).toBeNull();

    await giveUpRun(em(), (await lostRunOf(em(), stoppedByOwner!))!.run);
    expect(await lostRunOf(em(), stoppedByOwner!)).toBeNull();
    expect((await em().findOneOrFail(Room, stoppedByOwner!)).state).toBe('stopped');
    const waiting = (await lostRuns(em())).map((lost) => lost.run.roomId);
    expect(waiting).not.toContain(comesBack);
    expect(waiting).not.toContain(stoppedByOwner);
    expect(mute.id).not.toBe(living.id);
  });

  it('lose the runs of an earlier agent at an address that registers again', async () => {
    const now = new Date();
    const region = await newRegion();
    const before = await newAgent(region.code, 2, now, 'restart.test:4100');
    const [room] = await newRooms(region.id, 1);
    const { run } = await placeRun(em(), room as string, now);
    expect(run.agentId).toBe(before.id);

    const again = await registerAgent(
      em(),
      { regionCode: region.code, address: 'restart.test:4100', capacity: 2, version: 'test' },
      now,
    );
    expect(again.lostRuns.map((lost) => lost.id)).toEqual([run.id]);
    expect(await agentById(em(), before.id)).toMatchObject({ state: 'lost', assigned: 0 });
    expect((await placeRun(em(), room as string, now)).run).toMatchObject({
      agentId: again.agent.id,
      epoch: 2,
    });
  });

  it('keep one address’s registrations in two zones side by side, each beating on', async () => {
    const now = new Date();
    const [first, second] = [await newRegion(), await newRegion()];
    const inFirst = await newAgent(first.code, 2, now, 'zones.test:4100');
    const [room] = await newRooms(first.id, 1);
    const { run } = await placeRun(em(), room as string, now);
    // The same process registers in its second zone: it used to lose the first zone's agent, and each zone's
    // next beat then found itself lost and registered again, losing the other, every heartbeat.
    const inSecond = await registerAgent(
      em(),
      { regionCode: second.code, address: 'zones.test:4100', capacity: 2, version: 'test' },
      now,
    );
    expect(inSecond.lostRuns).toEqual([]);
    const later = new Date(now.getTime() + 1000);
    expect(await heartbeat(em(), inFirst.id, later)).toMatchObject({ ok: true, runs: [{ id: run.id }] });
    expect(await heartbeat(em(), inSecond.agent.id, later)).toMatchObject({ ok: true, runs: [] });
  });
});

describe('pruning', () => {
  it('deletes ended runs and lost agents older than a day, but never what a room or a rule still reads', async () => {
    const day = 24 * 60 * 60 * 1000;
    const t0 = new Date(Date.now() - 3 * day);
    const region = await newRegion();
    const [room] = (await newRooms(region.id, 1)) as [string];
    // Three runs of the room on an agent that then retired, all three days ago; the third is the room's newest.
    const old = await newAgent(region.code, 1, t0);
    const runs: TRun[] = [];
    for (let index = 0; index < 3; index++) {
      const { run } = await placeRun(em(), room, t0);
      runs.push(run);
      if (index < 2) await endRun(em(), run.id, run.epoch, t0);
    }
    await retireAgent(em(), old.id, t0);
    // An agent lost three days ago that no run names.
    const idle = await newAgent(region.code, 1, t0);
    await retireAgent(em(), idle.id, t0);
    // One lost just now: kept for the day.
    const recent = await newAgent(region.code, 1, new Date());
    await retireAgent(em(), recent.id, new Date());

    let pruned = { runs: 0, agents: 0 };
    // In slices of one: what is left after each slice is pruned by the next.
    for (let slice = 0; slice < 50; slice++) {
      const step = await pruneFleet(em(), new Date(), 1);
      pruned = { runs: pruned.runs + step.runs, agents: pruned.agents + step.agents };
      if (step.runs === 0 && step.agents === 0) break;
    }
    const left = await em().execute<{ id: string }[]>('select id from room_runs where room_id = ?', [room]);
    expect(left.map((row) => row.id)).toEqual([runs[2]!.id]);
    expect(await agentById(em(), idle.id)).toBeNull();
    // The room's newest run names the old agent; the recent one is within the day.
    expect(await agentById(em(), old.id)).toMatchObject({ state: 'lost' });
    expect(await agentById(em(), recent.id)).toMatchObject({ state: 'lost' });
    expect(pruned.runs).toBeGreaterThanOrEqual(2);
    // The room's next start still counts on from its newest run.
    await newAgent(region.code, 1, new Date());
    expect((await placeRun(em(), room, new Date())).run.epoch).toBe(4);
  });
});
