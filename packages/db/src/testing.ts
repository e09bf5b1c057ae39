/**
 * Test helpers; each test file gets its own database on the run's PostgreSQL, a copy of the run's template (see
 * testing/global-setup.ts).
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase, dropDatabase, withDatabase } from './database-admin';
import { initOrm, type MikroORM } from './orm';
import type {} from './testing/provided-context';

export interface TestDatabase {
  /** URL of the new database, e.g. for the server's DATABASE_URL. */
  url: string;
  /** An initialised ORM on it, migrated and seeded. */
  orm: MikroORM;
  /** Closes `orm` and drops the database. */
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  if (!adminUrl) {
    throw new Error(
      "No test PostgreSQL: add 'packages/db/src/testing/global-setup.ts' to the Vitest project's globalSetup",
    );
  }
  const name = `${inject('pgDatabasePrefix')}${randomBytes(6).toString('hex')}`;
  const url = withDatabase(adminUrl, name);
  // A copy of the run's migrated and seeded template: ~0.1 s, where migrating each database took ~0.6 s.
  await createDatabase(adminUrl, name, inject('pgTemplateDatabase'));
  let orm: MikroORM | undefined;
  try {
    orm = await initOrm({ clientUrl: url, logger: () => {} });
  } catch (error) {
    await orm?.close();
    await dropDatabase(adminUrl, name);
    throw error;
  }
  const ready = orm;
  return {
    url,
    orm: ready,
    async drop() {
      await ready.close();
      await dropDatabase(adminUrl, name);
    },
  };
}
