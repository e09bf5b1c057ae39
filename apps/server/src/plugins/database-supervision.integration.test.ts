// The server on its embedded PostgreSQL (`npm start` without DATABASE_URL) when that PostgreSQL is killed under it
// (kill -9 of its postmaster): the server notices, starts it again (PostgreSQL recovers from its WAL), reconnects,
// and serves the same data again by itself; its log says why the database went and that it came back.
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, initOrm, type MikroORM, migrateAndSeed, startEmbeddedPostgres } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killServerProcesses, startServerProcess, type TServerProcess } from '../testing/server-processes';
import { storedUser } from '../testing/stored-accounts';

let base: string;
let dataDir: string;
let server: TServerProcess;
let token: string;
/** Everything the server logged (each request refused meanwhile logs a warning: more than its own log tail keeps). */
let logged = '';

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'rooms-pg-supervision-'));
  await chmod(base, 0o755); // the postgres user PostgreSQL runs as under root must reach its directory
  dataDir = join(base, 'data');
  const pgPort = await freePort();
  // The install's database as a previous run of the server left it (migrated), with an owner signed in.
  const embedded = await startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres'), port: pgPort });
  let orm: MikroORM | undefined;
  try {
    orm = await initOrm({ clientUrl: embedded.url, logger: () => {} });
    await migrateAndSeed(orm);
    token = (await storedUser(orm, { prefix: 'pgsup' })).token;
  } finally {
    await orm?.close();
    await embedded.stop();
  }
  server = await startServerProcess('server', {
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    ROOMS_DATA_DIR: join(dataDir, 'rooms'),
    APP_SECRET: 's'.repeat(40),
    BILLING_JOBS: 'off',
    ROOM_WARM_POOL: '0',
  });
  for (const stream of [server.child.stdout, server.child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      logged += chunk.toString();
    });
  }
}, 180_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  killServerProcesses();
  if (base) await rm(base, { recursive: true, force: true });
}, 60_000);

async function postmasterPid(): Promise<number> {
  const pidFile = await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '');
  return Number.parseInt(pidFile.split('\n')[0] ?? '', 10);
}

let created = 0;
/** How each try was answered (status → count). */
const answers = new Map<number, number>();
/** A write (a new room): it needs the database itself, where reads may be answered from the server's caches. */
async function createRoom(): Promise<number> {
  created += 1;
  const reply = await fetch(`${server.url}/api/room/createRoom`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `after-kill-${created}`,
      region: 'local',
      image: 'chromium-url',
      startUrl: 'http://127.0.0.1:9/',
    }),
  });
  answers.set(reply.status, (answers.get(reply.status) ?? 0) + 1);
  return reply.status;
}

describe('the embedded PostgreSQL killed under the server', () => {
  it('is started again with crash recovery, and the server serves again by itself', async () => {
    expect(await createRoom()).toBe(200);
    const killed = await postmasterPid();
    expect(killed).toBeGreaterThan(0);

    process.kill(killed, 'SIGKILL');
    const killedAt = performance.now();
    // Served again by a new postmaster (a request right after the kill may still reach a dying backend). Generous:
    // the time it takes is measured (and reported), not asserted.
    const servedByNewPostmaster = async () => {
      const pid = await postmasterPid();
      return pid > 0 && pid !== killed && (await createRoom()) === 200;
    };
    await expect.poll(servedByNewPostmaster, { timeout: 90_000, interval: 250 }).toBe(true);
    const servedAgainMs = performance.now() - killedAt;
    // Meanwhile the server said it was briefly unavailable, never that it failed.
    expect([...answers.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([]);

    // The log says why and that it came back.
    await expect.poll(() => logged).toContain('the embedded PostgreSQL was killed by SIGKILL');
    await expect.poll(() => logged).toContain('the embedded PostgreSQL runs again');
    const said = logged
      .split('\n')
      .filter((line) => line.includes('the embedded PostgreSQL'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    console.log(
      `[pg-supervision] served again ${Math.round(servedAgainMs)} ms after kill -9 of the postmaster ` +
        `(answers: ${[...answers].map(([status, count]) => `${count} × ${status}`).join(', ')}); the log:\n` +
        said.join('\n'),
    );
  }, 120_000);
});
