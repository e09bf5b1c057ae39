// Placement over a simulated fleet (issue 15): 100 agents of mixed capacity in 3 regions on a throw-away embedded
// PostgreSQL, heartbeating every 3 s, and 10,000 room starts made `concurrency` at a time with stops interleaved
// (a region kept near `fill` of its capacity, so slots are freed and taken again all along). Prints the time of
// each placement (median, p99), refusals, any agent ever found over its capacity (sampled from the runs themselves
// during the run, and checked again at the end) and the load spread per region.
//   npm run bench:placement [-- starts=10000 concurrency=8 agents=100 fill=0.95]

import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, fleet } from '@rooms/api';
import {
  freePort,
  initOrm,
  migrateAndSeed,
  Region,
  Room,
  SystemImage,
  startEmbeddedPostgres,
  User,
} from '@rooms/db';
import pg from 'pg';

const named = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((arg) => arg.includes('='))
    .map((arg) => arg.split('=', 2) as [string, string]),
);
const starts = Number(named.starts ?? 10_000);
const concurrency = Number(named.concurrency ?? 8);
const agentCount = Number(named.agents ?? 100);
const fill = Number(named.fill ?? 0.95);

/** Three regions of unequal size; agents' capacities cycle through machine sizes (rooms at 720p30). */
const regionShares = [
  { code: 'us-east', share: 0.45 },
  { code: 'eu-west', share: 0.35 },
  { code: 'ap-south', share: 0.2 },
];
const machineSizes = [4, 8, 12, 16, 24];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

interface TRegionState {
  code: string;
  id: string;
  capacity: number;
  idleRooms: string[];
  live: { runId: string; epoch: number; roomId: string }[];
}

/** Agents over capacity, counted from the live runs (not from the `assigned` column the trigger keeps). */
const OVER_CAPACITY = `select count(*)::int as over from room_agents a
  join (select agent_id, count(*) as live from room_runs where state in ('starting', 'running') group by agent_id) r
    on r.agent_id = a.id
  where r.live > a.capacity`;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rooms-bench-placement-'));
  await chmod(dir, 0o755);
  const postgres = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: await freePort(),
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  });
  const orm = await initOrm({ clientUrl: postgres.url, logger: () => {} });
  const sampler = new pg.Client({ connectionString: postgres.url });
  const timers: NodeJS.Timeout[] = [];
  try {
    await migrateAndSeed(orm);
    await sampler.connect();
    const em = () => orm.em.fork() as unknown as EntityManager;

    // The fleet: regions, agents, and for each region as many rooms as it has slots.
    const setup = em();
    const owner = setup.create(User, {
      username: 'bench',
      email: 'bench@example.test',
      passwordHash: 'unused',
    });
    const image = await setup.findOneOrFail(SystemImage, { kind: 'blank' });
    const regions: TRegionState[] = regionShares.map(({ code }) => {
      const region = setup.create(Region, { code, name: code });
      return { code, id: region.id, capacity: 0, idleRooms: [], live: [] };
    });
    await setup.flush();
    const agents: { id: string; region: TRegionState }[] = [];
    let assignedAgents = 0;
    for (const [index, { share }] of regionShares.entries()) {
      const region = regions[index] as TRegionState;
      const count =
        index === regionShares.length - 1 ? agentCount - assignedAgents : Math.round(agentCount * share);
      assignedAgents += count;
      for (let i = 0; i < count; i += 1) {
        const capacity = machineSizes[(index + i) % machineSizes.length] as number;
        const { agent } = await fleet.registerAgent(
          em(),
          { regionCode: region.code, address: `10.${index}.0.${i}:4100`, capacity, version: 'bench' },
          new Date(),
        );
        agents.push({ id: agent.id, region });
        region.capacity += capacity;
      }
      const rooms = em();
      for (let i = 0; i < region.capacity; i += 1) {
        const room = rooms.create(Room, {
          name: `${region.code}-${i}`,
          region: region.id,
          image,
          owner,
          startUrl: null,
          password: null,
          maxConnections: 4,
          width: 1280,
          height: 720,
          videoBitrateKbps: 2500,
          maxFrameRate: 30,
        });
        region.idleRooms.push(room.id);
      }
      await rooms.flush();
    }
    const totalCapacity = regions.reduce((sum, region) => sum + region.capacity, 0);
    console.log(
      `${agents.length} agents, ${totalCapacity} slots: ${regions
        .map(
          (region) =>
            `${region.code} ${agents.filter((a) => a.region === region).length} agents/${region.capacity} slots`,
        )
        .join(
          ', ',
        )}; ${starts} starts, ${concurrency} at a time, regions kept near ${Math.round(fill * 100)} % full`,
    );

    // Every agent heartbeats every 3 s, spread over the interval, as real ones would (each beat locks its row).
    for (const [index, agent] of agents.entries()) {
      const beat = () => void fleet.heartbeat(em(), agent.id, new Date());
      timers.push(
        setTimeout(
          () => timers.push(setInterval(beat, fleet.HEARTBEAT_INTERVAL_MS)),
          (index / agents.length) * fleet.HEARTBEAT_INTERVAL_MS,
        ),
      );
    }

    // The capacity rule, read from the database while the starts run.
    let samples = 0;
    let overSeen = 0;
    let sampling = true;
    const sampleLoop = (async () => {
      while (sampling) {
        const { rows } = await sampler.query<{ over: number }>(OVER_CAPACITY);
        samples += 1;
        overSeen += rows[0]?.over ?? 0;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const placeTimes: number[] = [];
    const stopTimes: number[] = [];
    let refused = 0;
    let stops = 0;
    let issued = 0;
    const pickRegion = () => {
      let at = Math.random() * totalCapacity;
      for (const region of regions) {
        at -= region.capacity;
        if (at < 0) return region;
      }
      return regions[regions.length - 1] as TRegionState;
    };
    const takeRandom = <T>(list: T[]): T | undefined => {
      if (list.length === 0) return undefined;
      const index = Math.floor(Math.random() * list.length);
      const [item] = list.splice(index, 1);
      return item;
    };

    const started = performance.now();
    const worker = async () => {
      while (issued < starts) {
        issued += 1;
        const region = pickRegion();
        // A region at its fill level stops one of its rooms first, so slots are freed and taken again.
        if (region.live.length >= region.capacity * fill || region.idleRooms.length === 0) {
          const victim = takeRandom(region.live);
          if (victim) {
            const at = performance.now();
            const ended = await fleet.endRun(em(), victim.runId, victim.epoch, new Date());
            stopTimes.push(performance.now() - at);
            if (!ended.ok) throw new Error(`Stopping ${victim.runId} was refused: ${ended.reason}`);
            stops += 1;
            region.idleRooms.push(victim.roomId);
          }
        }
        const roomId = takeRandom(region.idleRooms);
        if (!roomId) continue;
        const at = performance.now();
        try {
          const { run, created } = await fleet.placeRun(em(), roomId, new Date());
          placeTimes.push(performance.now() - at);
          if (!created) throw new Error(`Room ${roomId} was idle but had a live run`);
          region.live.push({ runId: run.id, epoch: run.epoch, roomId });
        } catch (error) {
          if (!(error instanceof AppError && error.appCode === 'SERVER_FULL')) throw error;
          placeTimes.push(performance.now() - at);
          refused += 1;
          region.idleRooms.push(roomId);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const elapsed = (performance.now() - started) / 1000;
    sampling = false;
    await sampleLoop;

    // The end state, from the database: nobody over capacity, `assigned` equal to the live runs it counts.
    const { rows: overAtEnd } = await sampler.query<{ over: number }>(OVER_CAPACITY);
    const { rows: drift } = await sampler.query<{ drift: number }>(
      `select count(*)::int as drift from room_agents a
       left join (select agent_id, count(*)::int as live from room_runs where state in ('starting', 'running')
                  group by agent_id) r on r.agent_id = a.id
       where a.assigned <> coalesce(r.live, 0)`,
    );
    const { rows: perAgent } = await sampler.query<{ code: string; assigned: number; capacity: number }>(
      `select g.code, a.assigned, a.capacity from room_agents a join regions g on g.id = a.region_id`,
    );

    placeTimes.sort((a, b) => a - b);
    stopTimes.sort((a, b) => a - b);
    console.log(
      `\n${placeTimes.length} placements in ${elapsed.toFixed(1)} s (${Math.round(placeTimes.length / elapsed)}/s), ` +
        `${stops} stops interleaved, ${refused} refused as full`,
    );
    console.log(
      `placement: median ${ms(percentile(placeTimes, 50))}, p99 ${ms(percentile(placeTimes, 99))}, ` +
        `max ${ms(placeTimes[placeTimes.length - 1] ?? Number.NaN)}`,
    );
    console.log(`stop:      median ${ms(percentile(stopTimes, 50))}, p99 ${ms(percentile(stopTimes, 99))}`);
    console.log(
      `over capacity: ${overSeen} agent-samples in ${samples} samples during the run, ${overAtEnd[0]?.over} at the end; ` +
        `agents whose assigned count differs from their live runs: ${drift[0]?.drift}`,
    );
    console.log(
      '\nload at the end     agents  rooms/slots  assigned max/mean  utilisation max/mean (min–max)',
    );
    for (const region of regions) {
      const rows = perAgent.filter((row) => row.code === region.code);
      const assigned = rows.map((row) => row.assigned);
      const used = rows.map((row) => row.assigned / row.capacity);
      const mean = (list: number[]) => list.reduce((sum, value) => sum + value, 0) / list.length;
      console.log(
        `${region.code.padEnd(20)}${String(rows.length).padStart(6)}  ${`${mean(assigned) * rows.length}/${region.capacity}`.padStart(11)}  ` +
          `${(Math.max(...assigned) / mean(assigned)).toFixed(2).padStart(17)}  ` +
          `${(Math.max(...used) / mean(used)).toFixed(2).padStart(20)} (${Math.min(...used).toFixed(2)}–${Math.max(...used).toFixed(2)})`,
      );
    }
    if (overSeen > 0 || (overAtEnd[0]?.over ?? 0) > 0 || (drift[0]?.drift ?? 0) > 0) {
      process.exitCode = 1;
      console.error('\nAn agent went over its capacity, or its count drifted from its runs.');
    }
  } finally {
    for (const timer of timers) clearInterval(timer);
    await sampler.end().catch(() => {});
    await orm.close();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
