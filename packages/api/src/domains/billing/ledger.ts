// The prepaid balance: an append-only ledger in integer cents whose sum is the balance. Every entry carries a
// unique external key, so the same credit (a payment's out_trade_no) or debit cannot be written twice.
import type { EntityManager, EventSubscriber, MikroORM } from '@mikro-orm/postgresql';
import { BalanceEntry, type BalanceEntryKind, User } from '@rooms/db';
import { ShortLivedCache } from '../../cache/short-lived-cache';

/** The balance as `em` sees it: inside a transaction, including that transaction's own entries. */
export async function balanceCents(em: EntityManager, userId: string): Promise<number> {
  const [row] = await em.execute<{ total: string | null }[]>(
    'select coalesce(sum(amount_cents), 0) as total from balance_entries where user_id = ?',
    [userId],
  );
  return Number(row?.total ?? 0);
}

/**
 * Balances kept between reads (the profile asks on every page). A trigger on the ledger announces each committed
 * write to every process (the session-event bus evicts on it); in the writing process the eviction also happens
 * at the commit itself (`watchLedgerWrites`), so whoever paid sees the new balance on the very next read.
 */
export class BalanceCache extends ShortLivedCache<string, number> {
  constructor(ttlMs = 10_000, maxEntries = 20_000, clock?: () => number) {
    super(ttlMs, maxEntries, clock);
  }
}

/**
 * The committed balance, from the cache when it has it: for reads outside a transaction (the profile). The entity
 * manager comes from a function, called only on a miss, so a cached read does not fork one.
 */
export function committedBalanceCents(
  em: () => EntityManager,
  userId: string,
  cache: BalanceCache,
): Promise<number> {
  return cache.through(userId, () => balanceCents(em(), userId));
}

/** Users whose ledger a still-open transaction wrote, by the transaction's entity manager. */
const uncommittedWrites = new WeakMap<EntityManager, Set<string>>();

/**
 * Tells `committed` of each user whose ledger changed, once the writing transaction has committed (never after a
 * rollback). Inside a savepoint the news comes at its release, before the outer commit: the trigger's notice,
 * sent at the real commit, evicts again.
 */
export function watchLedgerWrites(orm: Pick<MikroORM, 'em'>, committed: (userId: string) => void): void {
  const subscriber: EventSubscriber = {
    afterTransactionCommit({ em }) {
      const users = uncommittedWrites.get(em as EntityManager);
      if (!users) return;
      uncommittedWrites.delete(em as EntityManager);
      for (const userId of users) committed(userId);
    },
    afterTransactionRollback({ em }) {
      uncommittedWrites.delete(em as EntityManager);
    },
  };
  orm.em.getEventManager().registerSubscriber(subscriber);
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
  // In a transaction of its own when it has none, so that its commit is seen (watchLedgerWrites).
  if (!em.isInTransaction()) return em.transactional((tx) => appendEntry(tx, entry));
  const written = uncommittedWrites.get(em) ?? new Set<string>();
  written.add(entry.userId);
  uncommittedWrites.set(em, written);
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
