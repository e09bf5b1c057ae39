import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';

export const emailCodePurposes = ['register', 'reset'] as const;
export type EmailCodePurpose = (typeof emailCodePurposes)[number];

const EmailCodeSchema = defineEntity({
  name: 'EmailCode',
  tableName: 'email_codes',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    email: p.string().length(254),
    purpose: p.enum(emailCodePurposes),
    codeHash: p.string(),
    /** Hash of the captcha pass_token that sent this code; the call that spends the code may present it again. */
    captchaPassTokenHash: p.string().length(64).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    failedAttempts: p.integer().default(0),
  },
  // The lookup is always "the newest code for this address and purpose".
  indexes: [{ properties: ['email', 'purpose', 'createdAt'] }],
});

export class EmailCode extends EmailCodeSchema.class {}
EmailCodeSchema.setClass(EmailCode);
