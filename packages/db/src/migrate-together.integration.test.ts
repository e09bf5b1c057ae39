// A deployment's control planes start together: on an empty database every one of them must come up, none racing
// another to create the same tables (issue 28: "duplicate key value violates unique constraint
// pg_type_typname_nsp_index" crashed one of two).
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase, withDatabase } from './database-admin';
import { Plan } from './index';
import { initOrm, type MikroORM, migrateAndSeed } from './orm';
import type {} from './testing/provided-context';

const adminUrl = inject('pgAdminUrl');
const name = `${inject('pgDatabasePrefix')}together_${randomBytes(4).toString('hex')}`;
const orms: MikroORM[] = [];

afterAll(async () => {
  await Promise.all(orms.map((orm) => orm.close(true)));
  await dropDatabase(adminUrl, name);
});

describe('migrations from processes that start together', () => {
  it('bring an empty database up once, and every starter comes up', async () => {
    await createDatabase(adminUrl, name);
    const url = withDatabase(adminUrl, name);
    for (let index = 0; index < 4; index++) orms.push(await initOrm({ clientUrl: url, logger: () => {} }));
    const results = await Promise.allSettled(orms.map((orm) => migrateAndSeed(orm)));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const executed = await orms[0]!.migrator.getExecuted();
    // Each migration applied exactly once, and the seeds not doubled.
    expect(new Set(executed.map((migration) => migration.name)).size).toBe(executed.length);
    expect(await orms[0]!.migrator.getPending()).toEqual([]);
    const plans = await orms[0]!.em.fork().find(Plan, {});
    expect(new Set(plans.map((plan) => plan.name)).size).toBe(plans.length);
  });
});
