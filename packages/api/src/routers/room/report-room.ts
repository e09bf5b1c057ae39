import { fileRoomReport } from '../../domains/rooms';
import { publicProcedure } from '../../trpc';
import { ZReportRoomReply, ZReportRoomRequest } from './share.types';

export const reportRoom = publicProcedure
  .meta({
    summary:
      'Report a room to the administrator with a reason; anyone who may enter it can (guests give the share password).',
    multiline: ['reason'],
  })
  .input(ZReportRoomRequest)
  .output(ZReportRoomReply)
  .mutation(({ ctx, input }) => fileRoomReport(ctx, input));
