import type { EmailCodePurpose } from '@rooms/db';
import { User } from '@rooms/db';
import type { TContext } from '../../context';
import {
  accountBudgets,
  CODE_RESEND_COOLDOWN_MS,
  holdAccount,
  LIMITS,
  requireCaptcha,
  sendEmailCode,
} from '../../domains/accounts';
import { AppError } from '../../errors';
import { CAPTCHA_ERRORS, SEND_CODE_ERRORS } from '../../rest/rest-meta';
import type { TCaptchaFields } from '../../schemas/captcha';
import { publicProcedure } from '../../trpc';
import {
  ZSendCodeResponse,
  ZSendRegisterCodeRequest,
  ZSendResetPasswordCodeRequest,
} from './send-code.types';

async function sendCode(
  ctx: TContext,
  input: TCaptchaFields & { email: string },
  purpose: EmailCodePurpose,
  checkAccount: (exists: boolean) => void,
) {
  // The captcha first: a request without a solved one must not spend the address's or the account's codes.
  await requireCaptcha(ctx, input);
  const budgets = accountBudgets('code', ctx, input.email, LIMITS.codesPerAddress, LIMITS.codesPerAccount);
  await holdAccount(ctx, budgets);
  checkAccount((await ctx.em.count(User, { email: input.email })) > 0);
  await sendEmailCode(ctx.em, ctx.services, {
    email: input.email,
    purpose,
    captchaPassToken: input.pass_token,
  });
  return { cooldownSeconds: CODE_RESEND_COOLDOWN_MS / 1000 };
}

export const sendRegisterCode = publicProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/user/sendRegisterCode',
      auth: false,
      tag: 'User',
      errors: [...CAPTCHA_ERRORS, 'TOO_MANY_REQUESTS', 'EMAIL_EXISTS', ...SEND_CODE_ERRORS],
    },
  })
  .meta({ summary: 'E-mail a registration code (captcha required; one per minute per address).' })
  .input(ZSendRegisterCodeRequest)
  .output(ZSendCodeResponse)
  .mutation(({ ctx, input }) =>
    sendCode(ctx, input, 'register', (exists) => {
      if (exists) throw new AppError('EMAIL_EXISTS');
    }),
  );

export const sendResetPasswordCode = publicProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/user/sendResetPasswordCode',
      auth: false,
      tag: 'User',
      errors: [...CAPTCHA_ERRORS, 'TOO_MANY_REQUESTS', 'RESET_EMAIL_NOT_EXIST', ...SEND_CODE_ERRORS],
    },
  })
  .meta({ summary: 'E-mail a password reset code (captcha required; one per minute per address).' })
  .input(ZSendResetPasswordCodeRequest)
  .output(ZSendCodeResponse)
  .mutation(({ ctx, input }) =>
    sendCode(ctx, input, 'reset', (exists) => {
      if (!exists) throw new AppError('RESET_EMAIL_NOT_EXIST');
    }),
  );
