import { User } from '@rooms/db';
import { z } from 'zod';
import {
  consumeEmailCode,
  countingRedeemFailures,
  requireCodeCaptcha,
  revokeUserSessions,
} from '../../domains/accounts';
import { AppError } from '../../errors';
import { CAPTCHA_ERRORS, CODE_ERRORS } from '../../rest/rest-meta';
import { publicProcedure } from '../../trpc';
import { ZResetPasswordRequest } from './reset-password.types';

export const resetPassword = publicProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/user/resetPassword',
      auth: false,
      tag: 'User',
      errors: [
        ...CAPTCHA_ERRORS,
        'TOO_MANY_REQUESTS',
        'RESET_EMAIL_NOT_EXIST',
        ...CODE_ERRORS,
        'RESET_CODE_INCORRECT',
      ],
    },
  })
  .meta({
    summary: 'Set a new password with the e-mail code from sendResetPasswordCode; ends every session.',
  })
  .input(ZResetPasswordRequest)
  .output(z.null())
  .mutation(async ({ ctx, input }) => {
    await requireCodeCaptcha(ctx, input.email, 'reset', input);
    return countingRedeemFailures(ctx, async () => {
      const user = await ctx.em.findOne(User, { email: input.email });
      if (!user) throw new AppError('RESET_EMAIL_NOT_EXIST');

      await consumeEmailCode(
        ctx.em,
        ctx.services,
        { email: input.email, purpose: 'reset', code: input.code },
        { incorrect: 'RESET_CODE_INCORRECT' },
      );
      user.passwordHash = await ctx.services.passwords.hash(input.password);
      await ctx.em.flush();
      await revokeUserSessions(ctx.em, user.id, ctx.services.now());
      await ctx.services.sessionEvents.ended({ userId: user.id });
      return null;
    });
  });
