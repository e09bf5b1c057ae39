import { z } from 'zod';
import { ZRoomState } from './room.types';

export const ZGetRoomConfigRequest = z.object({
  id: z.string({ error: 'Please choose a room' }).trim().min(1).max(64),
});

/** What a participant's client needs to join and show the room; the limits are those in force now. */
export const ZRoomConfig = z.object({
  id: z.string(),
  name: z.string(),
  state: ZRoomState,
  owner: z.string().describe('The owner’s username.'),
  isOwner: z.boolean(),
  isPublic: z.boolean(),
  region: z.object({ code: z.string(), name: z.string() }),
  image: z.object({ code: z.string(), name: z.string(), kind: z.enum(['blank', 'video', 'url']) }),
  width: z.number().int().describe('The room browser’s viewport; input coordinates are relative to it.'),
  height: z.number().int(),
  maxFrameRate: z.number().int(),
  videoBitrateKbps: z.number().int(),
  maxConnections: z.number().int(),
  keepData: z.boolean(),
  autoClose: z.boolean(),
  autoCloseMinutes: z.number().int(),
  memberCount: z
    .number()
    .int()
    .describe('People in the room now (entering asks first when others are inside).'),
});
export type TRoomConfig = z.infer<typeof ZRoomConfig>;
