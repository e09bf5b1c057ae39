import { z } from 'zod';
import { ZCaptchaFields } from '../../schemas/captcha';
import { ZPassword, zEmail } from '../../schemas/common';

const required = 'Please fill in the email, verification code and new password';

export const ZResetPasswordRequest = z.object({
  email: zEmail({ required, format: 'Email is incorrect' }),
  password: z.string({ error: required }).min(1, { error: required }).pipe(ZPassword),
  code: z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .regex(/^\d{6}$/, { error: 'Code is incorrect' }),
  ...ZCaptchaFields.shape,
});
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;
