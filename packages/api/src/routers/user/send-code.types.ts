import { z } from 'zod';
import { ZCaptchaFields } from '../../schemas/captcha';
import { zEmail } from '../../schemas/common';
import { INVALID_REGISTER_EMAIL } from './register.types';

export const ZSendRegisterCodeRequest = z.object({
  email: zEmail({ required: INVALID_REGISTER_EMAIL, format: INVALID_REGISTER_EMAIL }),
  ...ZCaptchaFields.shape,
});
export type TSendRegisterCodeRequest = z.infer<typeof ZSendRegisterCodeRequest>;

export const ZSendResetPasswordCodeRequest = z.object({
  email: zEmail({ required: 'Please enter a valid email address', format: 'Email is incorrect' }),
  ...ZCaptchaFields.shape,
});
export type TSendResetPasswordCodeRequest = z.infer<typeof ZSendResetPasswordCodeRequest>;

export const ZSendCodeResponse = z
  .object({ cooldownSeconds: z.number().int().describe('Seconds before another code may be requested.') })
  .describe('The code was e-mailed; it is valid 10 minutes.');
