import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.entity';

const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    /** Hex SHA-256 of the session token; the token itself is never stored. */
    tokenHash: p.string().length(64).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    ip: p.string().length(64).nullable(),
    userAgent: p.string().length(512).nullable(),
    /**
     * The administrator who opened this session through a sign-in link, or null for the user's own sign-in. Such a
     * session is short-lived and may not change the password or e-mail, nor pay.
     */
    impersonator: () => p.manyToOne(User).nullable().deleteRule('cascade'),
  },
});

export class Session extends SessionSchema.class {}
SessionSchema.setClass(Session);
