// The captcha as a client sees it: which provider to load and, for the self-hosted one, its challenge and redeem
// calls (documented in the OpenAPI document so a script can solve it).
import { z } from 'zod';
import type { TContext } from '../../context';
import { addressBudgets, LIMITS, throttle } from '../../domains/accounts';
import { AppError } from '../../errors';
import { ZCaptchaFields } from '../../schemas/captcha';
import { ZCaptchaChallenge, ZCaptchaSolution } from '../../schemas/self-hosted-captcha';
import { publicProcedure, router } from '../../trpc';

function selfHosted(ctx: TContext) {
  if (!ctx.services.selfHostedCaptcha) {
    throw new AppError('NOT_FOUND', { message: 'The self-hosted captcha is not enabled on this server' });
  }
  return ctx.services.selfHostedCaptcha;
}

export const captchaRouter = router({
  config: publicProcedure
    .meta({ rest: { method: 'GET', path: '/api/captcha/config', auth: false, tag: 'Captcha', errors: [] } })
    .meta({
      summary: 'Which captcha the client must solve: GeeTest v4 (load its script) or the self-hosted one.',
    })
    .input(z.object({}).optional())
    .output(z.object({ provider: z.enum(['self-hosted', 'geetest']), captchaId: z.string() }))
    .query(({ ctx }) => ({
      provider: ctx.services.captcha.provider,
      captchaId: ctx.services.captcha.captchaId,
    })),

  challenge: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/captcha/challenge',
        auth: false,
        tag: 'Captcha',
        errors: ['TOO_MANY_REQUESTS', 'NOT_FOUND'],
      },
    })
    .meta({
      summary:
        'Self-hosted captcha, step 1: a proof-of-work challenge. Find `number` in [0, maxnumber] with ' +
        'sha256_hex(salt + number) == challenge, then redeem it with POST /api/captcha/verify.',
    })
    .input(z.object({}).optional())
    .output(ZCaptchaChallenge)
    .query(async ({ ctx }) => {
      await throttle(ctx, addressBudgets('captcha', ctx.request.ip, LIMITS.captchaPerAddress));
      return selfHosted(ctx).createChallenge();
    }),

  verify: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/captcha/verify',
        auth: false,
        tag: 'Captcha',
        errors: ['NOT_FOUND', 'CAPTCHA_FAILED', 'PASS_TOKEN_USED'],
      },
    })
    .meta({
      summary:
        'Self-hosted captcha, step 2: trade a solved challenge for the five captcha fields (lot_number, ' +
        'captcha_output, pass_token, gen_time, captcha_id) that login, register and the code calls require. ' +
        'Each pass_token is accepted once.',
    })
    .input(ZCaptchaSolution)
    .output(ZCaptchaFields)
    .mutation(({ ctx, input }) => selfHosted(ctx).redeem(input)),
});
