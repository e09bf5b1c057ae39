// admin.users.*: find accounts, read one whole, and act on it.

import {
  adjustBalance as adjustBalanceOf,
  createLoginLink as createLoginLinkFor,
  endUserSessions,
  grantUserPlan,
  searchUsers,
  sendPasswordReset as sendPasswordResetTo,
  setUserDisabled,
  setUserLevel,
  userDetail,
} from '../../domains/admin';
import { toCents } from '../../domains/billing';
import { AppError } from '../../errors';
import { SEND_CODE_ERRORS } from '../../rest/rest-meta';
import { siteUrls } from '../../site-urls';
import { adminProcedure, router } from '../../trpc';
import {
  ZAdjustBalanceRequest,
  ZAdminUserDetail,
  ZAdminUserList,
  ZAdminUserListRequest,
  type ZAdminUserRow,
  ZDone,
  ZGrantPlanRequest,
  ZLoginLink,
  ZSetDisabledRequest,
  ZSetLevelRequest,
  ZUserActionRequest,
  ZUserTarget,
} from './admin.types';
import { adminDeps } from './admin-deps';

type TUserRow = typeof ZAdminUserRow._zod.output;

function userRow(user: {
  id: string;
  username: string;
  email: string;
  level: number;
  role: 'user' | 'admin';
  disabled: boolean;
  createdAt: Date;
  lastLoginAt?: Date | null;
  lastLoginIp?: string | null;
}): TUserRow {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    level: user.level,
    role: user.role,
    disabled: user.disabled,
    createdAt: user.createdAt,
    lastLoginAt: user.lastLoginAt ?? null,
    lastLoginIp: user.lastLoginIp ?? null,
  };
}

const DONE = { ok: true } as const;

export const adminUsersRouter = router({
  list: adminProcedure
    .meta({ rest: { method: 'GET', path: '/api/admin/users/list', tag: 'Admin', errors: [] } })
    .meta({
      summary: 'Administrator: accounts by e-mail or name, newest sign-up or login first, by keyset pages.',
    })
    .input(ZAdminUserListRequest)
    .output(ZAdminUserList)
    .query(async ({ ctx, input }) => {
      const page = await searchUsers(ctx.em, input);
      return { items: page.items.map(userRow), nextCursor: page.nextCursor };
    }),

  get: adminProcedure
    .meta({ rest: { method: 'GET', path: '/api/admin/users/get', tag: 'Admin', errors: ['USER_NOT_FOUND'] } })
    .meta({ summary: 'Administrator: one account with its plan, money, rooms, sessions and reports.' })
    .input(ZUserTarget)
    .output(ZAdminUserDetail)
    .query(async ({ ctx, input }) => {
      const detail = await userDetail(ctx.em, input.userId, ctx.services.now());
      return { ...detail, user: userRow(detail.user) };
    }),

  setDisabled: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/users/setDisabled',
        tag: 'Admin',
        errors: ['USER_NOT_FOUND', 'CANNOT_DISABLE_SELF'],
      },
    })
    .meta({
      summary: 'Administrator: disable (sessions end, sockets close, rooms stop) or enable an account.',
    })
    .input(ZSetDisabledRequest)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await setUserDisabled(adminDeps(ctx, input), input.userId, input.disabled);
      return DONE;
    }),

  setLevel: adminProcedure
    .meta({
      rest: { method: 'POST', path: '/api/admin/users/setLevel', tag: 'Admin', errors: ['USER_NOT_FOUND'] },
    })
    .meta({ summary: 'Administrator: set the account level (above 1 shows as VIP).' })
    .input(ZSetLevelRequest)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await setUserLevel(adminDeps(ctx, input), input.userId, input.level);
      return DONE;
    }),

  grantPlan: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/users/grantPlan',
        tag: 'Admin',
        errors: ['USER_NOT_FOUND', 'PLAN_NOT_FOUND'],
      },
    })
    .meta({ summary: 'Administrator: give a plan for a number of days, free of charge.' })
    .input(ZGrantPlanRequest)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await grantUserPlan(adminDeps(ctx, input), input);
      return DONE;
    }),

  adjustBalance: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/users/adjustBalance',
        tag: 'Admin',
        errors: ['USER_NOT_FOUND', 'ADJUSTMENT_EXCEEDS_BALANCE'],
      },
    })
    .meta({ summary: 'Administrator: credit or debit the balance through the ledger, with a reason.' })
    .input(ZAdjustBalanceRequest)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      const amountCents = toCents(input.amount);
      if (amountCents === null)
        throw new AppError('BAD_INPUT', { message: 'The amount must be in whole cents' });
      await adjustBalanceOf(adminDeps(ctx, input), {
        userId: input.userId,
        amountCents,
        reason: input.reason,
      });
      return DONE;
    }),

  sendPasswordReset: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/users/sendPasswordReset',
        tag: 'Admin',
        errors: ['USER_NOT_FOUND', ...SEND_CODE_ERRORS],
      },
    })
    .meta({ summary: 'Administrator: e-mail the user a password-reset code.' })
    .input(ZUserActionRequest)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await sendPasswordResetTo({ ...adminDeps(ctx, input), services: ctx.services }, input.userId);
      return DONE;
    }),

  endSessions: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/users/endSessions',
        tag: 'Admin',
        errors: ['USER_NOT_FOUND'],
      },
    })
    .meta({ summary: 'Administrator: end every session of the account; its room sockets close.' })
    .input(ZUserActionRequest)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await endUserSessions(adminDeps(ctx, input), input.userId);
      return DONE;
    }),

  createLoginLink: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/users/createLoginLink',
        tag: 'Admin',
        errors: ['USER_NOT_FOUND'],
      },
    })
    .meta({ summary: 'Administrator: a one-time link (5 minutes) that signs a browser in as the user.' })
    .input(ZUserActionRequest)
    .output(ZLoginLink)
    .mutation(({ ctx, input }) =>
      createLoginLinkFor({ ...adminDeps(ctx, input), publicUrl: siteUrls(ctx).publicUrl }, input.userId),
    ),
});
