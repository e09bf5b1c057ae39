// The relay's ports as the server provides them: rooms from the database, sessions from the room engine.
import type { MikroORM } from '@mikro-orm/postgresql';
import { effectiveSettings, type TRoomStateChange } from '@rooms/api';
import { CHAT_HISTORY_SIZE, fileInMaxBytes, type TRoomEnding } from '@rooms/api/room-protocol';
import { planOf, Room, RoomBan, RoomChatMessage, RoomRemoval, Session } from '@rooms/db';
import type { RoomSession } from '../rooms/room-session';
import type { RoomBanBook, RoomChatBook, RoomDirectory, RoomLink, RoomRemovalBook } from './relay-ports';

// Room ids are UUIDs; anything else would make PostgreSQL reject the query instead of finding nothing.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function databaseRoomDirectory(orm: MikroORM, now: () => Date = () => new Date()): RoomDirectory {
  return {
    async find(roomId) {
      if (!UUID.test(roomId)) return null;
      const em = orm.em.fork();
      const room = await em.findOne(Room, { id: roomId }, { populate: ['owner'] });
      if (!room) return null;
      // Seats and frame rate as the owner's plan allows them now, as the room was started: a plan that lapsed
      // leaves the larger values it allowed in the room's row.
      const plan = await planOf(em, room.owner.id, now());
      const settings = effectiveSettings(room, plan);
      return {
        id: room.id,
        ownerId: room.owner.id,
        ownerName: room.owner.username,
        maxConnections: settings.maxConnections,
        password: room.password ?? null,
        isPublic: room.isPublic,
        knockToken: room.knockToken ?? null,
        maxFrameRate: settings.maxFrameRate,
        fileInMaxBytes: fileInMaxBytes(plan.level),
      };
    },
    bans: databaseRoomBans(orm),
    removals: databaseRoomRemovals(orm),
    chat: databaseRoomChat(orm),
  };
}

/**
 * Bans in `room_bans`, read on every ticket (one indexed read; tickets are rate-limited per address) so a ban
 * made on any server counts on the next ticket anywhere. The rows go when the room stops (the rooms trigger).
 */
export function databaseRoomBans(orm: MikroORM): RoomBanBook {
  return {
    async record(roomId, marks) {
      if (marks.length === 0) return;
      const em = orm.em.fork();
      for (const mark of marks) em.create(RoomBan, { room: em.getReference(Room, roomId), ...mark });
      await em.flush();
    },
    async inForce(roomId) {
      if (!UUID.test(roomId)) return [];
      const rows = await orm.em
        .fork()
        .find(RoomBan, { room: roomId }, { fields: ['userId', 'guestId', 'ip'] });
      return rows.map((row) => ({
        userId: row.userId ?? null,
        guestId: row.guestId ?? null,
        ip: row.ip ?? null,
      }));
    },
  };
}

/**
 * The people owners removed, in `room_removals`, read on every ticket as bans are; the rows go when the room stops
 * (the rooms trigger) or when the owner lets the person back in.
 */
export function databaseRoomRemovals(orm: MikroORM): RoomRemovalBook {
  return {
    async record(roomId, removal) {
      const em = orm.em.fork();
      em.create(RoomRemoval, {
        id: removal.id,
        room: em.getReference(Room, roomId),
        nickname: removal.nickname,
        userId: removal.userId,
        guestIds: removal.guestIds,
        createdAt: new Date(removal.at),
      });
      await em.flush();
    },
    async lift(roomId, removalId) {
      if (!UUID.test(removalId)) return;
      await orm.em.fork().nativeDelete(RoomRemoval, { id: removalId, room: roomId });
    },
    async inForce(roomId) {
      if (!UUID.test(roomId)) return [];
      const rows = await orm.em.fork().find(RoomRemoval, { room: roomId }, { orderBy: { createdAt: 'asc' } });
      return rows.map((row) => ({
        id: row.id,
        nickname: row.nickname,
        userId: row.userId ?? null,
        guestIds: row.guestIds,
        at: row.createdAt.getTime(),
      }));
    },
  };
}

/**
 * Chat in `room_chat_messages`, for the room's life (the rows go with the room). Each write also deletes what
 * falls beyond the latest CHAT_HISTORY_SIZE, the most a joiner is shown: nothing older is ever read again.
 */
export function databaseRoomChat(orm: MikroORM): RoomChatBook {
  return {
    async recent(roomId) {
      if (!UUID.test(roomId)) return [];
      const rows = await orm.em
        .fork()
        .find(RoomChatMessage, { room: roomId }, { orderBy: { seq: 'desc' }, limit: CHAT_HISTORY_SIZE });
      return rows.reverse().map((row) => ({
        id: row.messageId,
        memberId: row.memberId,
        nickname: row.nickname,
        text: row.text,
        at: row.sentAt.getTime(),
        author: { userId: row.authorUserId ?? null, guestId: row.authorGuestId ?? null },
      }));
    },
    async append(roomId, records) {
      if (records.length === 0) return;
      const em = orm.em.fork();
      const room = em.getReference(Room, roomId);
      for (const record of records) {
        em.create(RoomChatMessage, {
          room,
          messageId: record.id,
          memberId: record.memberId,
          nickname: record.nickname,
          text: record.text,
          authorUserId: record.author.userId,
          authorGuestId: record.author.guestId,
          sentAt: new Date(record.at),
        });
      }
      await em.flush();
      await em.execute(
        `delete from room_chat_messages where room_id = ? and seq <= (
           select seq from room_chat_messages where room_id = ? order by seq desc offset ? limit 1)`,
        [roomId, roomId, CHAT_HISTORY_SIZE],
      );
    },
    async forget(roomId, authors) {
      const userIds = authors.flatMap((author) => (author.userId ? [author.userId] : []));
      const guestIds = authors.flatMap((author) => (author.guestId ? [author.guestId] : []));
      const written = [
        ...(userIds.length ? [{ authorUserId: { $in: userIds } }] : []),
        ...(guestIds.length ? [{ authorGuestId: { $in: guestIds } }] : []),
      ];
      if (written.length === 0) return;
      await orm.em.fork().nativeDelete(RoomChatMessage, { room: roomId, $or: written });
    },
  };
}

/** What the relay uses of ChromiumRoomEngine (and of any later engine). */
export interface TSessionEngine {
  session(roomId: string): RoomSession | undefined;
  participantsChanged(roomId: string, count: number): void;
  onStateChange(listener: (change: TRoomStateChange) => void): () => void;
}

export function engineLink(engine: TSessionEngine): RoomLink {
  return {
    session: (roomId) => engine.session(roomId),
    participantsChanged: (roomId, count) => engine.participantsChanged(roomId, count),
    onSessionEnded: (listener) =>
      engine.onStateChange((change) => {
        if (change.state !== 'running') listener(change.roomId, endingOf(change));
      }),
  };
}

/** What members are told: the stopper's own words when a person stopped it, else the engine's reason. */
function endingOf(change: TRoomStateChange): TRoomEnding {
  if (change.ending) return change.ending;
  if (change.reason === 'crashed' || change.state === 'crashed') return { reason: 'crashed', by: null };
  if (change.reason === 'auto-close') return { reason: 'idle', by: null };
  return { reason: 'stopped', by: null };
}

/**
 * Of these sessions, the ones still live: not revoked, not expired, their account not disabled, and one an
 * administrator opened as someone else only while they are an administrator in good standing (resolveSession).
 */
export function databaseLiveSessions(orm: MikroORM, now: () => Date) {
  return async (sessionIds: string[]): Promise<Set<string>> => {
    if (sessionIds.length === 0) return new Set();
    const live = await orm.em.fork().find(
      Session,
      {
        id: { $in: sessionIds },
        revokedAt: null,
        expiresAt: { $gt: now() },
        user: { disabled: false },
        $or: [{ impersonator: null }, { impersonator: { disabled: false, role: 'admin' } }],
      },
      { fields: ['id'] },
    );
    return new Set(live.map((session) => session.id));
  };
}
