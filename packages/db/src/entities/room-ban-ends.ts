// A ban lasts until the room stops ("Ban … until the room stops"): whoever stores the stop (the engine's state
// sync, an owner's or an administrator's stop, the operator CLI), the room's bans go with it, in the same
// transaction. A room the fleet starts again after losing its machine never passes through a stopped state, so
// its bans hold on the new run.
import type { TriggerDef } from '@mikro-orm/core';

/**
 * On rooms: the room's bans are deleted whenever its state crosses between ended (stopped, crashed) and live
 * (starting, running, stopping), either way. Going down ends the bans; coming up again clears any ban a hub
 * stored in the instant the room was stopping.
 */
export const roomBansEnd: TriggerDef = {
  name: 'room_bans_end',
  timing: 'after',
  events: ['update'],
  forEach: 'row',
  body: `if (new.state in ('stopped', 'crashed')) is distinct from (old.state in ('stopped', 'crashed')) then
    delete from room_bans where room_id = new.id;
  end if;
  return null`,
};
