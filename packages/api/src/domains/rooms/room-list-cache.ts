// The dashboards' room lists kept in memory between polls (each open dashboard asks every few seconds). Evicted by
// every change that shows in a list, in every process: the database's triggers on rooms, zones and images
// announce each committed change (the session-event bus delivers them), whoever wrote it, raw state updates
// included; in the writing process, whose next read may come before that notice, the ORM's writes evict at their
// commit (so the one who created, edited or deleted a room sees it on their very next read) and the room sync's
// raw state updates evict as they are stored (roomsChanged).
import type { MikroORM } from '@mikro-orm/postgresql';
import { EVERY_ROOM_LIST, Region, Room, SystemImage } from '@rooms/db';
import { onCommittedChanges } from '../../cache/committed-changes';
import { ShortLivedCache } from '../../cache/short-lived-cache';
import type { TOwnedRoom } from './room-access';

export class RoomListCache extends ShortLivedCache<string, TOwnedRoom[]> {
  constructor(ttlMs = 10_000, maxEntries = 20_000, clock?: () => number) {
    super(ttlMs, maxEntries, clock);
  }

  /** Rooms whose rows this process wrote by raw SQL: the lists that hold them. */
  roomsChanged(roomIds: readonly string[]): void {
    this.forgetWhere((rooms) => rooms.some((room) => roomIds.includes(room.id)));
  }

  /** A trigger's word: an owner's id, or EVERY_ROOM_LIST. */
  changed(key: string): void {
    if (key === EVERY_ROOM_LIST) this.clear();
    else this.forget(key);
  }
}

/** Evicts at the commit of this process's ORM writes to rooms (their owner's list), zones and images (every list). */
export function watchRoomListWrites(orm: Pick<MikroORM, 'em'>, cache: RoomListCache): void {
  onCommittedChanges(
    orm,
    (change) => {
      if (change.entity instanceof Room) return change.entity.owner.id;
      if (change.entity instanceof Region || change.entity instanceof SystemImage) return EVERY_ROOM_LIST;
      return undefined;
    },
    (keys) => {
      for (const key of keys) cache.changed(key);
    },
  );
}
