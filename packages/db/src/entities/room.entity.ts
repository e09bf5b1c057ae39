import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { Region } from './region.entity';
import { roomBansEnd } from './room-ban-ends';
import { ownerListChanged } from './room-list-changes';
import { roomRemovalsEnd } from './room-removal-ends';
import { SystemImage } from './system-image.entity';
import { User } from './user.entity';

/** What the engine last reported for the room's browser; a node that restarts marks its rooms stopped. */
export const roomStates = ['stopped', 'starting', 'running', 'stopping', 'crashed'] as const;
export type RoomState = (typeof roomStates)[number];

/**
 * A room: one server-side browser its owner starts and stops, shared with participants.
 * Its limits were checked against the owner's plan when it was created; the launch clamps them to the plan
 * held at start time.
 */
const RoomSchema = defineEntity({
  name: 'Room',
  tableName: 'rooms',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    /** Globally unique regardless of case (see the index below): share links and lookups go by name. */
    name: p.string().length(32),
    remark: p.string().length(200).default(''),
    /**
     * The share password's argon2id hash; null when none is set. A row from before share passwords were hashed
     * holds the plain text until the server's start hashes it.
     */
    password: p.string().length(255).nullable(),
    /** The share password sealed with the app secret, for its owner's view and share links (packages/api). */
    passwordSealed: p.text().nullable(),
    /** The knock link's token: with it anyone may ask to be let in; null while the owner has knocking off. */
    knockToken: p.string().length(64).nullable(),
    state: p.enum(roomStates).default('stopped'),
    isPublic: p.boolean().default(false),
    /** Taken off the public square by an administrator (moderation); the owner's own setting stays as it was. */
    hiddenFromSquare: p.boolean().default(false),
    region: () => p.manyToOne(Region),
    image: () => p.manyToOne(SystemImage),
    /** The start address for 'url' images; null otherwise. */
    startUrl: p.string().length(2048).nullable(),
    maxConnections: p.integer(),
    width: p.integer(),
    height: p.integer(),
    videoBitrateKbps: p.integer(),
    maxFrameRate: p.integer(),
    keepData: p.boolean().default(false),
    autoClose: p.boolean().default(true),
    autoCloseMinutes: p.integer().default(20),
    owner: () => p.manyToOne(User).deleteRule('cascade').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastStartedAt: p.datetime().nullable(),
  },
  uniques: [
    {
      name: 'rooms_name_lower_unique',
      expression: 'create unique index "rooms_name_lower_unique" on "rooms" (lower("name"))',
    },
  ],
  triggers: [ownerListChanged, roomBansEnd, roomRemovalsEnd],
});

export class Room extends RoomSchema.class {}
RoomSchema.setClass(Room);
