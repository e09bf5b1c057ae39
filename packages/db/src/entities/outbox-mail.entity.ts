import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';

/** Mail written here instead of sent when no SMTP server is configured; the dev mailbox page reads it. */
const OutboxMailSchema = defineEntity({
  name: 'OutboxMail',
  tableName: 'outbox_mails',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    recipient: p.string(),
    subject: p.string(),
    text: p.text(),
    html: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class OutboxMail extends OutboxMailSchema.class {}
OutboxMailSchema.setClass(OutboxMail);
