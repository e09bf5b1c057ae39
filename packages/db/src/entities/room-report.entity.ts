import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { Room } from './room.entity';
import { User } from './user.entity';

/**
 * A member's report about a room (sent from the public square or the room), kept for the administrator. The room's name is copied
 * so a report outlives the room it is about; the reporter is null for a guest who came by a shared link.
 */
const RoomReportSchema = defineEntity({
  name: 'RoomReport',
  tableName: 'room_reports',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    room: () => p.manyToOne(Room).nullable().deleteRule('set null').index(),
    roomName: p.string().length(32),
    reporter: () => p.manyToOne(User).nullable().deleteRule('set null'),
    reporterIp: p.string().length(64),
    reason: p.string().length(500),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
    /** Set when an administrator dealt with the report; open reports are the moderation queue. */
    resolvedAt: p.datetime().nullable(),
    /** What was done: dismiss, hide (from the square), stop (the room), disableOwner. */
    resolution: p.string().length(16).nullable(),
    resolvedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
  },
});

export class RoomReport extends RoomReportSchema.class {}
RoomReportSchema.setClass(RoomReport);
