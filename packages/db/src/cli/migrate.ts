/** `npm run db:migrate`: applies pending migrations and the reference data. */
import { initOrm, migrateAndSeed } from '../orm';
import { databaseFromEnv } from './database-from-env';

const database = await databaseFromEnv();
try {
  const orm = await initOrm({ clientUrl: database.url });
  try {
    await migrateAndSeed(orm);
  } finally {
    await orm.close();
  }
} finally {
  await database.close();
}
