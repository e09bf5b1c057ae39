import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { createOrmConfig, type OrmOptions } from './orm-config';
import { DatabaseSeeder } from './seeders/database.seeder';

export { MikroORM };

export function initOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(createOrmConfig(options));
}

/**
 * The advisory lock every process of an install takes before migrating: one number for "rooms' schema", the same
 * in every version so an old and a new control plane exclude each other too.
 */
export const MIGRATION_LOCK_KEY = 0x726f6f6d73; // "rooms"

/**
 * Brings the schema up to date and (re)applies reference data; safe to run at every start, and from any number of
 * processes at once (a deployment's replicas start together): they take turns under a PostgreSQL advisory lock, so
 * the second finds the first one's work done instead of racing it to create the same tables.
 */
export async function migrateAndSeed(orm: MikroORM): Promise<void> {
  // Its own connection, held for the whole run: a session's advisory lock lasts as long as the session, and the
  // ORM's pool may run the migrations on any of its connections.
  const lock = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await orm.migrator.up();
    await orm.seeder.seed(DatabaseSeeder);
  } finally {
    // Ending the session releases the lock, also when a migration failed.
    await lock.end();
  }
}
