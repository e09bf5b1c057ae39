// Signing in and up: e-mailing a code, registering with it, logging in with the password, logging out. Each call
// that a stranger can make spends a budget per address and per account and asks for a solved captcha first.
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { type EmailCodePurpose, User } from '@rooms/db';
import type { TContext } from '../../context';
import { AppError } from '../../errors';
import type { TCaptchaFields } from '../../schemas/captcha';
import { CODE_RESEND_COOLDOWN_MS, consumeEmailCode, sendEmailCode } from './email-codes';
import {
  accountBudgets,
  countingRedeemFailures,
  giveBackAccount,
  holdAccount,
  LIMITS,
  requireCaptcha,
  requireCodeCaptcha,
} from './guards';
import { createSession, revokeSession } from './session';

/** A signed-in user and the token of their new session. */
export interface TSignedIn {
  user: User;
  token: string;
}

/**
 * E-mails a code for registering (refused when the address has an account) or for resetting the password
 * (refused when it has none). Resolves to how long before another can be sent.
 */
export async function sendAccountCode(
  ctx: TContext,
  input: TCaptchaFields & { email: string },
  purpose: EmailCodePurpose,
): Promise<{ cooldownSeconds: number }> {
  await requireCaptcha(ctx, input);
  const budgets = accountBudgets('code', ctx, input.email, LIMITS.codesPerAddress, LIMITS.codesPerAccount);
  await holdAccount(ctx, budgets);
  const exists = (await ctx.em.count(User, { email: input.email })) > 0;
  if (purpose === 'register' && exists) throw new AppError('EMAIL_EXISTS');
  if (purpose === 'reset' && !exists) throw new AppError('RESET_EMAIL_NOT_EXIST');
  await sendEmailCode(ctx.em, ctx.services, {
    email: input.email,
    purpose,
    captchaPassToken: input.pass_token,
  });
  return { cooldownSeconds: CODE_RESEND_COOLDOWN_MS / 1000 };
}

/** Logs in with e-mail and password; a wrong pair spends the login budget, a right one gives it back. */
export async function logIn(
  ctx: TContext,
  input: TCaptchaFields & { email: string; password: string },
): Promise<TSignedIn> {
  await requireCaptcha(ctx, input);
  const budgets = accountBudgets(
    'login',
    ctx,
    input.email,
    LIMITS.loginFailuresPerAddress,
    LIMITS.loginFailuresPerAccount,
  );
  await holdAccount(ctx, budgets);

  const user = await ctx.em.findOne(User, { email: input.email });
  const valid = await ctx.services.passwords.verify(user?.passwordHash ?? null, input.password);
  if (!user || !valid) throw new AppError('INCORRECT_CREDENTIALS');
  await giveBackAccount(ctx, budgets);
  if (user.disabled) throw new AppError('ACCOUNT_DISABLED');

  const now = ctx.services.now();
  user.previousLoginIp = user.lastLoginIp ?? null;
  user.previousLoginAt = user.lastLoginAt ?? null;
  user.lastLoginIp = ctx.request.ip;
  user.lastLoginAt = now;
  const token = await createSession(ctx.em, user, ctx.request, now);
  return { user, token };
}

/** Creates an account with the e-mailed code, and logs its user in. */
export async function registerAccount(
  ctx: TContext,
  input: TCaptchaFields & { email: string; code: string; username: string; password: string },
): Promise<TSignedIn> {
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
      return { user, token };
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new AppError('EMAIL_REGISTERED');
      throw error;
    }
  });
}

/** Ends this session: its token answers 401 afterwards, on every server. */
export async function logOut(ctx: TContext, sessionId: string): Promise<void> {
  await revokeSession(ctx.em, sessionId, ctx.services.now());
  await ctx.services.sessionEvents.ended({ sessionId });
}
