import { z } from 'zod';
import { ZRoomName } from './room.types';
import { ZRoomSharePassword } from './share.types';

/** The create dialog's wording when either choice is missing. */
export const IMAGE_AND_ZONE_REQUIRED = 'An image and a zone must be chosen';

const choice = z
  .string({ error: IMAGE_AND_ZONE_REQUIRED })
  .trim()
  .min(1, { error: IMAGE_AND_ZONE_REQUIRED })
  .max(32, { error: IMAGE_AND_ZONE_REQUIRED });

function whole(label: string, min: number, max: number) {
  const message = `${label} must be a whole number from ${min} to ${max}`;
  return z
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });
}

/**
 * The create-room body. Limits left out take the room defaults on the caller's plan (streamDefaultsFor: 720p at
 * 30 fps and 3 Mbit/s, or less where the plan allows less; every connection the plan allows; auto-close and
 * keep-data as ROOM_DEFAULTS has them); the bounds here only keep values sane, the plan decides what the caller may have.
 */
export const ZCreateRoomRequest = z.object({
  name: ZRoomName,
  remark: z
    .string()
    .trim()
    .max(200, { error: 'The remark cannot be longer than 200 characters' })
    .optional()
    .transform((remark) => remark ?? ''),
  password: ZRoomSharePassword.describe(
    'The share password (at least 4 characters); empty or absent for none.',
  ),
  isPublic: z.boolean().default(false).describe('Listed in the public square, open to anyone.'),
  region: choice.describe('A zone code from getRoomRegion.'),
  image: choice.describe('An image code from getRoomImage.'),
  startUrl: z
    .string()
    .trim()
    .max(2048, { error: 'The start address cannot be longer than 2048 characters' })
    .nullish()
    .transform((url) => url || null)
    .describe('Where the browser opens, for images of kind `url` (http:// or https://).'),
  maxConnections: whole('Max connections', 1, 100).optional(),
  width: whole('The width', 320, 3840).optional(),
  height: whole('The height', 240, 2160).optional(),
  videoBitrateKbps: whole('The video bitrate', 100, 50_000).optional(),
  maxFrameRate: whole('The frame rate', 1, 120).optional(),
  keepData: z.boolean().optional(),
  autoClose: z.boolean().optional(),
  autoCloseMinutes: whole('The auto-close time', 1, 1440).optional(),
});
export type TCreateRoomRequest = z.infer<typeof ZCreateRoomRequest>;
