// Schemas of the sharing calls: the shared room's lobby view, the public square, the owner's share
// settings and reports.
import { z } from 'zod';
import { ZOptionalCaptchaFields } from '../../schemas/captcha';
import { ZRoomState } from './room.types';

/** An empty query parameter (`?password=`) counts as absent. */
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((value) => value || undefined);

const ZSharePassword = optionalText(128).describe('The room’s share password, when it has one.');

/** The REST call is getRoomInfo_share?name&password; the share page, which knows the id, may give that instead. */
export const ZShareTarget = z
  .object({
    id: optionalText(64).describe('The room id; give this or the name.'),
    name: optionalText(64).describe('The room name; give this or the id.'),
    password: ZSharePassword,
    // A solved captcha, needed with the password after several wrong ones (share-password-budget.ts).
    ...ZOptionalCaptchaFields.shape,
  })
  .refine((target) => target.id !== undefined || target.name !== undefined, {
    error: 'Please choose a room',
  });
export type TShareTarget = z.infer<typeof ZShareTarget>;

export const ZGetPublicRoomConfigRequest = z.object({
  id: z.string({ error: 'Please choose a room' }).trim().min(1).max(64),
  password: ZSharePassword,
  knock: optionalText(64).describe('The knock link’s token: enough to ask to be let in, never to enter.'),
  ...ZOptionalCaptchaFields.shape,
});

const ZRegionRef = z.object({ code: z.string(), name: z.string() });

/** What a visitor of a shared room sees before entering: never the password, never the owner's settings. */
export const ZSharedRoomInfo = z.object({
  id: z.string(),
  name: z.string(),
  remark: z.string(),
  owner: z.string().describe('The owner’s username.'),
  state: ZRoomState,
  isPublic: z.boolean(),
  hasPassword: z.boolean(),
  region: ZRegionRef,
  maxConnections: z.number().int(),
  memberCount: z.number().int().describe('People in the room now.'),
});
export type TSharedRoomInfo = z.infer<typeof ZSharedRoomInfo>;

export const ZShareInviteRequest = z.object({
  id: z
    .string({ error: 'Please choose a room' })
    .trim()
    .min(1, { error: 'Please choose a room' })
    .max(64, { error: 'Please choose a room' }),
});

/** Who invites, before the password: the only things a share link tells anyone without it. */
export const ZShareInvite = z.object({
  name: z.string().describe('The room’s name.'),
  owner: z.string().describe('The owner’s username.'),
});
export type TShareInvite = z.infer<typeof ZShareInvite>;

/** One running public room in the square. */
export const ZPublicRoom = z.object({
  id: z.string(),
  name: z.string(),
  remark: z.string(),
  owner: z.string().describe('The owner’s username.'),
  region: ZRegionRef,
  memberCount: z.number().int(),
  maxConnections: z.number().int(),
  startedAt: z.date().nullable(),
  thumbnailUrl: z.string().describe('A small JPEG still of the room, refreshed every few seconds.'),
});
export type TPublicRoom = z.infer<typeof ZPublicRoom>;

/** The path of a public room's thumbnail (served by the server beside the REST layer, not a procedure). */
export const publicRoomThumbnailPath = (roomId: string) =>
  `/api/room/getPublicRoomThumbnail?id=${encodeURIComponent(roomId)}`;

export const MIN_ROOM_PASSWORD_LENGTH = 4;

/** A share password's text as the owner types it; empty means none. Short ones are guessed in a few tries. */
const ZRoomSharePasswordText = z
  .string()
  .trim()
  .max(32, { error: 'The room password cannot be longer than 32 characters' })
  .regex(/^[^\p{C}]*$/u, { error: 'The room password contains characters that are not allowed' })
  .refine((password) => password === '' || password.length >= MIN_ROOM_PASSWORD_LENGTH, {
    error: 'The room password must have at least 4 characters',
  });

/** A new room's share password; empty, null or absent means none. */
export const ZRoomSharePassword = ZRoomSharePasswordText.nullish().transform((password) => password || null);

/** The owner changes or clears the password, and lists or unlists the room in the square. */
export const ZUpdateRoomShareRequest = z
  .object({
    id: optionalText(64).describe('The room id; give this or the name.'),
    name: optionalText(64).describe('The room name; give this or the id.'),
    // Not ZRoomSharePassword.optional(): zod runs an optional schema's inner transform on a missing key too, so
    // absent became null and listing a room in the square cleared its password. Absent must stay undefined.
    password: ZRoomSharePasswordText.nullable()
      .optional()
      .transform((password) => (password === undefined ? undefined : password || null))
      .describe('The new share password; empty or null clears it, absent keeps it.'),
    isPublic: z.boolean().optional().describe('Listed in the public square, open to anyone.'),
    knocking: z
      .boolean()
      .optional()
      .describe(
        'Whether the knock link works: people who have it may ask to be let in, without the password.',
      ),
  })
  .refine((target) => target.id !== undefined || target.name !== undefined, {
    error: 'Please choose a room',
  });

export const REPORT_REASON_MAX_LENGTH = 500;

export const ZReportRoomRequest = z.object({
  id: z.string({ error: 'Please choose a room' }).trim().min(1).max(64),
  reason: z
    .string({ error: 'Please describe the problem' })
    .trim()
    .min(1, { error: 'Please describe the problem' })
    .max(REPORT_REASON_MAX_LENGTH, { error: 'A report has at most 500 characters' }),
  password: ZSharePassword,
});

export const ZReportRoomReply = z.object({ id: z.string() });
