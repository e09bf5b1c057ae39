// What the admin calls take and return. Every one of them answers a non-administrator exactly as a path that does
// not exist would (see adminProcedure). Money is dollars on the wire, integer cents inside; lists page by keyset
// (an opaque cursor), so a page stays right while rows are added in front of it.
import { z } from 'zod';
import { ZPayment, ZPlanView } from '../pay/pay.types';

const ZId = z.uuid({ error: 'Unknown id' });

/** Query strings carry text, so numbers are coerced. */
const zLimit = z.coerce.number<string | number | undefined>().int().min(1).max(100).default(20);
const ZCursor = z.string().max(200).optional().describe('From the previous page’s nextCursor.');

export const ZUserTarget = z.object({ userId: ZId });

/**
 * Every change an administrator makes says why: the text goes to the audit row's reason (and to the ledger's note
 * where money moves). A word or two at least, so "x" does not pass for one.
 */
export const ZReason = z
  .string({ error: 'Please give a reason' })
  .trim()
  .min(1, { error: 'Please give a reason' })
  .min(3, { error: 'The reason must be at least 3 characters' })
  .max(500, { error: 'The reason can be at most 500 characters' })
  .describe('Why, for the audit log: 3 to 500 characters.');

/** An action on an account that takes nothing but its reason (password-reset e-mail, sessions, sign-in link). */
export const ZUserActionRequest = ZUserTarget.extend({ reason: ZReason });

// Users

export const userSorts = ['createdAt', 'lastLoginAt'] as const;

export const ZAdminUserListRequest = z.object({
  query: z.string().trim().max(254).optional().describe('Part of an e-mail address or a name.'),
  sort: z.enum(userSorts).default('createdAt').describe('Newest sign-up or newest login first.'),
  cursor: ZCursor,
  limit: zLimit,
});
export type TAdminUserListRequest = z.infer<typeof ZAdminUserListRequest>;

export const ZAdminUserRow = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  level: z.number().int(),
  role: z.enum(['user', 'admin']),
  disabled: z.boolean(),
  createdAt: z.date(),
  lastLoginAt: z.date().nullable(),
  lastLoginIp: z.string().nullable(),
});
export type TAdminUserRow = z.infer<typeof ZAdminUserRow>;

export const ZAdminUserList = z.object({
  items: z.array(ZAdminUserRow),
  nextCursor: z.string().nullable().describe('Null on the last page.'),
});

export const ZLedgerEntry = z.object({
  id: z.string(),
  amount: z.number().describe('Dollars; negative for purchases and refunds.'),
  kind: z.enum(['recharge', 'purchase', 'refund', 'adjustment']),
  note: z.string().nullable(),
  createdAt: z.date(),
});

export const ZAdminRoomRow = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(['stopped', 'starting', 'running', 'stopping', 'crashed']),
  isPublic: z.boolean(),
  hiddenFromSquare: z.boolean(),
  region: z.string().describe('The region’s code.'),
  createdAt: z.date(),
  lastStartedAt: z.date().nullable(),
});

export const ZAdminSession = z.object({
  id: z.string(),
  createdAt: z.date(),
  expiresAt: z.date(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  impersonatedBy: z.string().nullable().describe('The administrator’s e-mail for a sign-in-link session.'),
});

export const ZAdminReport = z.object({
  id: z.string(),
  roomId: z.string().nullable().describe('Null once the room was deleted.'),
  roomName: z.string(),
  roomOwner: z.object({ id: z.string(), email: z.string() }).nullable(),
  roomHidden: z.boolean(),
  roomState: z.enum(['stopped', 'starting', 'running', 'stopping', 'crashed']).nullable(),
  reason: z.string(),
  reporter: z.string().nullable().describe('The reporter’s e-mail; null for a guest.'),
  reporterIp: z.string(),
  createdAt: z.date(),
  resolvedAt: z.date().nullable(),
  resolution: z.enum(['dismiss', 'hide', 'stop', 'disableOwner']).nullable(),
  resolvedBy: z.string().nullable(),
});
export type TAdminReport = z.infer<typeof ZAdminReport>;

export const ZAdminUserDetail = z.object({
  user: ZAdminUserRow,
  plan: z.object({
    id: z.string(),
    name: z.string(),
    expiresAt: z.date().nullable().describe('Null: permanent.'),
    autoRenew: z.boolean(),
  }),
  balance: z.number().describe('Dollars.'),
  ledger: z.array(ZLedgerEntry).describe('The newest 50 entries.'),
  payments: z.array(ZPayment.extend({ refundedAt: z.date().nullable() })).describe('The newest 50 bills.'),
  rooms: z.array(ZAdminRoomRow),
  sessions: z.array(ZAdminSession).describe('Sessions that are still valid.'),
  reports: z.array(ZAdminReport).describe('Reports against this user’s rooms, newest first.'),
});
export type TAdminUserDetail = z.infer<typeof ZAdminUserDetail>;

export const ZSetDisabledRequest = ZUserTarget.extend({ disabled: z.boolean(), reason: ZReason });

export const ZSetLevelRequest = ZUserTarget.extend({
  level: z.coerce
    .number<string | number>()
    .int({ error: 'The level must be a whole number from 1 to 99' })
    .min(1, { error: 'The level must be a whole number from 1 to 99' })
    .max(99, { error: 'The level must be a whole number from 1 to 99' }),
  reason: ZReason,
});

export const ZGrantPlanRequest = ZUserTarget.extend({
  planId: z.uuid({ error: 'Please choose a plan' }),
  days: z.coerce
    .number<string | number>()
    .int({ error: 'The period must be from 1 to 3650 days' })
    .min(1, { error: 'The period must be from 1 to 3650 days' })
    .max(3650, { error: 'The period must be from 1 to 3650 days' }),
  reason: ZReason,
});

export const ZAdjustBalanceRequest = ZUserTarget.extend({
  amount: z.coerce
    .number<string | number>({ error: 'Please enter an amount' })
    .refine((value) => value !== 0, { error: 'The amount cannot be zero' })
    .refine((value) => Math.abs(value) <= 100_000, {
      error: 'The amount can be at most 100000 USD either way',
    })
    .refine(
      (value) =>
        Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6,
      {
        error: 'The amount must be in whole cents',
      },
    )
    .describe('Dollars: positive credits, negative debits.'),
  reason: ZReason,
});

export const ZLoginLink = z.object({
  url: z.string().describe('/admintologinuser/{token} on this site; it works once, for 5 minutes.'),
  expiresAt: z.date(),
});

export const ZDone = z.object({ ok: z.literal(true) });

// Rooms and moderation

export const ZAdminLiveRoom = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.object({ id: z.string(), email: z.string(), username: z.string() }),
  region: z.string(),
  state: z.enum(['stopped', 'starting', 'running', 'stopping', 'crashed']),
  members: z.number().int(),
  startedAt: z.date().nullable(),
  uptimeSeconds: z.number().int(),
  mediaPath: z.string().nullable().describe('h264 or screencast; null while none is live.'),
  fps: z.number().nullable().describe('Frames per second sent over the last seconds.'),
});
export const ZAdminLiveRoomList = z.array(ZAdminLiveRoom);

export const ZStopRoomRequest = z.object({ roomId: ZId, reason: ZReason });

export const reportStatuses = ['open', 'resolved', 'all'] as const;
export const ZReportListRequest = z.object({
  status: z.enum(reportStatuses).default('open'),
  cursor: ZCursor,
  limit: zLimit,
});
export const ZReportList = z.object({ items: z.array(ZAdminReport), nextCursor: z.string().nullable() });

export const reportActions = ['dismiss', 'hide', 'stop', 'disableOwner'] as const;
export const ZResolveReportRequest = z.object({
  reportId: ZId,
  action: z.enum(reportActions, { error: 'Please choose what to do with the report' }),
  reason: ZReason,
});

// Plans

export const ZAdminPlan = ZPlanView.extend({
  enabled: z.boolean(),
  sortOrder: z.number().int(),
  isDefault: z.boolean(),
  subscribers: z.number().int().describe('Users holding the plan now.'),
});
export const ZAdminPlanList = z.array(ZAdminPlan);

const zWhole = (label: string, min: number, max: number) =>
  z.coerce
    .number<string | number>({ error: `${label} must be a number` })
    .int({ error: `${label} must be a whole number from ${min} to ${max}` })
    .min(min, { error: `${label} must be a whole number from ${min} to ${max}` })
    .max(max, { error: `${label} must be a whole number from ${min} to ${max}` });

export const ZUpdatePlanRequest = z.object({
  id: ZId,
  name: z
    .string()
    .trim()
    .min(1, { error: 'The plan needs a name' })
    .max(64, { error: 'The name can be at most 64 characters' }),
  description: z.string().trim().max(255, { error: 'The description can be at most 255 characters' }),
  price: z.coerce
    .number<string | number>({ error: 'The price must be a number' })
    .min(0, { error: 'The price cannot be negative' })
    .max(100_000, { error: 'The price can be at most 100000 USD' })
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
      error: 'The price must be in whole cents',
    })
    .describe('Dollars.'),
  inventory: zWhole('The inventory', 0, 1_000_000).nullable().describe('Null: unlimited.'),
  maxRooms: zWhole('Rooms', 1, 1000),
  maxConnections: zWhole('Connections', 1, 1000),
  maxWidth: zWhole('The width', 320, 3840),
  maxHeight: zWhole('The height', 240, 2160),
  maxFrameRate: zWhole('The frame rate', 1, 60),
  maxBitrateKbps: zWhole('The bitrate', 100, 50_000),
  timeQuotaMinutes: zWhole('The time quota', 0, 1_000_000),
  freeTimeQuotaMinutes: zWhole('The monthly free time', 0, 1_000_000),
  enabled: z.boolean(),
  sortOrder: zWhole('The order', -1000, 1000),
  reason: ZReason,
});
export type TUpdatePlanRequest = z.infer<typeof ZUpdatePlanRequest>;

// Payments

export const ZAdminPaymentListRequest = z.object({
  status: z.enum(['unpaid', 'paid', 'expired', 'unknown']).optional(),
  query: z.string().trim().max(254).optional().describe('Part of the payer’s e-mail or the order number.'),
  cursor: ZCursor,
  limit: zLimit,
});
export const ZAdminPayment = ZPayment.extend({
  refundedAt: z.date().nullable(),
  user: z.object({ id: z.string(), email: z.string() }),
});
export const ZAdminPaymentList = z.object({
  items: z.array(ZAdminPayment),
  nextCursor: z.string().nullable(),
});
export const ZPaymentTarget = z.object({ paymentId: ZId });
export const ZRefundRequest = ZPaymentTarget.extend({ reason: ZReason });

// Audit log

export const ZAuditListRequest = z.object({
  action: z.string().trim().max(64).optional(),
  actor: z.string().trim().max(254).optional().describe('Part of the administrator’s e-mail.'),
  targetId: z.string().trim().max(64).optional(),
  since: z.coerce.date().optional(),
  until: z.coerce.date().optional(),
  cursor: ZCursor,
  limit: zLimit,
});
export const ZAuditEntry = z.object({
  id: z.string(),
  actor: z.string().describe('The administrator’s e-mail, or cli.'),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  targetLabel: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.date(),
});
export const ZAuditList = z.object({ items: z.array(ZAuditEntry), nextCursor: z.string().nullable() });
