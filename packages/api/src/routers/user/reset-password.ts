import { z } from 'zod';
import { resetForgottenPassword } from '../../domains/accounts';
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
    await resetForgottenPassword(ctx, input);
    return null;
  });
