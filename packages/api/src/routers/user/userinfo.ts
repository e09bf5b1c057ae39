import { z } from 'zod';
import { committedBalanceCents } from '../../domains/billing';
import { protectedProcedure } from '../../trpc';
import { ZUserInfo } from './userinfo.types';

export const userinfo = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/user/userinfo', tag: 'User', errors: [] } })
  .meta({ summary: 'The signed-in user as the profile screen shows it.' })
  .input(z.object({}).optional())
  .output(ZUserInfo)
  .query(async ({ ctx }) => {
    const { user, impersonator, expiresAt } = ctx.session;
    return {
      username: user.username,
      avatar: user.avatar,
      email: user.email,
      level: user.level,
      role: user.role,
      balance: (await committedBalanceCents(() => ctx.em, user.id, ctx.services.balanceCache)) / 100,
      // The sign-in before this visit's own: the latest is the one the person is making now.
      lastLoginIp: user.previousLoginIp,
      lastLoginTime: user.previousLoginAt,
      createdAt: user.createdAt,
      impersonation: impersonator
        ? { adminEmail: impersonator.email, adminName: impersonator.username, expiresAt }
        : null,
    };
  });
