/**
 * `npm run db:migration:create [-- <name>]`: writes a migration for the difference between the entities
 * and the schema the committed migrations produce. That schema is built in a scratch database (on the
 * `DATABASE_URL` server, or the embedded one), so a local database that has drifted does not leak in.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createDatabase, dropDatabase, withDatabase } from '../database-admin';
import { initOrm } from '../orm';
import { migrationsPath } from '../orm-config';
import { databaseFromEnv } from './database-from-env';

const name = process.argv[2];
const server = await databaseFromEnv();
const scratch = `migration_scratch_${randomBytes(4).toString('hex')}`;
try {
  await createDatabase(server.url, scratch);
  const orm = await initOrm({ clientUrl: withDatabase(server.url, scratch) });
  try {
    await orm.migrator.up();
    const { fileName, diff } = await orm.migrator.create(undefined, false, false, name);
    console.log(
      fileName
        ? `Created ${path.join(migrationsPath, fileName)} (${diff.up.length} statements)`
        : 'No changes.',
    );
  } finally {
    await orm.close();
  }
} finally {
  await dropDatabase(server.url, scratch);
  await server.close();
}
