import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { Room } from './room.entity';

/**
 * One seat of a person the room's owner banned: the account, the guest browser (the signed cookie of
 * POST /ws/ticket) and the address it sat with. Every process reads them before it issues a ticket, so the ban
 * holds whichever server is asked; the hub that made it keeps it in memory for the sockets it serves. Rows live
 * until the room stops (room-ban-ends.ts) or is deleted.
 */
const RoomBanSchema = defineEntity({
  name: 'RoomBan',
  tableName: 'room_bans',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    room: () => p.manyToOne(Room).deleteRule('cascade').index(),
    /** A plain id, not a reference: the account may go, the ban still names whoever signs in with it. */
    userId: p.uuid().nullable(),
    guestId: p.string().length(64).nullable(),
    ip: p.string().length(64).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class RoomBan extends RoomBanSchema.class {}
RoomBanSchema.setClass(RoomBan);
