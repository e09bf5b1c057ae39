import { defineEntity, p } from '@mikro-orm/core';
import { Room } from './room.entity';

/**
 * One message of a room's chat, kept for the room's life: a stop, a restart or a server going down leaves it, so
 * people who join later read the latest of them; it goes with the room. Each room keeps only its latest messages
 * (as many as a joiner is shown), and a person the owner bans takes theirs along (by account or browser, never
 * shown to anyone).
 */
const RoomChatMessageSchema = defineEntity({
  name: 'RoomChatMessage',
  tableName: 'room_chat_messages',
  properties: {
    /** The order messages were sent in, which their times cannot tell apart within a millisecond. */
    seq: p.bigint('number').primary().autoincrement(),
    room: () => p.manyToOne(Room).deleteRule('cascade'),
    /** The id its readers know it by. */
    messageId: p.uuid(),
    /** The seat it was sent from (its author's member id then). */
    memberId: p.uuid(),
    nickname: p.string().length(64),
    text: p.text(),
    /** Plain ids, not references: who wrote it, for a ban to take it away; the account may go, the text stays. */
    authorUserId: p.uuid().nullable(),
    authorGuestId: p.string().length(64).nullable(),
    sentAt: p.datetime(),
  },
  indexes: [{ properties: ['room', 'seq'] }],
});

export class RoomChatMessage extends RoomChatMessageSchema.class {}
RoomChatMessageSchema.setClass(RoomChatMessage);
