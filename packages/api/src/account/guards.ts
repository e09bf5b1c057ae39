// Checks that run before an account call does anything: throttling and the captcha.
import type { EmailCodePurpose } from '@rooms/db';
import type { TContext } from '../context';
import { AppError } from '../errors';
import type { TCaptchaFields } from '../schemas/captcha';
import { isCodeCaptcha } from './email-codes';

interface TLimit {
  limit: number;
  windowSeconds: number;
}

/** Budgets per caller; generous for people, tight enough to stop guessing. */
export const LIMITS = {
  loginPerIp: { limit: 30, windowSeconds: 15 * 60 },
  loginPerAccount: { limit: 10, windowSeconds: 15 * 60 },
  codePerIp: { limit: 20, windowSeconds: 60 * 60 },
  codePerAccount: { limit: 6, windowSeconds: 60 * 60 },
  redeemPerIp: { limit: 30, windowSeconds: 15 * 60 },
  captchaPerIp: { limit: 120, windowSeconds: 60 * 60 },
} satisfies Record<string, TLimit>;

export async function throttle(ctx: TContext, checks: [key: string, limit: TLimit][]): Promise<void> {
  for (const [key, { limit, windowSeconds }] of checks) {
    const wait = await ctx.services.rateLimiter.hit(key, limit, windowSeconds);
    if (wait > 0) throw new AppError('TOO_MANY_REQUESTS', { args: [wait] });
  }
}

export async function requireCaptcha(ctx: TContext, fields: TCaptchaFields): Promise<void> {
  await ctx.services.captcha.verify(fields);
}

/**
 * Register and reset carry the captcha fields too. The captcha that sent the code is accepted again for the call
 * that spends it (that is how the spec's screens work); any other captcha must be fresh.
 */
export async function requireCodeCaptcha(
  ctx: TContext,
  email: string,
  purpose: EmailCodePurpose,
  fields: TCaptchaFields,
): Promise<void> {
  if (await isCodeCaptcha(ctx.em, email, purpose, fields.pass_token)) return;
  await requireCaptcha(ctx, fields);
}
