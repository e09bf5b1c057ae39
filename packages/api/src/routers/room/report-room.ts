import { fileRoomReport } from '../../domains/rooms';
import { SHARE_PASSWORD_ERRORS } from '../../rest/rest-meta';
import { publicProcedure } from '../../trpc';
import { ZReportRoomReply, ZReportRoomRequest } from './share.types';

export const reportRoom = publicProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/room/reportRoom',
      auth: false,
      tag: 'Room',
      errors: ['TOO_MANY_REQUESTS', ...SHARE_PASSWORD_ERRORS],
    },
  })
  .meta({
    summary:
      'Report a room to the administrator with a reason; anyone who may enter it can (guests give the share password).',
    multiline: ['reason'],
  })
  .input(ZReportRoomRequest)
  .output(ZReportRoomReply)
  .mutation(({ ctx, input }) => fileRoomReport(ctx, input));
