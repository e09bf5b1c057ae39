import { registerAccount } from '../../domains/accounts';
import { CAPTCHA_ERRORS, CODE_ERRORS } from '../../rest/rest-meta';
import { publicProcedure } from '../../trpc';
import { sessionResponse } from './login';
import { ZSessionResponse } from './login.types';
import { ZRegisterRequest } from './register.types';

export const register = publicProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/user/register',
      auth: false,
      tag: 'User',
      errors: [...CAPTCHA_ERRORS, 'TOO_MANY_REQUESTS', 'EMAIL_REGISTERED', ...CODE_ERRORS, 'CODE_INCORRECT'],
    },
  })
  .meta({ summary: 'Create an account with the e-mail code from sendRegisterCode; logs the new user in.' })
  .input(ZRegisterRequest)
  .output(ZSessionResponse)
  .mutation(async ({ ctx, input }) => {
    const { user, token } = await registerAccount(ctx, input);
    return sessionResponse(user, token);
  });
