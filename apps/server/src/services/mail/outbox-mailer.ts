// Without an SMTP server (the embedded default), mail is kept in the outbox table and written to the log, and
// the development mailbox page shows it, so a new user can still read their code.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Mailer, TMailMessage } from '@rooms/api';
import { OutboxMail } from '@rooms/db';
import type { FastifyBaseLogger } from 'fastify';

export function createOutboxMailer(orm: MikroORM, log: FastifyBaseLogger): Mailer {
  return {
    async send(message: TMailMessage) {
      const em = orm.em.fork();
      em.create(OutboxMail, {
        id: crypto.randomUUID(),
        recipient: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        createdAt: new Date(),
      });
      await em.flush();
      log.info(
        { to: message.to, subject: message.subject },
        `mail kept in the outbox (no SMTP_URL):\n${message.text}`,
      );
    },
  };
}
