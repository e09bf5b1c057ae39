// How the room page and a share link get into a room: its settings, or that it asks for its share password first.
// A link opened without the password is the usual way in, so "password needed" is an answer here, not a refusal:
// getPublicRoomConfig's 403 for it was logged as an error in every visitor's console. Everything else (a wrong
// password, a room that is not shared) is refused exactly as getPublicRoomConfig refuses it.
import { z } from 'zod';
import { enterableRoom, roomConfigOf } from '../../domains/rooms';
import { describeError } from '../../errors';
import { captchaOf } from '../../schemas/captcha';
import { publicProcedure } from '../../trpc';
import { ZRoomConfig } from './get-room-config.types';
import { ZGetPublicRoomConfigRequest } from './share.types';

export const ZRoomEntry = z.discriminatedUnion('passwordRequired', [
  z.object({ passwordRequired: z.literal(true) }),
  z.object({ passwordRequired: z.literal(false), room: ZRoomConfig }),
]);
export type TRoomEntry = z.infer<typeof ZRoomEntry>;

export const getRoomEntry = publicProcedure
  .meta({
    summary:
      'What entering a room takes: its settings (as getPublicRoomConfig), or passwordRequired when it is shared with a password and none was given. With the knock link’s token (`knock`), the settings of a room its holder may knock on. No login needed.',
  })
  .input(ZGetPublicRoomConfigRequest)
  .output(ZRoomEntry)
  .query(async ({ ctx, input }) => {
    try {
      const { room, access } = await enterableRoom(ctx, { id: input.id }, input.password, {
        captcha: captchaOf(input),
        knock: input.knock,
      });
      return { passwordRequired: false as const, room: await roomConfigOf(ctx, room, access === 'owner') };
    } catch (error) {
      // Asked for before any password was tried: no budget spent, nothing revealed that the 403 did not.
      if (describeError(error).appCode === 'ROOM_PASSWORD_REQUIRED')
        return { passwordRequired: true as const };
      throw error;
    }
  });
