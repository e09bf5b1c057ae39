// The fleet's control path at scale (issue 28): `agents` simulated agents with `rooms` runs each heartbeat every
// 3 s for `seconds`, through a real control plane process (`node apps/server/dist/server.mjs`, ROOM_ROLE=control)
// on a throw-away embedded PostgreSQL, each also following the control plane's notice relay as a real agent does.
// `history` lost agents and ended runs of two days ago lie in the tables, as a fleet's week would leave them. While
// it runs, the bench samples PostgreSQL's connections and committed transactions, the CPU of PostgreSQL and of the
// control plane, times the lost sweep every 2 s and `placements` room starts (placed and stopped again). Then it
// times the pruning of the history. `mode=direct` is the path before issue 28: each agent's heartbeat its own
// transaction straight to the database (from one pool here; in a fleet, each agent's own connections).
//   npm run build && npm run bench:fleet [-- agents=1000 rooms=10 seconds=60 history=500000 placements=500 mode=control]

import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { EntityManager } from '@mikro-orm/postgresql';
import { fleet } from '@rooms/api';
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
import { fleetAuthorization, issueCredential } from '../apps/server/src/fleet/fleet-credentials';
import { developmentSigningKey, publicKeyText } from '../apps/server/src/fleet/fleet-keys';

const named = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((arg) => arg.includes('='))
    .map((arg) => arg.split('=', 2) as [string, string]),
);
const agentCount = Number(named.agents ?? 1000);
const roomsPerAgent = Number(named.rooms ?? 10);
const seconds = Number(named.seconds ?? 60);
const history = Number(named.history ?? 500_000);
const placements = Number(named.placements ?? 500);
const mode = (named.mode ?? 'control') as 'control' | 'direct';
if (mode !== 'control' && mode !== 'direct') throw new Error('mode is control or direct');

const SERVER = fileURLToPath(new URL('../apps/server/dist/server.mjs', import.meta.url));
const APP_SECRET = 'bench-fleet-secret-that-is-long-enough-for-hmac';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** CPU seconds of a process (user + system), and with `children` those of its children it has waited for. */
async function cpuSeconds(pid: number, children = false): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = (index: number) => Number(fields[index - 3] ?? 0);
  return (ticks(14) + ticks(15) + (children ? ticks(16) + ticks(17) : 0)) / 100;
}

/** PostgreSQL's CPU: the postmaster, the children it has reaped, and those alive now. */
async function postgresCpu(postmaster: number): Promise<number> {
  let total = await cpuSeconds(postmaster, true);
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === postmaster) total += await cpuSeconds(Number(entry));
  }
  return total;
}

async function main(): Promise<void> {
  if (mode === 'control' && !existsSync(SERVER)) throw new Error(`no ${SERVER}: run npm run build first`);
  const dir = await mkdtemp(join(tmpdir(), 'rooms-bench-fleet-'));
  await chmod(dir, 0o755);
  const postgres = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: await freePort(),
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'max_connections=300'],
  });
  const orm = await initOrm({ clientUrl: postgres.url, logger: () => {}, pool: { max: 50 } });
  const sampler = new pg.Client({ connectionString: postgres.url, application_name: 'bench-sampler' });
  const timers: NodeJS.Timeout[] = [];
  const followers: AbortController[] = [];
  let control: ReturnType<typeof spawn> | undefined;
  try {
    await migrateAndSeed(orm);
    await sampler.connect();
    const em = () => orm.em.fork() as unknown as EntityManager;
    const { rows: backend } = await sampler.query<{ pid: number }>('select pg_backend_pid() as pid');
    const backendStat = await readFile(`/proc/${backend[0]!.pid}/stat`, 'utf8');
    const postmaster = Number(backendStat.slice(backendStat.lastIndexOf(')') + 2).split(' ')[1]);

    // The fleet: one zone, `agentCount` agents with room for their rooms and a few starts more.
    const setup = em();
    const owner = setup.create(User, {
      username: 'bench',
      email: 'bench@example.test',
      passwordHash: 'unused',
    });
    const image = await setup.findOneOrFail(SystemImage, { kind: 'blank' });
    const region = setup.create(Region, { code: 'bench', name: 'bench' });
    await setup.flush();
    const newRooms = async (count: number, prefix: string) => {
      const ids: string[] = [];
      for (let from = 0; from < count; from += 1000) {
        const batch = em();
        for (let index = from; index < Math.min(count, from + 1000); index++) {
          const room = batch.create(Room, {
            name: `${prefix}-${index}`,
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
          ids.push(room.id);
        }
        await batch.flush();
      }
      return ids;
    };

    // A week's history: lost agents and ended runs of two days ago, for the sweep to pass over and the pruning.
    const setupStarted = performance.now();
    if (history > 0) {
      const [historyRoom] = await newRooms(1, 'history');
      await sampler.query(
        `insert into room_agents (id, region_id, address, capacity, version, state, assigned, registered_at, heartbeat_at)
         select gen_random_uuid(), $1, '10.9.' || (n / 250) || '.' || (n % 250) || ':4100', 10, 'bench', 'lost', 0,
                now() - interval '2 days', now() - interval '2 days'
         from generate_series(1, $2) n`,
        [region.id, history],
      );
      await sampler.query(
        `insert into room_runs (id, room_id, agent_id, epoch, state, lease_expires_at, created_at, ended_at)
         select gen_random_uuid(), $1, a.id, row_number() over (), 'stopped', now() - interval '2 days',
                now() - interval '2 days', now() - interval '2 days'
         from room_agents a where a.state = 'lost'`,
        [historyRoom],
      );
      await sampler.query('analyze room_agents; analyze room_runs');
    }

    const agents: { id: string; runIds: string[] }[] = [];
    for (let index = 0; index < agentCount; index++) {
      const { agent } = await fleet.registerAgent(
        em(),
        {
          regionCode: 'bench',
          address: `10.${Math.floor(index / 250)}.${index % 250}.1:4100`,
          capacity: roomsPerAgent + 2,
          version: 'bench',
        },
        new Date(),
      );
      agents.push({ id: agent.id, runIds: [] });
    }
    const byId = new Map(agents.map((agent) => [agent.id, agent]));
    const rooms = await newRooms(agentCount * roomsPerAgent, 'room');
    // Kept alive until they beat by themselves (placement wants agents heard from within 10 s, and the sweep
    // would lose them while the control plane starts).
    let placing = true;
    const keepAlive = (async () => {
      while (placing) {
        await fleet.heartbeats(
          em(),
          agents.map((agent) => ({ agentId: agent.id })),
          new Date(),
        );
        await sleep(2000);
      }
    })();
    for (let from = 0; from < rooms.length; from += 8) {
      await Promise.all(
        rooms.slice(from, from + 8).map(async (roomId) => {
          const { run } = await fleet.placeRun(em(), roomId, new Date());
          byId.get(run.agentId)?.runIds.push(run.id);
        }),
      );
    }
    const spare = await newRooms(Math.max(1, Math.min(placements, agentCount)), 'spare');
    console.log(
      `fleet bench (${mode}): ${agentCount} agents × ${roomsPerAgent} rooms, ${history} lost agents and ended runs ` +
        `of history, set up in ${((performance.now() - setupStarted) / 1000).toFixed(0)} s; load ${loadavg()[0]?.toFixed(2)}`,
    );

    // The control plane, as a fleet runs it.
    let controlUrl = '';
    if (mode === 'control') {
      const port = await freePort();
      controlUrl = `http://127.0.0.1:${port}`;
      control = spawn(process.execPath, [SERVER], {
        env: {
          PATH: process.env.PATH,
          ROOM_ROLE: 'control',
          DATABASE_URL: postgres.url,
          APP_SECRET,
          PORT: String(port),
          HOST: '127.0.0.1',
          BILLING_JOBS: 'off',
          LOG_LEVEL: 'error',
          PUBLIC_URL: controlUrl,
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      let exited: number | null | undefined;
      control.once('exit', (code) => {
        exited = code;
      });
      for (let tries = 0; ; tries++) {
        if (exited !== undefined) throw new Error(`the control plane exited (${exited})`);
        const ready = await fetch(`${controlUrl}/healthz`).then(
          (response) => response.ok,
          () => false,
        );
        if (ready) break;
        if (tries > 120) throw new Error('the control plane did not come up in 60 s');
        await sleep(500);
      }
    }

    placing = false;
    await keepAlive;
    // The agents: each heartbeats every 3 s (spread over the interval) and follows the notice relay.
    // Each agent heartbeats with a credential naming its agent id, as its enrolment would give it, and signs each
    // call with its own key: the control plane checks both (the control plane derives the install's signing key
    // from APP_SECRET outside production, so the bench can issue them).
    const signingKey = developmentSigningKey(APP_SECRET);
    const credentials = new Map(
      agents.map((agent) => {
        const holder = generateKeyPairSync('ed25519');
        const claims = {
          role: 'agent' as const,
          sub: agent.id,
          key: publicKeyText(holder.publicKey),
          agents: [agent.id],
          address: null,
        };
        return [agent.id, { credential: issueCredential(signingKey, claims), key: holder.privateKey }];
      }),
    );
    const signed = (agentId: string, method: string, path: string) => {
      const { credential, key } = credentials.get(agentId)!;
      return fleetAuthorization(credential, key, { audience: 'control', method, path });
    };
    const beatTimes: number[] = [];
    let beatFailures = 0;
    const beat = async (agent: { id: string; runIds: string[] }) => {
      const at = performance.now();
      try {
        if (mode === 'direct') {
          const answer = await fleet.heartbeat(
            em(),
            agent.id,
            new Date(),
            { bench: true },
            new Set(agent.runIds),
          );
          if (!answer.ok) beatFailures++;
        } else {
          const response = await fetch(`${controlUrl}/fleet/heartbeats`, {
            method: 'POST',
            headers: {
              authorization: signed(agent.id, 'POST', '/fleet/heartbeats'),
              'content-type': 'application/json',
            },
            body: JSON.stringify({
              beats: [
                {
                  agentId: agent.id,
                  // About what a real agent reports: its load and a member count per room.
                  report: {
                    cpu: Math.random(),
                    memory: 0.4,
                    rooms: { used: agent.runIds.length, max: roomsPerAgent + 2 },
                    members: Object.fromEntries(agent.runIds.map((id) => [id, 3])),
                  },
                  held: agent.runIds,
                },
              ],
            }),
          });
          const body = (await response.json()) as { answers?: { ok: boolean }[] };
          if (!response.ok || !body.answers?.[0]?.ok) beatFailures++;
        }
        beatTimes.push(performance.now() - at);
      } catch {
        beatFailures++;
      }
    };
    let relayed = 0;
    const follow = async (agentId: string) => {
      const aborter = new AbortController();
      followers.push(aborter);
      try {
        const response = await fetch(`${controlUrl}/fleet/notices`, {
          headers: { authorization: signed(agentId, 'GET', '/fleet/notices') },
          signal: aborter.signal,
        });
        const reader = response.body!.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) relayed++;
      } catch {
        // Aborted at the end.
      }
    };
    for (const [index, agent] of agents.entries()) {
      if (mode === 'control') void follow(agent.id);
      timers.push(
        setTimeout(
          () => {
            void beat(agent);
            timers.push(setInterval(() => void beat(agent), fleet.HEARTBEAT_INTERVAL_MS));
          },
          (index / agents.length) * fleet.HEARTBEAT_INTERVAL_MS,
        ),
      );
    }
    // One beat round before measuring: every agent has spoken and every follower is connected.
    await sleep(fleet.HEARTBEAT_INTERVAL_MS + 2000);

    const counters = async () => {
      const { rows } = await sampler.query<{ commits: string; connections: number }>(
        `select (select xact_commit + xact_rollback from pg_stat_database where datname = current_database()) as commits,
                (select count(*)::int from pg_stat_activity where datname = current_database()) as connections`,
      );
      return {
        commits: Number(rows[0]!.commits),
        connections: rows[0]!.connections,
        postgres: await postgresCpu(postmaster),
        control: control?.pid ? await cpuSeconds(control.pid) : 0,
        at: performance.now(),
      };
    };
    const first = await counters();
    const connectionSamples: number[] = [];
    const sweepTimes: number[] = [];
    const placeTimes: number[] = [];
    let running = true;
    const sampleLoop = (async () => {
      while (running) {
        connectionSamples.push((await counters()).connections);
        await sleep(1000);
      }
    })();
    const sweepLoop = (async () => {
      while (running) {
        const at = performance.now();
        await fleet.markLostAgents(em(), new Date());
        sweepTimes.push(performance.now() - at);
        await sleep(fleet.LOST_SWEEP_INTERVAL_MS);
      }
    })();
    // Starts spread over the run, two at a time, each stopped again so the agents' slots stay free.
    const placeLoop = (async () => {
      const gap = (seconds * 1000) / Math.max(1, placements / 2);
      for (let index = 0; index < placements && running; index += 2) {
        await Promise.all(
          [0, 1].map(async (offset) => {
            const roomId = spare[(index + offset) % spare.length]!;
            const at = performance.now();
            const { run } = await fleet.placeRun(em(), roomId, new Date());
            placeTimes.push(performance.now() - at);
            await fleet.endRun(em(), run.id, run.epoch, new Date());
          }),
        );
        await sleep(gap);
      }
    })();
    await sleep(seconds * 1000);
    running = false;
    await Promise.all([sampleLoop, sweepLoop, placeLoop]);
    const last = await counters();
    const elapsedS = (last.at - first.at) / 1000;

    const tps = (last.commits - first.commits) / elapsedS;
    console.log(
      `\nover ${elapsedS.toFixed(0)} s (load at the end ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}):`,
    );
    console.log(
      `  PostgreSQL connections: max ${Math.max(...connectionSamples)}, median ${percentile(connectionSamples, 50)} ` +
        '(the bench holds 1 sampler and up to 50 of its own pool for the sweep and placements)',
    );
    console.log(
      `  transactions: ${tps.toFixed(0)}/s (all of them, the bench's own sweeps and placements included)`,
    );
    console.log(
      `  CPU: PostgreSQL ${(((last.postgres - first.postgres) / elapsedS) * 100).toFixed(1)} % of a core` +
        (control
          ? `, the control plane ${(((last.control - first.control) / elapsedS) * 100).toFixed(1)} %`
          : ''),
    );
    console.log(
      `  heartbeats: ${beatTimes.length} answered (${(beatTimes.length / elapsedS).toFixed(0)}/s), ${beatFailures} failed, ` +
        `p50 ${ms(percentile(beatTimes, 50))}, p99 ${ms(percentile(beatTimes, 99))}` +
        (mode === 'control' ? `; ${followers.length} followers of the notice relay, ${relayed} reads` : ''),
    );
    console.log(
      `  lost sweep: ${sweepTimes.length} sweeps, p50 ${ms(percentile(sweepTimes, 50))}, p99 ${ms(percentile(sweepTimes, 99))}, ` +
        `max ${ms(Math.max(...sweepTimes))} (with ${history} lost agents in the table)`,
    );
    console.log(
      `  placement: ${placeTimes.length} starts, p50 ${ms(percentile(placeTimes, 50))}, p99 ${ms(percentile(placeTimes, 99))}`,
    );

    // The history goes in slices, as the control plane prunes it once a minute.
    if (history > 0) {
      const sliceTimes: number[] = [];
      let pruned = { runs: 0, agents: 0 };
      for (;;) {
        const at = performance.now();
        const slice = await fleet.pruneFleet(em(), new Date());
        sliceTimes.push(performance.now() - at);
        pruned = { runs: pruned.runs + slice.runs, agents: pruned.agents + slice.agents };
        if (slice.runs + slice.agents === 0) break;
      }
      const afterSweep: number[] = [];
      for (let index = 0; index < 5; index++) {
        const at = performance.now();
        await fleet.markLostAgents(em(), new Date());
        afterSweep.push(performance.now() - at);
      }
      // The control plane prunes a slice a minute too: what it left is pruned here.
      console.log(
        `  pruning: ${pruned.runs} runs and ${pruned.agents} agents in ${sliceTimes.length} slices, ` +
          `p50 ${ms(percentile(sliceTimes, 50))}, max ${ms(Math.max(...sliceTimes))} a slice; ` +
          `the sweep afterwards ${ms(percentile(afterSweep, 50))}`,
      );
    }
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const aborter of followers) aborter.abort();
    if (control && control.exitCode === null) {
      control.kill('SIGTERM');
      await new Promise((resolve) => control!.once('exit', resolve));
    }
    await sampler.end().catch(() => {});
    await orm.close(true);
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
