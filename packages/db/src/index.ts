export { createDatabase, dropDatabase, withDatabase } from './database-admin';
export {
  defaultEmbeddedPostgresPort,
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  startEmbeddedPostgres,
  type TEmbeddedPostgresEvent,
} from './embedded-postgres';
export { ownedPostmasterOf, ownedPostmasters, type TOwnedPostmaster } from './embedded-postgres-processes';
export * from './entities';
export { freePort } from './free-port';
export { initOrm, MikroORM, migrateAndSeed } from './orm';
export { createOrmConfig, migrationsPath, type OrmOptions } from './orm-config';
export { planOf } from './plan-of';
export { ProcessSupervisor, type TSupervisionEvent, type TSupervisionOptions } from './process-supervisor';
export { DatabaseSeeder } from './seeders/database.seeder';
export { LOCAL_REGION_CODE } from './seeders/region.seeder';
