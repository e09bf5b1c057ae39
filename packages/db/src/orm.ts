import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig, type OrmOptions } from './orm-config';
import { DatabaseSeeder } from './seeders/database.seeder';

export { MikroORM };

export function initOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(createOrmConfig(options));
}

/** Brings the schema up to date and (re)applies reference data; safe to run at every start. */
export async function migrateAndSeed(orm: MikroORM): Promise<void> {
  await orm.migrator.up();
  await orm.seeder.seed(DatabaseSeeder);
}
