import { z } from 'zod';
import { ZCaptchaFields } from '../../schemas/captcha';
import { ZPassword, ZVerificationCode, zEmail } from '../../schemas/common';

const fillIn = 'Please fill in the complete registration information';

export const ZUsername = z
  .string({ error: fillIn })
  .trim()
  .min(1, { error: fillIn })
  .max(32, { error: 'The username cannot be longer than 32 characters' })
  .regex(/^[^\p{C}<>]+$/u, { error: 'The username contains characters that are not allowed' });

export const ZRegisterRequest = z.object({
  username: ZUsername,
  email: zEmail({ required: fillIn, format: 'The email format is incorrect' }),
  password: z.string({ error: fillIn }).min(1, { error: fillIn }).pipe(ZPassword),
  code: z.string({ error: fillIn }).min(1, { error: fillIn }).pipe(ZVerificationCode),
  ...ZCaptchaFields.shape,
});
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>;
