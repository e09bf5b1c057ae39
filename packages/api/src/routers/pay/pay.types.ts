// What the pay calls take and return. Money is dollars on the wire, integer cents inside.
import { z } from 'zod';
import { ZPlanLimits } from '../room/plan-limits.types';

export const ZPlanView = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number().describe('Dollars.'),
  durationDays: z.number().int().nullable().describe('Null: permanent.'),
  permanent: z.boolean(),
  inventory: z.number().int().nullable().describe('Copies left; null when unlimited.'),
  soldOut: z.boolean(),
  isFree: z.boolean().describe('The free plan: claimed once, never bought.'),
  level: z.number().int().describe('The account level while holding it; above 1 is VIP.'),
  ...ZPlanLimits.shape,
  timeQuotaMinutes: z.number().int().describe('Room minutes each period grants (the free plan’s once).'),
  freeTimeQuotaMinutes: z.number().int().describe('Room minutes granted every calendar month.'),
});
export type TPlanView = z.infer<typeof ZPlanView>;

export const ZPlanListItem = ZPlanView.extend({
  current: z.boolean().describe('The plan the caller holds now.'),
  claimable: z.boolean().describe('The free plan, not yet claimed by the caller, who holds no paid plan.'),
  claimed: z.boolean().describe('The free plan, already claimed by the caller.'),
});
export const ZPlanList = z.array(ZPlanListItem);

export const ZUserPlan = z.object({
  plan: ZPlanView,
  claimed: z.boolean().describe('False while the caller holds the free plan without having claimed it.'),
  startsAt: z.date().nullable(),
  expiresAt: z.date().nullable().describe('Null: permanent.'),
  permanent: z.boolean(),
  autoRenew: z.boolean(),
  canAutoRenew: z.boolean().describe('Auto-renew applies to paid plans only.'),
  remainingTimeQuotaSeconds: z.number().int(),
  remainingFreeTimeQuotaSeconds: z.number().int(),
  freeTimeQuotaResetsAt: z.date(),
  level: z.number().int(),
  balance: z.number().describe('Dollars.'),
});
export type TUserPlan = z.infer<typeof ZUserPlan>;

export const ZPayPlanRequest = z.object({
  id: z.string({ error: 'Please choose a plan' }).trim().min(1, { error: 'Please choose a plan' }),
});

export const ZPayPlanReply = z.object({
  plan: ZPlanView,
  expiresAt: z.date().nullable(),
  renewed: z.boolean().describe('The plan held was extended rather than replaced.'),
  credit: z
    .number()
    .describe('Dollars credited for the unused part of the plan replaced (0 on a renewal or from Free).'),
  balance: z.number().describe('Dollars left.'),
  level: z.number().int(),
});

export const ZQuotePlanReply = z.object({
  plan: ZPlanView,
  renews: z.boolean().describe('The plan held: buying it extends its period instead of replacing it.'),
  price: z.number().describe('Dollars.'),
  credit: z.number().describe('Dollars credited for the unused part of the plan held now, pro rata by time.'),
  net: z.number().describe('Price less credit, dollars; negative when the credit is larger.'),
  balance: z.number().describe('Dollars now.'),
  balanceAfter: z
    .number()
    .describe('Dollars after the purchase; negative when the balance does not cover it.'),
  missing: z.number().describe('Dollars to recharge before the purchase can go through; 0 when covered.'),
});
export type TQuotePlan = z.infer<typeof ZQuotePlanReply>;

/** Query strings carry text: 'true'/'false' and '1'/'0' are accepted beside JSON booleans. */
export const ZFlag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'The flag must be true or false' })
  .transform((value) => value === true || value === 'true' || value === '1');

export const ZSwitchRenewRequest = z.object({ flag: ZFlag });
export const ZSwitchRenewReply = z.object({
  autoRenew: z.boolean(),
  expiresAt: z.date().nullable().describe('When the plan renews (or lapses).'),
  renewalPrice: z.number().describe('Dollars the next renewal debits.'),
  balance: z.number().describe('Dollars now.'),
  missing: z
    .number()
    .describe('Dollars the balance lacks for the next renewal while auto-renew is on; 0 when covered.'),
  warning: z
    .string()
    .nullable()
    .describe('Said when auto-renew is on but the balance does not cover the next renewal.'),
});
export type TSwitchRenewReply = z.infer<typeof ZSwitchRenewReply>;

export const ZPaymentStatus = z.enum(['unpaid', 'paid', 'expired', 'unknown']);

export const ZPayment = z.object({
  id: z.string(),
  out_trade_no: z.string(),
  amount: z.number().describe('Dollars.'),
  currency: z.string(),
  method: z.string(),
  status: ZPaymentStatus,
  createdAt: z.date(),
  paidAt: z.date().nullable(),
  expiresAt: z.date().describe('An unpaid bill expires then.'),
  paymentUrl: z.string().nullable().describe('Where to pay; only while unpaid.'),
  transactionNo: z.string().nullable(),
});
export type TPayment = z.infer<typeof ZPayment>;

/** Query strings carry text, so numbers are coerced. */
const zPageNumber = (fallback: number, max: number) =>
  z.coerce.number<string | number | undefined>().int().min(1).max(max).default(fallback);

export const ZPayListRequest = z
  .object({ page: zPageNumber(1, 100_000), pageSize: zPageNumber(10, 100) })
  .optional()
  .transform((value) => value ?? { page: 1, pageSize: 10 });

export const ZPayList = z.object({
  items: z.array(ZPayment),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const ZPayInfoRequest = z.object({
  id: z.string().trim().min(1, { error: 'The bill does not exist' }),
});

export const ZPaymentMethods = z.object({
  methods: z.array(z.object({ method: z.string(), name: z.string(), currency: z.string() })),
  presets: z.array(z.number()).describe('Suggested amounts, dollars.'),
  minAmount: z.number(),
  maxAmount: z.number(),
  expiresInMinutes: z.number().int().describe('How long a new bill stays payable.'),
});

export const RECHARGE_REQUIRED = 'Please choose a payment method and an amount';

export const RETURN_PATH_INVALID = 'The page to return to must be a page of this site';
const RETURN_PATH_MAX_LENGTH = 512;

/**
 * A page of this site to come back to after paying (the purchase a recharge was for): a path, never an address
 * elsewhere (no scheme, no `//host`, no backslash a browser would read as a slash, no spaces or control characters).
 */
export function isReturnPath(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length <= RETURN_PATH_MAX_LENGTH && /^\/(?![/\\])[^\\\s]*$/.test(value)
  );
}

export const ZReturnPath = z
  .string({ error: RETURN_PATH_INVALID })
  .refine(isReturnPath, { error: RETURN_PATH_INVALID })
  .describe('A path of this site, e.g. /planlist?buy=pro');

export const ZRechargeRequest = z.object({
  method: z.string({ error: RECHARGE_REQUIRED }).trim().min(1, { error: RECHARGE_REQUIRED }).max(16),
  amount: z.coerce
    .number<string | number>({ error: RECHARGE_REQUIRED })
    .positive({ error: RECHARGE_REQUIRED })
    .describe('Dollars, at most two decimals.'),
  returnTo: ZReturnPath.optional().describe(
    'Where the payer goes back to once the bill is paid (the purchase the recharge was for).',
  ),
});

export const ZRefreshRequest = z.object({
  out_trade_no: z.string().trim().min(1, { error: 'The bill does not exist' }).max(64),
});

export const ZNotice = z.object({
  id: z.string(),
  kind: z.enum(['quota-exhausted', 'plan-renewed', 'plan-lapsed']),
  planName: z.string(),
  roomsStopped: z.number().int(),
  createdAt: z.date(),
});
export const ZNoticesReadRequest = z.object({ ids: z.array(z.string()).max(100) });
