/**
 * Vitest globalSetup: one PostgreSQL for the whole run, shared by the test files through inject().
 * TEST_DATABASE_URL (an admin URL such as postgres://postgres@127.0.0.1:5432/postgres) names an existing
 * server; otherwise an embedded one is started in a fresh temporary directory and removed at the end.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase, withDatabase } from '../database-admin';
import { startEmbeddedPostgres } from '../embedded-postgres';
import { freePort } from '../free-port';
import { initOrm, migrateAndSeed } from '../orm';
import type {} from './provided-context';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prefix = `test_${randomBytes(3).toString('hex')}_`;
  project.provide('pgDatabasePrefix', prefix);

  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const dropOurs = () => dropDatabasesStartingWith(external, prefix);
    project.provide('pgAdminUrl', external);
    try {
      project.provide('pgTemplateDatabase', await createTemplate(external, prefix));
    } catch (error) {
      // A template that failed to migrate must not stay behind on a server others use.
      await dropOurs();
      throw error;
    }
    return dropOurs;
  }

  const dir = await mkdtemp(path.join(tmpdir(), 'rooms-test-pg-'));
  // mkdtemp makes it 0700; when we run as root the server runs as `postgres` and must reach inside.
  await chmod(dir, 0o755);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(dir, 'data'),
    port: await freePort(),
    // Throw-away data: trade durability for speed.
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  });
  const stop = async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  project.provide('pgAdminUrl', server.adminUrl);
  try {
    project.provide('pgTemplateDatabase', await createTemplate(server.adminUrl, prefix));
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

/** Migrates and seeds the database every test database is copied from, and leaves no connection to it open. */
async function createTemplate(adminUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}template`;
  await createDatabase(adminUrl, name);
  const orm = await initOrm({ clientUrl: withDatabase(adminUrl, name), logger: () => {} });
  try {
    await migrateAndSeed(orm);
  } finally {
    await orm.close();
  }
  return name;
}

/** Test files drop their databases; this catches the ones a crashed or interrupted file left behind. */
async function dropDatabasesStartingWith(adminUrl: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) {
      await client.query(`drop database if exists ${client.escapeIdentifier(datname)} with (force)`);
    }
  } finally {
    await client.end();
  }
}
