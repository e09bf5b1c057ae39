// Builds the long-lived services the procedures use (mail, captcha, passwords, throttling) and hands them to
// the request contexts.
import type { Mailer, TServices } from '@rooms/api';
import fp from 'fastify-plugin';
import type { TConfig } from '../env';
import { createCaptcha } from '../services/captcha/create-captcha';
import { createPostgresOnceStore } from '../services/captcha-once-store';
import { createOutboxMailer } from '../services/mail/outbox-mailer';
import { createSmtpMailer } from '../services/mail/smtp-mailer';
import { createArgon2Hasher } from '../services/passwords/argon2-hasher';
import { createMemoryRateLimiter } from '../services/rate-limit/memory-rate-limiter';

declare module 'fastify' {
  interface FastifyInstance {
    services: TServices;
  }
}

export const servicesPlugin = fp(
  async (app, options: { config: TConfig }) => {
    const { config } = options;
    let mailer: Mailer;
    if (config.smtpUrl) {
      const smtp = createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom });
      app.addHook('onClose', async () => smtp.close());
      mailer = smtp;
    } else {
      mailer = createOutboxMailer(app.orm, app.log);
    }

    const captcha = createCaptcha(
      {
        provider: config.captcha.provider,
        secret: config.appSecret,
        geetestId: config.captcha.geetestId,
        geetestKey: config.captcha.geetestKey,
        geetestApiServer: config.captcha.geetestApiServer,
      },
      createPostgresOnceStore(app.orm),
    );

    app.decorate('services', {
      config: { publicUrl: config.publicUrl, siteName: 'Cloud-browser rooms' },
      mailer,
      captcha: captcha.verifier,
      selfHostedCaptcha: captcha.selfHosted,
      passwords: createArgon2Hasher(),
      rateLimiter: createMemoryRateLimiter(),
      now: () => new Date(),
    } satisfies TServices);
  },
  { name: 'services', dependencies: ['database'] },
);
