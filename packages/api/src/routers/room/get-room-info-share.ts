import { enterableRoom, toSharedRoomInfo } from '../../domains/rooms';
import { CAPTCHA_ERRORS, SHARE_PASSWORD_ERRORS } from '../../rest/rest-meta';
import { captchaOf } from '../../schemas/captcha';
import { publicProcedure } from '../../trpc';
import { ZSharedRoomInfo, ZShareTarget } from './share.types';

export const getRoomInfoShare = publicProcedure
  .meta({
    rest: {
      method: 'GET',
      path: '/api/room/getRoomInfo_share',
      auth: false,
      tag: 'Room',
      errors: [...SHARE_PASSWORD_ERRORS, ...CAPTCHA_ERRORS],
    },
  })
  .meta({
    summary:
      'A shared room as its visitors see it before entering (name, remark, owner, state), by id or name with its password; no login needed. After several wrong passwords each try needs a solved captcha too; a missing room answers like a wrong password.',
  })
  .input(ZShareTarget)
  .output(ZSharedRoomInfo)
  .query(async ({ ctx, input }) => {
    const { room } = await enterableRoom(ctx, input, input.password, {
      asPasswordRoom: true,
      captcha: captchaOf(input),
    });
    return toSharedRoomInfo(room, ctx.services.presence.memberCount(room.id));
  });
