// Schemas shared by the room procedures: the name rule, how a room is addressed, and the views of a room.
import { z } from 'zod';

export const ROOM_NAME_MAX_LENGTH = 32;
/**
 * Room names are looked up by people (share links carry them), so they stay readable and unambiguous: ASCII
 * letters and digits, `-`, `_`, and Chinese, Japanese and Korean characters. Other scripts are left out on purpose:
 * look-alike letters (Cyrillic 'а' for Latin 'a') would let one room pose as another. Names are unique regardless
 * of case.
 */
export const ROOM_NAME_PATTERN =
  /^[A-Za-z0-9_\-\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC]+$/u;

const enterName = 'Please enter a room name';

export const ZRoomName = z
  .string({ error: enterName })
  .trim()
  .min(1, { error: enterName })
  .max(ROOM_NAME_MAX_LENGTH, { error: 'The room name cannot be longer than 32 characters' })
  .regex(ROOM_NAME_PATTERN, {
    error: 'The room name may only contain letters, digits, - and _ (Chinese, Japanese and Korean included)',
  });

/** An empty query parameter (`?id=&name=abc`) counts as absent. */
const optionalKey = z
  .string()
  .trim()
  .max(64)
  .optional()
  .transform((value) => value || undefined);

/** Over REST, delete/start/stop/restart take `?id&name`; either one names the room, both must agree. */
export const ZRoomTarget = z
  .object({
    id: optionalKey.describe('The room id; give this or the name.'),
    name: optionalKey.describe('The room name; give this or the id.'),
  })
  .refine((target) => target.id !== undefined || target.name !== undefined, {
    error: 'Please choose a room',
  });
export type TRoomTarget = { id?: string | undefined; name?: string | undefined };

export const ZRoomState = z.enum(['stopped', 'starting', 'running', 'stopping', 'crashed']);

export const ZRoomStateReply = z.object({
  id: z.string(),
  name: z.string(),
  state: ZRoomState,
});
export type TRoomStateReply = z.infer<typeof ZRoomStateReply>;

const ZRegionRef = z.object({ code: z.string(), name: z.string() });
const ZImageRef = z.object({ code: z.string(), name: z.string(), kind: z.enum(['blank', 'video', 'url']) });

/** The room as its owner sees it on the dashboard (no password: that is getRoomInfo's). */
export const ZRoomListItem = z.object({
  id: z.string(),
  name: z.string(),
  remark: z.string(),
  hasPassword: z.boolean(),
  state: ZRoomState,
  isPublic: z.boolean(),
  region: ZRegionRef,
  image: ZImageRef,
  startUrl: z.string().nullable(),
  maxConnections: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  videoBitrateKbps: z.number().int(),
  maxFrameRate: z.number().int(),
  keepData: z.boolean(),
  autoClose: z.boolean(),
  autoCloseMinutes: z.number().int(),
  owner: z.string().describe('The owner’s username.'),
  createdAt: z.date(),
  lastStartedAt: z.date().nullable(),
  memberCount: z.number().int().describe('People in the room now.'),
});
export type TRoomListItem = z.infer<typeof ZRoomListItem>;

/** The owner's full view, password included. */
export const ZRoomInfo = ZRoomListItem.extend({
  password: z.string().nullable().describe('The share password; only the owner ever receives it.'),
  knockToken: z
    .string()
    .nullable()
    .describe('The knock link’s token, null while knocking is off; only the owner ever receives it.'),
});
export type TRoomInfo = z.infer<typeof ZRoomInfo>;
