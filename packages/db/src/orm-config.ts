import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig } from '@mikro-orm/postgresql';
import { SeedManager } from '@mikro-orm/seeder';
import { entities } from './entities';
import { DatabaseSeeder } from './seeders/database.seeder';

/**
 * Absolute, so migrations are found whatever the working directory; found by the package's name, not this file's
 * location, because the server runs this file bundled into its own (apps/server/src/bundle.ts).
 */
export const migrationsPath = join(
  dirname(createRequire(import.meta.url).resolve('@rooms/db/package.json')),
  'src/migrations',
);

export interface OrmOptions {
  /** postgres://user:password@host:port/database */
  clientUrl: string;
  /** Log every query. */
  debug?: boolean;
  /** Where the ORM's own messages (queries when debugging, applied migrations) go; console.log by default. */
  logger?: (message: string) => void;
  /** Who the connections are in pg_stat_activity (e.g. `rooms-agent`): an operator sees who holds them. */
  applicationName?: string;
  /** The connection pool's bounds; the driver's defaults otherwise. */
  pool?: { min?: number; max?: number; idleTimeoutMillis?: number };
}

export function createOrmConfig({ clientUrl, debug = false, logger, pool, applicationName }: OrmOptions) {
  return defineConfig({
    clientUrl,
    ...(pool ? { pool } : {}),
    entities: [...entities],
    extensions: [Migrator, SeedManager],
    allowGlobalContext: false,
    debug,
    ...(logger ? { logger } : {}),
    // A database out of reach fails a request in seconds (503, try again) instead of holding it: connecting
    // gives up after 3 s, a query that gets no answer after 15 s.
    driverOptions: {
      connectionTimeoutMillis: 3000,
      query_timeout: 15_000,
      ...(applicationName ? { application_name: applicationName } : {}),
    },
    migrations: {
      path: migrationsPath,
      pathTs: migrationsPath,
      glob: '!(*.d).ts',
      emit: 'ts',
      // Migrations diff entities against a migrated database (see cli/create-migration.ts), so no
      // snapshot file: with one, every migrated database would write `.snapshot-<db>.json` here.
      snapshot: false,
    },
    seeder: {
      seedersList: [DatabaseSeeder],
    },
  });
}
