// Checks that run before an account call does anything: the captcha first, then the budgets of tries. Nothing is
// counted for a call without a valid captcha, so a stranger who has not solved one spends nobody's budget.
import type { EmailCodePurpose } from '@rooms/db';
import type { TContext } from '../context';
import type { TCaptchaFields } from '../schemas/captcha';
import {
  addressBudgets,
  addressGroup,
  refuseWhenSpent,
  spend,
  type TAddressLimit,
  type TBudget,
  type TLimit,
} from './budgets';
import { isCodeCaptcha } from './email-codes';

/** Budgets per caller; generous for people, tight enough to stop guessing. */
export const LIMITS = {
  /** Wrong passwords, from one address (its /24 or /64 as a whole), over every account. */
  loginFailuresPerAddress: { limit: 30, groupLimit: 90, windowSeconds: 15 * 60 },
  /** Wrong passwords on one account, whoever sends them (see accountBudgets). */
  loginFailuresPerAccount: { limit: 10, windowSeconds: 15 * 60 },
  codesPerAddress: { limit: 20, groupLimit: 40, windowSeconds: 60 * 60 },
  codesPerAccount: { limit: 6, windowSeconds: 60 * 60 },
  /** Register and reset calls that failed (a wrong code, mostly). */
  redeemFailuresPerAddress: { limit: 30, groupLimit: 90, windowSeconds: 15 * 60 },
  captchaPerAddress: { limit: 120, groupLimit: 360, windowSeconds: 60 * 60 },
} satisfies Record<string, TLimit | TAddressLimit>;

/** Refuses the call when one of its budgets is spent, else counts it against each. */
export async function throttle(ctx: TContext, budgets: readonly TBudget[]): Promise<void> {
  await refuseWhenSpent(ctx.services.rateLimiter, budgets);
  await spend(ctx.services.rateLimiter, budgets);
}

/**
 * The budgets of tries on one account from this caller. The account's own counter is shared by everyone, but
 * once it is spent only the address groups that spent some of it are refused: a stranger guessing at someone's
 * account locks out the stranger's network, never the owner's.
 */
export function accountBudgets(
  name: string,
  ctx: TContext,
  account: string,
  perAddress: TAddressLimit,
  perAccount: TLimit,
): { account: TBudget; fromHere: TBudget; address: TBudget[] } {
  return {
    account: { key: `${name}:account:${account}`, ...perAccount },
    fromHere: {
      key: `${name}:account:${account}:net:${addressGroup(ctx.request.ip)}`,
      limit: 1,
      windowSeconds: perAccount.windowSeconds,
    },
    address: addressBudgets(name, ctx.request.ip, perAddress),
  };
}

/** Throws TOO_MANY_REQUESTS when this caller may not try again on the account; counts nothing. */
export async function refuseWhenAccountSpent(
  ctx: TContext,
  budgets: ReturnType<typeof accountBudgets>,
): Promise<void> {
  const limiter = ctx.services.rateLimiter;
  await refuseWhenSpent(limiter, budgets.address);
  const accountWait = await limiter.peek(budgets.account.key, budgets.account.limit);
  if (accountWait > 0) await refuseWhenSpent(limiter, [budgets.fromHere]);
}

/** Counts one try on the account from this caller. */
export function spendAccount(ctx: TContext, budgets: ReturnType<typeof accountBudgets>): Promise<void> {
  return spend(ctx.services.rateLimiter, [budgets.account, budgets.fromHere, ...budgets.address]);
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

/**
 * Runs a register or reset call after its captcha: refused while the address's budget of failures is spent, and
 * a failure (a wrong code, an unknown address) counts against it.
 */
export async function countingRedeemFailures<T>(ctx: TContext, call: () => Promise<T>): Promise<T> {
  const budgets = addressBudgets('redeem', ctx.request.ip, LIMITS.redeemFailuresPerAddress);
  await refuseWhenSpent(ctx.services.rateLimiter, budgets);
  try {
    return await call();
  } catch (error) {
    await spend(ctx.services.rateLimiter, budgets);
    throw error;
  }
}
