// The prepaid balance is the sum of an append-only ledger (integer cents).
import type { EntityManager } from '@mikro-orm/postgresql';

export async function balanceCents(em: EntityManager, userId: string): Promise<number> {
  const [row] = await em
    .getConnection()
    .execute<{ total: string | null }[]>(
      'select coalesce(sum(amount_cents), 0) as total from balance_entries where user_id = ?',
      [userId],
    );
  return Number(row?.total ?? 0);
}
