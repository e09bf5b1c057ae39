// The committed profile of each keep-data room in PostgreSQL (`room_profiles`), written behind the epoch fence: a
// save commits only if no newer run of the room exists, neither as a newer saved profile nor in `room_runs` (where
// placement gives every start of the room the next epoch). The check and the write are one statement, so a run
// placed after the fence was passed can only be newer than the save it lets through, and its own saves win over it.
import { randomUUID } from 'node:crypto';
import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '@rooms/api';

export interface TCommittedProfile {
  epoch: number;
  key: string;
}

export type TProfileCommit = { ok: true } | { ok: false; reason: 'stale' | 'gone' };

/** The room's committed profile, or null when none was saved (or the room id is not a stored room's). */
export async function committedProfile(em: EntityManager, roomId: string): Promise<TCommittedProfile | null> {
  if (!isUuid(roomId)) return null;
  const [row] = await em.execute<{ epoch: number; object_key: string }[]>(
    'select epoch, object_key from room_profiles where room_id = ?',
    [roomId],
  );
  return row ? { epoch: row.epoch, key: row.object_key } : null;
}

/** Makes `key` the room's profile, saved by the run of `epoch`, unless the room has a newer run (`stale`) or is gone. */
export async function commitProfile(
  em: EntityManager,
  roomId: string,
  epoch: number,
  key: string,
  savedAt: Date,
): Promise<TProfileCommit> {
  if (!isUuid(roomId)) return { ok: false, reason: 'gone' };
  try {
    const rows = await em.execute<{ room_id: string }[]>(
      `insert into room_profiles (id, room_id, epoch, object_key, saved_at)
       select ?, ?, ?, ?, ?
       where not exists (select 1 from room_runs where room_id = ? and epoch > ?)
       on conflict (room_id) do update
         set epoch = excluded.epoch, object_key = excluded.object_key, saved_at = excluded.saved_at
         where room_profiles.epoch <= excluded.epoch
       returning room_id`,
      [randomUUID(), roomId, epoch, key, savedAt, roomId, epoch],
    );
    return rows.length > 0 ? { ok: true } : { ok: false, reason: 'stale' };
  } catch (error) {
    // The room was deleted while its profile was being saved (the foreign key to rooms).
    if (error instanceof ForeignKeyConstraintViolationException) return { ok: false, reason: 'gone' };
    throw error;
  }
}

/** Whether the room has a newer run than `epoch` (checked before uploading; the commit checks again). */
export async function isProfileStale(em: EntityManager, roomId: string, epoch: number): Promise<boolean> {
  if (!isUuid(roomId)) return false;
  const [row] = await em.execute<{ stale: boolean }[]>(
    `select exists (select 1 from room_runs where room_id = ? and epoch > ?)
         or exists (select 1 from room_profiles where room_id = ? and epoch > ?) as stale`,
    [roomId, epoch, roomId, epoch],
  );
  return row?.stale === true;
}

/** Forgets the room's committed profile. */
export async function forgetProfile(em: EntityManager, roomId: string): Promise<void> {
  if (!isUuid(roomId)) return;
  await em.execute('delete from room_profiles where room_id = ?', [roomId]);
}
