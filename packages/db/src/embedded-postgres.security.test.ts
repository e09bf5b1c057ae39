// Security review, finding 8: the embedded PostgreSQL's superuser must not keep the well-known password
// `postgres`. A new cluster gets a generated one, kept in its data directory readable by its owner only; a
// cluster made before (password `postgres`) is switched to a generated one when it starts, its data kept.
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres';
import { freePort } from './free-port';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function canLogIn(port: number, password: string): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

it('gives a new cluster a generated password kept in its data directory, and switches an old one to it', async () => {
  const scratch = await mkdtemp(path.join(tmpdir(), 'rooms-embedded-pg-secret-'));
  await chmod(scratch, 0o755); // reachable by the `postgres` user the server runs as under root
  cleanups.push(() => rm(scratch, { recursive: true, force: true }));
  const dataDir = path.join(scratch, 'data');
  const port = await freePort();

  const first = await startEmbeddedPostgres({ dataDir, port });
  cleanups.push(() => first.stop());
  const password = decodeURIComponent(new URL(first.url).password);
  expect(password).not.toBe('postgres');
  expect(password.length).toBeGreaterThanOrEqual(32);
  expect(await canLogIn(port, 'postgres')).toBe(false);
  expect(await canLogIn(port, password)).toBe(true);
  const file = path.join(dataDir, 'embedded-password');
  expect((await stat(file)).mode & 0o777).toBe(0o600);

  // A cluster from before this change: password `postgres`, no password file.
  await query(first.url, "create table notes (body text); insert into notes values ('kept')");
  await query(first.url, "alter user postgres password 'postgres'");
  await first.stop();
  await rm(file);

  const second = await startEmbeddedPostgres({ dataDir, port });
  cleanups.push(() => second.stop());
  const switched = decodeURIComponent(new URL(second.url).password);
  expect(switched).not.toBe('postgres');
  expect(await canLogIn(port, 'postgres')).toBe(false);
  expect(await canLogIn(port, switched)).toBe(true);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect(await query(second.url, 'select body from notes')).toEqual([{ body: 'kept' }]);
  await second.stop();

  // A restart keeps the same password.
  const third = await startEmbeddedPostgres({ dataDir, port });
  cleanups.push(() => third.stop());
  expect(third.url).toBe(second.url);
});
