// Room lists (a dashboard's, polled every few seconds) are kept in the servers' memory between reads; these
// triggers are how every process learns that one changed, whoever wrote it (the ORM, a raw state update, the
// operator CLI): a room's row names its owner's list; a zone or image renamed or removed may touch any list.
import type { TriggerDef } from '@mikro-orm/core';

/** Where the database says that a room list changed: the payload is the owner's id, or '*' for every list. */
export const ROOM_LIST_CHANGED_CHANNEL = 'rooms_room_list_changed';
export const EVERY_ROOM_LIST = '*';

/** On rooms: the owner's list, on every insert, update and delete. */
export const ownerListChanged: TriggerDef = {
  name: 'room_list_changed',
  timing: 'after',
  events: ['insert', 'update', 'delete'],
  forEach: 'row',
  body: `perform pg_notify('${ROOM_LIST_CHANGED_CHANNEL}', coalesce(new.owner_id, old.owner_id)::text);
  return null`,
};

/** On the zones and images a list names: every list, when one is renamed or removed. */
export const everyListChanged: TriggerDef = {
  name: 'room_list_changed',
  timing: 'after',
  events: ['update', 'delete'],
  forEach: 'row',
  body: `perform pg_notify('${ROOM_LIST_CHANGED_CHANNEL}', '${EVERY_ROOM_LIST}');
  return null`,
};
