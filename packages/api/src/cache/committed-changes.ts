// What the ORM wrote, told once others can read it. Inside a transaction a flush is not yet visible to others:
// announced then, a cache could read the old row again and keep it. So such changes wait for the commit (the
// release of a savepoint counts as one: rare, and the caches' short lifetime covers it) and are dropped with a
// rollback. Writes that bypass the ORM (raw SQL) are not seen here: the tables' triggers announce those.
import type { ChangeSet, EntityManager, EventSubscriber, MikroORM } from '@mikro-orm/postgresql';

/**
 * Calls `committed` with the keys `pick` finds in the change sets of each flush, once they are committed.
 * `pick` returns undefined for a change that concerns no cache.
 */
export function onCommittedChanges<K>(
  orm: Pick<MikroORM, 'em'>,
  pick: (change: ChangeSet<object>) => K | undefined,
  committed: (keys: Set<K>) => void | Promise<void>,
): void {
  const uncommitted = new WeakMap<EntityManager, Set<K>>();
  const subscriber: EventSubscriber = {
    async afterFlush({ em, uow }) {
      const changed = new Set<K>();
      for (const change of uow.getChangeSets()) {
        const key = pick(change as ChangeSet<object>);
        if (key !== undefined) changed.add(key);
      }
      if (changed.size === 0) return;
      if (!em.isInTransaction()) return committed(changed);
      const pending = uncommitted.get(em as EntityManager) ?? new Set<K>();
      for (const key of changed) pending.add(key);
      uncommitted.set(em as EntityManager, pending);
    },
    async afterTransactionCommit({ em }) {
      const pending = uncommitted.get(em as EntityManager);
      if (!pending) return;
      uncommitted.delete(em as EntityManager);
      await committed(pending);
    },
    afterTransactionRollback({ em }) {
      uncommitted.delete(em as EntityManager);
    },
  };
  orm.em.getEventManager().registerSubscriber(subscriber);
}
