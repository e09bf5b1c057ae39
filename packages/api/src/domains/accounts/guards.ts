// Checks that run before an account call does anything: the captcha first, then the budgets of tries. Nothing is
// counted for a call without a valid captcha, so a stranger who has not solved one spends nobody's budget. A try
// is counted before the work it guards and given back when it turns out not to be a failure, never counted after
// it: wrong passwords sent at once would all pass a check made before the first of them was counted.
import type { EmailCodePurpose } from '@rooms/db';
import type { TContext } from '../../context';
import { AppError } from '../../errors';
import type { TCaptchaFields } from '../../schemas/captcha';
import {
  addressBudgets,
  addressGroup,
  giveBack,
  holdOrRefuse,
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

/** Counts the call against each of its budgets; refuses it, counting nothing, when one is spent. */
export function throttle(ctx: TContext, budgets: readonly TBudget[]): Promise<void> {
  return holdOrRefuse(ctx.services.rateLimiter, budgets);
}

export interface TAccountBudgets {
  account: TBudget;
  fromHere: TBudget;
  address: TBudget[];
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
): TAccountBudgets {
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

/**
 * Counts one try on the account from this caller, before the work it guards. Throws TOO_MANY_REQUESTS, counting
 * nothing, when this caller may not try again: the address's budget is spent, or the account's is and this
 * caller's network has spent some of it.
 */
export async function holdAccount(ctx: TContext, budgets: TAccountBudgets): Promise<void> {
  const limiter = ctx.services.rateLimiter;
  const hit = (budget: TBudget) => limiter.hit(budget.key, budget.limit, budget.windowSeconds);
  await holdOrRefuse(limiter, budgets.address);
  const accountWait = await hit(budgets.account);
  const hereWait = await hit(budgets.fromHere);
  if (accountWait > 0 && hereWait > 0) {
    await giveBackAccount(ctx, budgets);
    throw new AppError('TOO_MANY_REQUESTS', { args: [hereWait] });
  }
}

/** Takes back the try holdAccount counted: it succeeded, so it spends nothing. */
export function giveBackAccount(ctx: TContext, budgets: TAccountBudgets): Promise<void> {
  return giveBack(ctx.services.rateLimiter, [budgets.account, budgets.fromHere, ...budgets.address]);
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
 * Runs a register or reset call after its captcha: refused while the address's budget of failures is spent; the
 * call is counted against it before it runs and given back when it succeeds, so a failure (a wrong code, an
 * unknown address) counts.
 */
export async function countingRedeemFailures<T>(ctx: TContext, call: () => Promise<T>): Promise<T> {
  const budgets = addressBudgets('redeem', ctx.request.ip, LIMITS.redeemFailuresPerAddress);
  await holdOrRefuse(ctx.services.rateLimiter, budgets);
  const result = await call();
  await giveBack(ctx.services.rateLimiter, budgets);
  return result;
}
