import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { User } from '@rooms/db';
import {
  consumeEmailCode,
  countingRedeemFailures,
  createSession,
  requireCodeCaptcha,
} from '../../domains/accounts';
import { AppError } from '../../errors';
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
    await requireCodeCaptcha(ctx, input.email, 'register', input);
    return countingRedeemFailures(ctx, async () => {
      if (await ctx.em.count(User, { email: input.email })) throw new AppError('EMAIL_REGISTERED');

      await consumeEmailCode(
        ctx.em,
        ctx.services,
        { email: input.email, purpose: 'register', code: input.code },
        { incorrect: 'CODE_INCORRECT' },
      );

      const now = ctx.services.now();
      const user = ctx.em.create(User, {
        id: crypto.randomUUID(),
        username: input.username,
        email: input.email,
        passwordHash: await ctx.services.passwords.hash(input.password),
        createdAt: now,
        lastLoginIp: ctx.request.ip,
        lastLoginAt: now,
      });
      try {
        const token = await createSession(ctx.em, user, ctx.request, now);
        return sessionResponse(user, token);
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) throw new AppError('EMAIL_REGISTERED');
        throw error;
      }
    });
  });
