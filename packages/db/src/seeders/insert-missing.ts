// Seeded rows are inserted when their code is missing and left alone when present: after the first start they
// are the operator's data (limits are data, not code), and a change to a shipped row belongs in a migration.
import type { EntityManager } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/postgresql';

export type TSeedRow<T> = Omit<Partial<T>, 'id'> & { code: string };

/** `insert … on conflict (code) do nothing`: two servers starting at once cannot both insert a row. */
export async function insertMissing<T extends object>(
  em: EntityManager,
  entity: new () => T,
  rows: TSeedRow<T>[],
): Promise<void> {
  const sql = em as unknown as SqlEntityManager;
  for (const row of rows) {
    await sql
      .createQueryBuilder(entity)
      .insert({ id: crypto.randomUUID(), ...row } as never)
      .onConflict('code' as never)
      .ignore()
      .execute();
  }
}
