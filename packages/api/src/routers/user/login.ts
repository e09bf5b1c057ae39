import type { User } from '@rooms/db';
import { logIn } from '../../domains/accounts';
import { CAPTCHA_ERRORS } from '../../rest/rest-meta';
import { publicProcedure } from '../../trpc';
import { type TSessionResponse, ZLoginRequest, ZSessionResponse } from './login.types';

export function sessionResponse(user: User, token: string): TSessionResponse {
  return { token, username: user.username, avatar: user.avatar, level: user.level };
}

export const login = publicProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/user/login',
      auth: false,
      tag: 'User',
      errors: [...CAPTCHA_ERRORS, 'TOO_MANY_REQUESTS', 'INCORRECT_CREDENTIALS', 'ACCOUNT_DISABLED'],
    },
  })
  .meta({ summary: 'Log in with e-mail, password and a solved captcha; returns a new session token.' })
  .input(ZLoginRequest)
  .output(ZSessionResponse)
  .mutation(async ({ ctx, input }) => {
    const { user, token } = await logIn(ctx, input);
    return sessionResponse(user, token);
  });
