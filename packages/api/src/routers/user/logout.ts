import { z } from 'zod';
import { logOut } from '../../domains/accounts';
import { protectedProcedure } from '../../trpc';

export const logout = protectedProcedure
  .meta({ rest: { method: 'POST', path: '/api/user/logout', tag: 'User', errors: [] } })
  .meta({ summary: 'End the current session; its token answers 401 afterwards.' })
  .input(z.object({}).optional())
  .output(z.null())
  .mutation(async ({ ctx }) => {
    await logOut(ctx, ctx.session.sessionId);
    return null;
  });
