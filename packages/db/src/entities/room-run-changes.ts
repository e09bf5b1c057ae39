// Where each room runs is in room_runs. The control plane answers "does this room run, and where?" (a ticket, a
// start, the admin's list) from memory, for rooms on every agent; this trigger is how it learns each change,
// whichever process wrote it (placement, an agent, the lost sweep).
import type { TriggerDef } from '@mikro-orm/core';

/** Where the database says that a room's run changed: the payload is `<room id>:<agent id>:<run state>`. */
export const RUN_CHANGED_CHANNEL = 'rooms_run_changed';

/** On room_runs: a new run, or a run's state changed. */
export const runChanged: TriggerDef = {
  name: 'run_changed',
  timing: 'after',
  events: ['insert', 'update'],
  forEach: 'row',
  body: `if tg_op = 'INSERT' or new.state is distinct from old.state then
    perform pg_notify('${RUN_CHANGED_CHANNEL}', new.room_id::text || ':' || new.agent_id::text || ':' || new.state);
  end if;
  return null`,
};
