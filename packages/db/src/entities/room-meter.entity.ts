import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { Room } from './room.entity';

/**
 * How far a room's running time has been charged to its owner's quota. Kept in the database so metering goes on
 * where it stopped after a restart, whichever server process runs the next tick.
 */
const RoomMeterSchema = defineEntity({
  name: 'RoomMeter',
  tableName: 'room_meters',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    room: () => p.manyToOne(Room).deleteRule('cascade').unique(),
    meteredUntil: p.datetime(),
  },
});

export class RoomMeter extends RoomMeterSchema.class {}
RoomMeterSchema.setClass(RoomMeter);
