import { z } from 'zod';
import { committedBalanceCents } from '../../account/balance';
import { protectedProcedure } from '../../trpc';
import { ZUserInfo } from './userinfo.types';

export const userinfo = protectedProcedure
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
      lastLoginIp: user.lastLoginIp ?? null,
      lastLoginTime: user.lastLoginAt ?? null,
      createdAt: user.createdAt,
      impersonation: impersonator
        ? { adminEmail: impersonator.email, adminName: impersonator.username, expiresAt }
        : null,
    };
  });
