import { z } from 'zod';
import { redeemLoginLink } from '../../domains/admin';
import { publicProcedure } from '../../trpc';
import { sessionResponse } from './login';
import { ZSessionResponse } from './login.types';

const invalid = 'This sign-in link is invalid or has expired';

export const adminLogin = publicProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/user/adminLogin',
      auth: false,
      tag: 'User',
      errors: ['LOGIN_LINK_INVALID'],
    },
  })
  .meta({
    summary:
      'Open an administrator’s one-time sign-in link (the /admintologinuser/{token} page): a short-lived session as that user.',
  })
  .input(
    z.object({
      token: z.string({ error: invalid }).trim().min(1, { error: invalid }).max(256, { error: invalid }),
    }),
  )
  .output(ZSessionResponse)
  .mutation(async ({ ctx, input }) => {
    const { sessionToken, user } = await redeemLoginLink(
      { em: ctx.em, now: ctx.services.now(), request: ctx.request },
      input.token,
    );
    return sessionResponse(user, sessionToken);
  });
