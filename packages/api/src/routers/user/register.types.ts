import { z } from 'zod';
import { ZCaptchaFields } from '../../schemas/captcha';
import { ZPassword, ZVerificationCode, zEmail } from '../../schemas/common';

const fillIn = 'Please fill in the complete registration information';
/** Registration: a valid e-mail address is required. */
export const INVALID_REGISTER_EMAIL = 'Please enter a valid email address';

export const ZUsername = z
  .string({ error: fillIn })
  .trim()
  .min(1, { error: fillIn })
  .max(32, { error: 'The username cannot be longer than 32 characters' })
  .regex(/^[^\p{C}<>]+$/u, { error: 'The username contains characters that are not allowed' });

export const ZRegisterRequest = z.object({
  username: ZUsername,
  email: zEmail({ required: fillIn, format: INVALID_REGISTER_EMAIL }),
  password: z.string({ error: fillIn }).min(1, { error: fillIn }).pipe(ZPassword),
  code: z.string({ error: fillIn }).min(1, { error: fillIn }).pipe(ZVerificationCode),
  ...ZCaptchaFields.shape,
});
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>;
