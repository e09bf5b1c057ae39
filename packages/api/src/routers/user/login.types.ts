import { z } from 'zod';
import { ZCaptchaFields } from '../../schemas/captcha';
import { zEmail } from '../../schemas/common';

const fillIn = 'Please fill in your email and password';

export const ZLoginRequest = z.object({
  email: zEmail({ required: fillIn, format: 'Incorrect account' }),
  password: z
    .string({ error: fillIn })
    .min(1, { error: fillIn })
    .max(128, { error: 'Incorrect email or password' }),
  ...ZCaptchaFields.shape,
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

/** What the client stores in its cookies after login or registration. */
export const ZSessionResponse = z.object({
  token: z.string().describe('Session token: send it raw in the Authorization header. Valid one day.'),
  username: z.string(),
  avatar: z.string(),
  level: z.number().int().describe('Above 1 means VIP.'),
});
export type TSessionResponse = z.infer<typeof ZSessionResponse>;
