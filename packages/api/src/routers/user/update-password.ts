import { User } from '@rooms/db';
import { z } from 'zod';
import type { TContext } from '../../context';
import { requireCaptcha, revokeUserSessions } from '../../domains/accounts';
import { AppError, describeError } from '../../errors';
import { OWN_SESSION_ERRORS } from '../../rest/rest-meta';
import type { TCaptchaFields } from '../../schemas/captcha';
import { ownSessionProcedure } from '../../trpc';
import { ZUpdatePasswordRequest } from './update-password.types';

/** The captcha as login checks it, a refused or spent one answered with the change-password text (spec §5). */
async function requireVerification(ctx: TContext, fields: TCaptchaFields): Promise<void> {
  try {
    await requireCaptcha(ctx, fields);
  } catch (error) {
    const { appCode } = describeError(error);
    // No `cause`: the error formatter reads an AppError cause first, which would put the provider's text back.
    if (appCode === 'CAPTCHA_FAILED' || appCode === 'PASS_TOKEN_USED')
      throw new AppError('VERIFICATION_INVALID');
    throw error;
  }
}

export const updatePassword = ownSessionProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/user/updatePassword',
      tag: 'User',
      errors: [...OWN_SESSION_ERRORS, 'VERIFICATION_INVALID', 'CAPTCHA_UNAVAILABLE', 'INCORRECT_PASSWORD'],
    },
  })
  .meta({
    summary:
      'Change the password: the current one and a solved captcha are required; other sessions are ended.',
  })
  .input(ZUpdatePasswordRequest)
  .output(z.null())
  .mutation(async ({ ctx, input }) => {
    // The captcha first: each guess at the current password costs a solved one.
    await requireVerification(ctx, input);
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
