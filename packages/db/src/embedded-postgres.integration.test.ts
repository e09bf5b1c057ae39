import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres';
import { freePort } from './free-port';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const childScript = fileURLToPath(new URL('./testing/embedded-postgres-child.ts', import.meta.url));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rooms-embedded-pg-test-'));
  await chmod(dir, 0o755); // reachable by the `postgres` user the server runs as under root
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return path.join(dir, 'data');
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function postmasterPid(dataDir: string): Promise<number> {
  return Number.parseInt(
    (await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0] ?? '',
    10,
  );
}

/** A zombie (exited, not yet reaped by its new parent) counts as stopped. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** Starts the server from another Node process, as the app server would, and waits until it is ready. */
async function startInChild(dataDir: string, port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, dataDir, String(port)], {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit')])) as [string];
  if (typeof line !== 'string') throw new Error('the child process exited before the server was ready');
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

describe('startEmbeddedPostgres', () => {
  it('initialises the data directory once and keeps data across restarts', async () => {
    const dataDir = await scratchDir();
    const port = await freePort();

    const first = await startEmbeddedPostgres({ dataDir, port });
    cleanups.push(() => first.stop());
    expect(first.url).toMatch(new RegExp(`^postgres://postgres:[\\w-]{32}@127\\.0\\.0\\.1:${port}/rooms$`));
    await query(first.url, 'create table notes (body text); insert into notes values ($$kept$$)');
    await first.stop();
    expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);

    const second = await startEmbeddedPostgres({ dataDir, port });
    cleanups.push(() => second.stop());
    expect(await query(second.url, 'select body from notes')).toEqual([{ body: 'kept' }]);
  });

  it('recovers a data directory whose owning process was killed with SIGKILL', async () => {
    const dataDir = await scratchDir();
    const port = await freePort();
    const { child } = await startInChild(dataDir, port);
    const orphan = await postmasterPid(dataDir);

    child.kill('SIGKILL');
    await once(child, 'exit');
    // The crash leaves the postmaster running and its pid file in place.
    expect(isRunning(orphan)).toBe(true);

    const server = await startEmbeddedPostgres({ dataDir, port });
    cleanups.push(() => server.stop());
    expect(server.attached).toBe(false);
    expect(await query(server.url, 'select 1 as one')).toEqual([{ one: 1 }]);
    expect(await postmasterPid(dataDir)).not.toBe(orphan);
    expect(isRunning(orphan)).toBe(false);
  });

  it('starts over a postmaster.pid naming a process that is not its server', async () => {
    const dataDir = await scratchDir();
    const port = await freePort();
    await (await startEmbeddedPostgres({ dataDir, port })).stop();
    // As after a machine crash: the file survives and its PID now belongs to something else (here, us).
    await writeFile(path.join(dataDir, 'postmaster.pid'), `${process.pid}\n${dataDir}\n0\n${port}\n`);

    const server = await startEmbeddedPostgres({ dataDir, port });
    cleanups.push(() => server.stop());
    expect(await query(server.url, 'select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('shares a cluster that a live process is running instead of stopping it', async () => {
    const dataDir = await scratchDir();
    const port = await freePort();
    const { url } = await startInChild(dataDir, port);
    const running = await postmasterPid(dataDir);

    const shared = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    expect(shared.attached).toBe(true);
    expect(shared.url).toBe(url);
    expect(await query(shared.url, 'select 1 as one')).toEqual([{ one: 1 }]);
    await shared.stop();

    expect(await postmasterPid(dataDir)).toBe(running);
    expect(await query(url, 'select 1 as one')).toEqual([{ one: 1 }]);
  });
});
