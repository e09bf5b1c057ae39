// A removal lasts for the room's run, as a ban does (room-ban-ends.ts): whoever stores the stop, the room's
// removals go with it in the same transaction; a room the fleet starts again after losing its machine never passes
// through a stopped state, so its removals hold on the new run.
import type { TriggerDef } from '@mikro-orm/core';

/** On rooms: the room's removals are deleted whenever its state crosses between ended and live, either way. */
export const roomRemovalsEnd: TriggerDef = {
  name: 'room_removals_end',
  timing: 'after',
  events: ['update'],
  forEach: 'row',
  body: `if (new.state in ('stopped', 'crashed')) is distinct from (old.state in ('stopped', 'crashed')) then
    delete from room_removals where room_id = new.id;
  end if;
  return null`,
};
