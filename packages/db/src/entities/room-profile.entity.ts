import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { Room } from './room.entity';

/**
 * Where a keep-data room's saved browser profile is: the object-storage key of its newest archive and the epoch of
 * the run that saved it. Each save is a new object; this row is what commits it, and only while no newer run of the
 * room exists (here or in `room_runs`), so a late upload from a run the room has moved on from is never restored.
 */
const RoomProfileSchema = defineEntity({
  name: 'RoomProfile',
  tableName: 'room_profiles',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    room: () => p.manyToOne(Room).deleteRule('cascade').unique(),
    /** The epoch of the run that saved it; 0 for a room started outside the fleet. */
    epoch: p.integer(),
    objectKey: p.string().length(1024),
    savedAt: p.datetime(),
  },
  checks: [{ name: 'room_profiles_epoch_check', expression: 'epoch >= 0' }],
});

export class RoomProfile extends RoomProfileSchema.class {}
RoomProfileSchema.setClass(RoomProfile);
