import { z } from 'zod';
import { changePassword } from '../../domains/accounts';
import { OWN_SESSION_ERRORS } from '../../rest/rest-meta';
import { ownSessionProcedure } from '../../trpc';
import { ZUpdatePasswordRequest } from './update-password.types';

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
    const { session } = ctx;
    await changePassword(ctx, { userId: session.user.id, sessionId: session.sessionId }, input);
    return null;
  });
