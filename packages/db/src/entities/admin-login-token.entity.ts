import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * A one-time link an administrator creates to sign a browser in as a user (/admintologinuser/{token}).
 * Only the token's SHA-256 is stored; it is spent (usedAt) by the first sign-in and lapses after a few minutes.
 */
const AdminLoginTokenSchema = defineEntity({
  name: 'AdminLoginToken',
  tableName: 'admin_login_tokens',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    tokenHash: p.string().length(64).unique(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    admin: () => p.manyToOne(User).deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});

export class AdminLoginToken extends AdminLoginTokenSchema.class {}
AdminLoginTokenSchema.setClass(AdminLoginToken);
