// Every change to a user row written through the ORM, in any process (a purchase raising the level, an
// administrator's role or disable, a sign-in's last-login stamp), is announced after its flush, so no session
// cache serves the old account. Writes that bypass the ORM (nativeUpdate) announce themselves.
import type { EventSubscriber, MikroORM } from '@mikro-orm/postgresql';
import { User } from '@rooms/db';
import type { SessionEvents } from '../services/ports';

export function watchAccountChanges(
  orm: Pick<MikroORM, 'em'>,
  events: Pick<SessionEvents, 'accountChanged'>,
): void {
  const subscriber: EventSubscriber = {
    async afterFlush({ uow }) {
      const changed = new Set<string>();
      for (const change of uow.getChangeSets()) {
        if (change.entity instanceof User && change.type !== 'create') changed.add(change.entity.id);
      }
      for (const userId of changed) await events.accountChanged(userId);
    },
  };
  orm.em.getEventManager().registerSubscriber(subscriber);
}
