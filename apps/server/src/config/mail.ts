// Mail: the SMTP server verification codes go out through, the sender, the address people write to for help, and
// the development mailbox that stands in for SMTP.
import { z } from 'zod';
import type { TEnv } from '../env';
import { optionalString, type TReport } from './variable';

export const mailVariables = {
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().default('Cloud-browser rooms <no-reply@localhost>'),
  /** Where people write for help: the About page and the landing page's Contact link. Unset: no address shown. */
  SUPPORT_EMAIL: optionalString.pipe(z.email().optional()),
  // Development without SMTP: `on` shows the kept mail (reset codes too) at /dev/mailbox to this machine. Off
  // unless asked for: behind a same-host proxy every visitor looks like this machine.
  DEV_MAILBOX: z.enum(['on', 'off']).default('off'),
};

export function mailIssues(env: TEnv, report: TReport): void {
  if (env.NODE_ENV !== 'production') return;
  // Mail goes out where the API is served; agents and gateways never send any, so they need not hold it.
  if (!env.SMTP_URL && (env.ROOM_ROLE === 'all' || env.ROOM_ROLE === 'control')) {
    report('SMTP_URL', 'is required in production: without it, verification codes cannot reach users');
  }
  if (env.DEV_MAILBOX === 'on') {
    report('DEV_MAILBOX', 'is for development only: the mailbox shows every reset code');
  }
}

export function mailConfig(env: TEnv) {
  return {
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    /** The address the About and landing pages give for help (SUPPORT_EMAIL); undefined: none is shown. */
    supportEmail: env.SUPPORT_EMAIL,
    /** Development without SMTP, when asked for (DEV_MAILBOX=on): kept mail shown at /dev/mailbox. */
    devMailbox: env.DEV_MAILBOX === 'on' && env.NODE_ENV !== 'production' && !env.SMTP_URL,
  };
}
