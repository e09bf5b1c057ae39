import { User } from '@rooms/db';
import {
  accountBudgets,
  createSession,
  giveBackAccount,
  holdAccount,
  LIMITS,
  requireCaptcha,
} from '../../domains/accounts';
import { AppError } from '../../errors';
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
    // The captcha first: without a solved one nothing is counted, so nobody's budget can be spent for free.
    await requireCaptcha(ctx, input);
    const budgets = accountBudgets(
      'login',
      ctx,
      input.email,
      LIMITS.loginFailuresPerAddress,
      LIMITS.loginFailuresPerAccount,
    );
    // The try is counted before the slow password check and given back when the password is right, so wrong
    // passwords sent at once get no more tries than the budget's.
    await holdAccount(ctx, budgets);

    const user = await ctx.em.findOne(User, { email: input.email });
    const valid = await ctx.services.passwords.verify(user?.passwordHash ?? null, input.password);
    // One answer for an unknown e-mail and a wrong password: login never tells whether an account exists.
    if (!user || !valid) throw new AppError('INCORRECT_CREDENTIALS');
    await giveBackAccount(ctx, budgets);
    if (user.disabled) throw new AppError('ACCOUNT_DISABLED');

    const now = ctx.services.now();
    // The sign-in this one replaces is what the profile shows as the last login.
    user.previousLoginIp = user.lastLoginIp ?? null;
    user.previousLoginAt = user.lastLoginAt ?? null;
    user.lastLoginIp = ctx.request.ip;
    user.lastLoginAt = now;
    const token = await createSession(ctx.em, user, ctx.request, now);
    return sessionResponse(user, token);
  });
