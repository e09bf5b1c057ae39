// Mail over SMTP (SMTP_URL), the production path and the one the tests exercise against a local listener.
import type { Mailer, TMailMessage } from '@rooms/api';
import nodemailer from 'nodemailer';

export function createSmtpMailer(options: { url: string; from: string }): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(options.url, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message: TMailMessage) {
      await transport.sendMail({ from: options.from, ...message });
    },
    close: () => transport.close(),
  };
}
