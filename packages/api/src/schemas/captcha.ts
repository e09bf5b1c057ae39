// The five fields a solved captcha hands to the server (spec §3), the same for GeeTest v4 and the self-hosted one.
import { z } from 'zod';

const requiredField = z
  .string({ error: 'Please complete the verification' })
  .min(1, { error: 'Please complete the verification' })
  .max(2048, { error: 'verification failed' });

export const ZCaptchaFields = z.object({
  lot_number: requiredField,
  captcha_output: requiredField,
  pass_token: requiredField,
  gen_time: requiredField,
  captcha_id: requiredField,
});

export type TCaptchaFields = z.infer<typeof ZCaptchaFields>;

export const CAPTCHA_FIELD_NAMES = Object.keys(ZCaptchaFields.shape) as (keyof TCaptchaFields)[];

/**
 * The captcha fields where a captcha is needed only sometimes (a share password after several wrong tries): all
 * optional, and taken as a captcha only when all five are sent.
 */
export const ZOptionalCaptchaFields = ZCaptchaFields.partial();

export function captchaOf(input: Partial<TCaptchaFields>): TCaptchaFields | undefined {
  const parsed = ZCaptchaFields.safeParse(input);
  return parsed.success ? parsed.data : undefined;
}
