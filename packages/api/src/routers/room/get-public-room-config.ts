import { enterableRoom, roomConfigOf } from '../../domains/rooms';
import { CAPTCHA_ERRORS, SHARE_PASSWORD_ERRORS } from '../../rest/rest-meta';
import { captchaOf } from '../../schemas/captcha';
import { publicProcedure } from '../../trpc';
import { ZRoomConfig } from './get-room-config.types';
import { ZGetPublicRoomConfigRequest } from './share.types';

export const getPublicRoomConfig = publicProcedure
  .meta({
    rest: {
      method: 'GET',
      path: '/api/room/getPublicRoomConfig',
      auth: false,
      tag: 'Room',
      errors: [...SHARE_PASSWORD_ERRORS, ...CAPTCHA_ERRORS],
    },
  })
  .meta({
    summary:
      'The settings a participant needs to enter a public room, or a shared one with its password; no login needed. After several wrong passwords each try needs a solved captcha too.',
  })
  .input(ZGetPublicRoomConfigRequest)
  .output(ZRoomConfig)
  .query(async ({ ctx, input }) => {
    const { room, access } = await enterableRoom(ctx, { id: input.id }, input.password, {
      captcha: captchaOf(input),
    });
    return roomConfigOf(ctx, room, access === 'owner');
  });
