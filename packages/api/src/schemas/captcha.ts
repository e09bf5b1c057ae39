// The five fields a solved captcha hands to the server, the same for GeeTest v4 and the self-hosted one.
import { z } from 'zod';

/** The five fields, each refused with `required` when missing and `invalid` when no captcha could give it. */
export function captchaFieldsOf(texts: { required: string; invalid: string }) {
  const field = z
    .string({ error: texts.required })
    .min(1, { error: texts.required })
    .max(2048, { error: texts.invalid });
  return z.object({
    lot_number: field,
    captcha_output: field,
    pass_token: field,
    gen_time: field,
    captcha_id: field,
  });
}

export const ZCaptchaFields = captchaFieldsOf({
  required: 'Please complete the verification',
  invalid: 'verification failed',
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
