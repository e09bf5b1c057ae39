// Every change to a user row written through the ORM, in any process (a purchase raising the level, an
// administrator's role or disable, a sign-in's last-login stamp), is announced once it is committed, so no session
// cache serves the old account. Writes that bypass the ORM (nativeUpdate) announce themselves.
import type { MikroORM } from '@mikro-orm/postgresql';
import { User } from '@rooms/db';
import { onCommittedChanges } from '../../cache/committed-changes';
import type { SessionEvents } from '../../services/ports';

export function watchAccountChanges(
  orm: Pick<MikroORM, 'em'>,
  events: Pick<SessionEvents, 'accountChanged'>,
): void {
  onCommittedChanges(
    orm,
    (change) => (change.entity instanceof User && change.type !== 'create' ? change.entity.id : undefined),
    async (userIds) => {
      for (const userId of userIds) await events.accountChanged(userId);
    },
  );
}
