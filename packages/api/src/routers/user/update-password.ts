import { User } from '@rooms/db';
import { z } from 'zod';
import { revokeUserSessions } from '../../account/session';
import { AppError } from '../../errors';
import { ownSessionProcedure } from '../../trpc';
import { ZUpdatePasswordRequest } from './update-password.types';

export const updatePassword = ownSessionProcedure
  .meta({ summary: 'Change the password (the current one is required); other sessions are ended.' })
  .input(ZUpdatePasswordRequest)
  .output(z.null())
  .mutation(async ({ ctx, input }) => {
    const { sessionId } = ctx.session;
    const user = await ctx.em.findOneOrFail(User, ctx.session.user.id);
    if (!(await ctx.services.passwords.verify(user.passwordHash, input.oldPassword))) {
      throw new AppError('INCORRECT_PASSWORD');
    }
    user.passwordHash = await ctx.services.passwords.hash(input.newPassword);
    await ctx.em.flush();
    await revokeUserSessions(ctx.em, user.id, ctx.services.now(), sessionId);
    await ctx.services.sessionEvents.ended({ userId: user.id, exceptSessionId: sessionId });
    return null;
  });
