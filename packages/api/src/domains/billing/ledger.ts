// The prepaid balance: an append-only ledger in integer cents whose sum is the balance. Every entry carries a
// unique external key, so the same credit (a payment's out_trade_no) or debit cannot be written twice.
import type { EntityManager } from '@mikro-orm/postgresql';
import { BalanceEntry, type BalanceEntryKind, User } from '@rooms/db';

/** The balance as `em` sees it: inside a transaction, including that transaction's own entries. */
export async function balanceCents(em: EntityManager, userId: string): Promise<number> {
  const [row] = await em.execute<{ total: string | null }[]>(
    'select coalesce(sum(amount_cents), 0) as total from balance_entries where user_id = ?',
    [userId],
  );
  return Number(row?.total ?? 0);
}

/**
 * Locks the user's row until the transaction ends. Every change to a user's money or plan takes this lock first,
 * so two purchases (or a purchase and a renewal) by one person run one after the other, each seeing the balance
 * the other left: the ledger can never be overdrawn.
 */
export async function lockAccount(em: EntityManager, userId: string): Promise<User> {
  const [row] = await em.execute<{ id: string }[]>('select id from users where id = ? for update', [userId]);
  if (!row) throw new Error(`No user ${userId}`);
  return em.findOneOrFail(User, userId, { refresh: true });
}

export interface TLedgerEntry {
  userId: string;
  amountCents: number;
  kind: BalanceEntryKind;
  externalKey: string;
  note?: string;
}

/**
 * Appends an entry; returns false (and writes nothing) when an entry with this external key exists already.
 * The insert is `on conflict do nothing` rather than a caught error, so a duplicate does not abort the caller's
 * transaction.
 */
export async function appendEntry(em: EntityManager, entry: TLedgerEntry): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `insert into balance_entries (id, user_id, amount_cents, kind, external_key, note, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, now())
     on conflict (external_key) do nothing returning id`,
    [entry.userId, entry.amountCents, entry.kind, entry.externalKey, entry.note ?? null],
  );
  return rows.length > 0;
}

/** A user's entries, newest first (the statement). */
export function entriesOf(em: EntityManager, userId: string, limit = 50): Promise<BalanceEntry[]> {
  return em.find(BalanceEntry, { user: userId }, { orderBy: { createdAt: 'desc' }, limit });
}
