import { sendAccountCode } from '../../domains/accounts';
import { CAPTCHA_ERRORS, SEND_CODE_ERRORS } from '../../rest/rest-meta';
import { publicProcedure } from '../../trpc';
import {
  ZSendCodeResponse,
  ZSendRegisterCodeRequest,
  ZSendResetPasswordCodeRequest,
} from './send-code.types';

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
  .mutation(({ ctx, input }) => sendAccountCode(ctx, input, 'register'));

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
  .mutation(({ ctx, input }) => sendAccountCode(ctx, input, 'reset'));
