import { User } from '@rooms/db';
import { LIMITS, requireCaptcha, throttle } from '../../account/guards';
import { createSession } from '../../account/session';
import { AppError } from '../../errors';
import { publicProcedure } from '../../trpc';
import { type TSessionResponse, ZLoginRequest, ZSessionResponse } from './login.types';

export function sessionResponse(user: User, token: string): TSessionResponse {
  return { token, username: user.username, avatar: user.avatar, level: user.level };
}

export const login = publicProcedure
  .meta({ summary: 'Log in with e-mail, password and a solved captcha; returns a new session token.' })
  .input(ZLoginRequest)
  .output(ZSessionResponse)
  .mutation(async ({ ctx, input }) => {
    await throttle(ctx, [
      [`login:ip:${ctx.request.ip}`, LIMITS.loginPerIp],
      [`login:account:${input.email}`, LIMITS.loginPerAccount],
    ]);
    await requireCaptcha(ctx, input);

    const user = await ctx.em.findOne(User, { email: input.email });
    const valid = await ctx.services.passwords.verify(user?.passwordHash ?? null, input.password);
    // One answer for an unknown e-mail and a wrong password: login never tells whether an account exists.
    if (!user || !valid) throw new AppError('INCORRECT_CREDENTIALS');
    if (user.disabled) throw new AppError('ACCOUNT_DISABLED');

    const now = ctx.services.now();
    user.lastLoginIp = ctx.request.ip;
    user.lastLoginAt = now;
    const token = await createSession(ctx.em, user, ctx.request, now);
    return sessionResponse(user, token);
  });
