import { z } from 'zod';
import { errorSpec } from '../../errors';
import { captchaFieldsOf } from '../../schemas/captcha';
import { ZPassword } from '../../schemas/common';

const empty = 'The password cannot be empty';
/** The change-password form: one text for a captcha missing, failed or spent. */
const verifyAgain = errorSpec('VERIFICATION_INVALID').message;

export const ZUpdatePasswordRequest = z.object({
  oldPassword: z.string({ error: empty }).min(1, { error: empty }).max(128, { error: 'Incorrect password' }),
  newPassword: z.string({ error: empty }).min(1, { error: empty }).pipe(ZPassword),
  ...captchaFieldsOf({ required: verifyAgain, invalid: verifyAgain }).shape,
});
export type TUpdatePasswordRequest = z.infer<typeof ZUpdatePasswordRequest>;
