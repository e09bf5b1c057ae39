// API speed over real HTTP: the signed-in reads every page makes (userinfo, the room list) over REST and tRPC
// under concurrency, each beside a bare Fastify route as the yardstick (the table's last column), and the login
// call, whose cost is dominated by argon2id. Runs the real server on a throw-away embedded PostgreSQL.
// With profile=DIR, each of our routes is loaded under the V8 CPU profiler (the server runs in this process) and
// its profile written to DIR/<route>.cpuprofile, with the functions costing the most printed; the profiler slows
// everything down, so such a run's table is not a measurement. Each route gets a second of unmeasured load first.
//   npm run bench:api [-- seconds concurrency profile=DIR]

import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Profiler, Runtime } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { solveChallenge } from '@rooms/api/captcha';
import { startEmbeddedPostgres, User } from '@rooms/db';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { parseEnv } from '../apps/server/src/env';
import { createArgon2Hasher } from '../apps/server/src/services/passwords/argon2-hasher';

const positional = process.argv.slice(2).filter((arg) => !arg.includes('='));
const named = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((arg) => arg.includes('='))
    .map((arg) => arg.split('=', 2) as [string, string]),
);
const seconds = Number(positional[0] ?? 5);
const concurrency = Number(positional[1] ?? 16);
const profileDir: string | undefined = named.profile;
const run = promisify(execFile);

/** Load from another process (autocannon), so the load generator does not share the server's CPU time. */
async function load(
  url: string,
  token: string | null,
  duration = seconds,
): Promise<{ rps: number; p50: number; p99: number }> {
  const args = ['autocannon', '-c', String(concurrency), '-d', String(duration), '-j'];
  if (token) args.push('-H', `authorization=${token}`);
  const { stdout } = await run('npx', [...args, url]);
  const result = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
  };
  if (result.non2xx > 0) throw new Error(`${url} answered ${result.non2xx} non-2xx responses`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * The functions with the most samples of their own (idle excluded) and, per package, the share of samples whose
 * stack passes through it at all (inclusive), which is what shows where a request's time goes.
 */
function topFunctions(profile: Profiler.Profile, count: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const hits = new Map<number, number>();
  for (const id of profile.samples ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
  const where = (frame: Runtime.CallFrame) => {
    const url = frame.url.replace(/^file:\/\//, '');
    const module = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
    if (module) return module;
    if (url.includes('/work/') || url.includes('/apps/') || url.includes('/packages/'))
      return url.replace(/.*\/(apps|packages|bench)\//, '$1/');
    return url || '(native)';
  };
  const own = new Map<string, number>();
  const packages = new Map<string, number>();
  let busy = 0;
  for (const [id, samples] of hits) {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    busy += samples;
    const frame = node.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${where(frame)}:${frame.lineNumber + 1}`;
    own.set(key, (own.get(key) ?? 0) + samples);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frameAt = byId.get(at)?.callFrame;
      if (!frameAt) continue;
      const pkg = where(frameAt).split(':')[0] ?? '';
      const group =
        pkg.startsWith('apps/') || pkg.startsWith('packages/') ? pkg.split('/').slice(0, 2).join('/') : pkg;
      if (!seen.has(group)) seen.add(group);
    }
    for (const group of seen) packages.set(group, (packages.get(group) ?? 0) + samples);
  }
  const pct = (samples: number) => `${((samples / busy) * 100).toFixed(1).padStart(5)} %`;
  const top = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, samples]) => `  ${pct(samples)}  ${key}`)
      .join('\n');
  return `self time:\n${top(own)}\ninclusive, by package:\n${top(packages)}`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'rooms-bench-'));
  await chmod(dir, 0o755);
  const pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: 5599,
    postgresFlags: ['-c', 'fsync=off'],
  });
  const app = await buildApp(
    parseEnv({
      DATABASE_URL: pg.url,
      APP_SECRET: 'b'.repeat(40),
      LOG_LEVEL: 'silent',
      SMTP_URL: 'smtp://127.0.0.1:9',
    }),
    { logger: false },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const em = app.orm.em.fork();
  em.create(User, {
    username: 'bench',
    email: 'bench@example.test',
    passwordHash: await createArgon2Hasher().hash('bench-secret'),
  });
  await em.flush();

  async function login(): Promise<{ token: string; ms: number }> {
    const challenge = (await (await fetch(`${base}/api/captcha/challenge`)).json()).data;
    const solution = await solveChallenge(challenge);
    const fields = (
      await (
        await fetch(`${base}/api/captcha/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(solution),
        })
      ).json()
    ).data;
    const started = performance.now();
    const reply = await fetch(`${base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.test', password: 'bench-secret', ...fields }),
    });
    const ms = performance.now() - started;
    const body = await reply.json();
    if (body.msg !== 'success') throw new Error(`login failed: ${body.data}`);
    return { token: body.data.token, ms };
  }

  const logins: number[] = [];
  let token = '';
  for (let i = 0; i < 8; i++) {
    const result = await login();
    logins.push(result.ms);
    token = result.token;
  }
  logins.sort((a, b) => a - b);

  // A room for getRoomList to find.
  await fetch(`${base}/api/room/createRoom`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: token },
    body: JSON.stringify({
      name: 'bench-room',
      region: 'local',
      image: 'chromium-url',
      startUrl: 'http://127.0.0.1:9/',
    }),
  });

  // The yardstick: a bare Fastify route on the same machine and Node, with nothing of ours in the way.
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ msg: 'success', data: { ok: true } }));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareAddress = bare.server.address();
  const bareUrl = `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0}/bare`;

  const routes: [string, string, boolean][] = [
    ['bare Fastify route', bareUrl, false],
    ['GET /healthz', `${base}/healthz`, false],
    ['REST userinfo', `${base}/api/user/userinfo`, true],
    ['REST getRoomList', `${base}/api/room/getRoomList`, true],
    ['tRPC user.userinfo', `${base}/trpc/user.userinfo`, true],
    ['tRPC room.getRoomList', `${base}/trpc/room.getRoomList`, true],
  ];
  const rows: {
    route: string;
    rps: number;
    p50: number;
    p99: number;
    cpuUs: number;
    sysUs: number;
    busy: number;
  }[] = [];
  const profiler = profileDir ? new Session() : null;
  if (profiler && profileDir) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
    await mkdir(profileDir, { recursive: true });
  }
  for (const [route, url, signedIn] of routes) {
    const profiled = profiler && route !== 'bare Fastify route';
    // A second of load first, unmeasured, so that no route (the bare one runs first) is timed while V8 still
    // compiles its code: in cold runs the yardstick came out below /healthz.
    await load(url, signedIn ? token : null, 1);
    if (profiled) await profiler.post('Profiler.start');
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    const result = await load(url, signedIn ? token : null);
    // The server's process time (user + system, every thread) per request, and the share of one core it used.
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const busy = cpuMs / (performance.now() - wallBefore);
    const requests = result.rps * seconds;
    rows.push({ route, ...result, cpuUs: (cpuMs * 1000) / requests, sysUs: cpu.system / requests, busy });
    if (profiled && profileDir) {
      const { profile } = await profiler.post('Profiler.stop');
      const file = join(profileDir, `${route.replace(/[^A-Za-z0-9.]+/g, '-')}.cpuprofile`);
      await writeFile(file, JSON.stringify(profile));
      console.log(`\n${route}: ${file}\n${topFunctions(profile, 25)}`);
    }
  }
  profiler?.disconnect();
  const bareRps = rows[0]?.rps ?? 1;

  console.log(
    `login (argon2id m=19MiB t=2), ${logins.length} calls: median ${percentile(logins, 50).toFixed(1)} ms, p95 ${percentile(logins, 95).toFixed(1)} ms`,
  );
  console.log(`\n${concurrency} connections for ${seconds} s each (autocannon in its own process):\n`);
  console.log(
    '| route | req/s | p50 ms | p99 ms | of bare | server CPU µs/req | of it in the kernel | server busy |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    console.log(
      `| ${row.route} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${((row.rps / bareRps) * 100).toFixed(0)} % | ${row.cpuUs.toFixed(0)} | ${row.sysUs.toFixed(0)} | ${(row.busy * 100).toFixed(0)} % |`,
    );
  }

  await bare.close();
  await app.close();
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}

await main();
