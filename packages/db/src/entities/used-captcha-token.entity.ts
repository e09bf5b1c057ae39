import { defineEntity, p } from '@mikro-orm/core';

/** A captcha pass_token recorded the first time it is verified, so a second use is refused. */
const UsedCaptchaTokenSchema = defineEntity({
  name: 'UsedCaptchaToken',
  tableName: 'used_captcha_tokens',
  properties: {
    passToken: p.string().length(512).primary(),
    usedAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
  },
});

export class UsedCaptchaToken extends UsedCaptchaTokenSchema.class {}
UsedCaptchaTokenSchema.setClass(UsedCaptchaToken);
