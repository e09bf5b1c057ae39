// Every change to a user row written through the ORM, in any process (a purchase raising the level, an
// administrator's role or disable, a sign-in's last-login stamp), is announced once it is committed, so no session
// cache serves the old account. Writes that bypass the ORM (nativeUpdate) announce themselves.
import type { EntityManager, EventSubscriber, MikroORM } from '@mikro-orm/postgresql';
import { User } from '@rooms/db';
import type { SessionEvents } from '../services/ports';

export function watchAccountChanges(
  orm: Pick<MikroORM, 'em'>,
  events: Pick<SessionEvents, 'accountChanged'>,
): void {
  // Inside a transaction a flush is not yet visible to others: announced then, a cache could read the old row
  // again and keep it. Such changes wait for the commit (a release of a savepoint counts as one: rare, and the
  // cache's short lifetime covers it) and are dropped with a rollback.
  const uncommitted = new WeakMap<EntityManager, Set<string>>();
  const announce = async (userIds: Iterable<string>) => {
    for (const userId of userIds) await events.accountChanged(userId);
  };
  const subscriber: EventSubscriber = {
    async afterFlush({ em, uow }) {
      const changed = new Set<string>();
      for (const change of uow.getChangeSets()) {
        if (change.entity instanceof User && change.type !== 'create') changed.add(change.entity.id);
      }
      if (changed.size === 0) return;
      if (!em.isInTransaction()) return announce(changed);
      const pending = uncommitted.get(em as EntityManager) ?? new Set<string>();
      for (const userId of changed) pending.add(userId);
      uncommitted.set(em as EntityManager, pending);
    },
    async afterTransactionCommit({ em }) {
      const pending = uncommitted.get(em as EntityManager);
      if (!pending) return;
      uncommitted.delete(em as EntityManager);
      await announce(pending);
    },
    afterTransactionRollback({ em }) {
      uncommitted.delete(em as EntityManager);
    },
  };
  orm.em.getEventManager().registerSubscriber(subscriber);
}
