import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { Room } from './room.entity';

/**
 * A person the room's owner removed: kept out by account and by guest browser (the signed cookie of
 * POST /ws/ticket) for the rest of the room's run, unless the owner lets them back in (the row goes). Never by
 * address, unlike a ban: a removal is for someone who should leave, not someone who must never return. Every
 * process reads them before it issues a ticket; rows live until the room stops (room-removal-ends.ts) or is deleted.
 */
const RoomRemovalSchema = defineEntity({
  name: 'RoomRemoval',
  tableName: 'room_removals',
  properties: {
    /** What the owner's "Let back in" names. */
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    room: () => p.manyToOne(Room).deleteRule('cascade').index(),
    /** The name they sat under, for the owner's list of removed people. */
    nickname: p.string().length(64),
    /** A plain id, not a reference: the account may go, the removal still names whoever signs in with it. */
    userId: p.uuid().nullable(),
    /** Every browser the person sat in (one per device). */
    guestIds: p.array().default([]),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class RoomRemoval extends RoomRemovalSchema.class {}
RoomRemovalSchema.setClass(RoomRemoval);
