// A real SMTP server on loopback for tests: the app delivers mail to it over SMTP exactly as in production, and
// tests read the codes from what arrives.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TReceivedMail {
  to: string[];
  subject: string;
  raw: string;
  /** The six-digit code the mail carries, if any. */
  code: string | undefined;
}

export interface TSmtpListener {
  url: string;
  received: TReceivedMail[];
  /** Resolves with the next unread mail to this address (waits for it up to `timeoutMs`). */
  nextMail(to: string, timeoutMs?: number): Promise<TReceivedMail>;
  /** Makes the next deliveries fail with a permanent error, as a broken mail server would. */
  rejectDeliveries(reject: boolean): void;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function parse(raw: string, to: string[]): TReceivedMail {
  const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
  const body = decodeQuotedPrintable(raw);
  const code = /^ {4}(\d{6})\s*$/m.exec(body)?.[1];
  return { to, subject, raw, code };
}

export async function startSmtpListener(): Promise<TSmtpListener> {
  const received: TReceivedMail[] = [];
  const unread: TReceivedMail[] = [];
  const waiters: { to: string; resolve: (mail: TReceivedMail) => void }[] = [];
  let rejecting = false;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (rejecting) {
          callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        const mail = parse(Buffer.concat(chunks).toString('utf8'), to);
        received.push(mail);
        const waiterIndex = waiters.findIndex((waiter) => to.includes(waiter.to));
        if (waiterIndex >= 0) waiters.splice(waiterIndex, 1)[0]?.resolve(mail);
        else unread.push(mail);
        callback();
      });
    },
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    nextMail(to, timeoutMs = 15_000) {
      const address = to.toLowerCase();
      const index = unread.findIndex((mail) => mail.to.includes(address));
      if (index >= 0) return Promise.resolve(unread.splice(index, 1)[0]!);
      return new Promise((resolve, reject) => {
        const waiter = { to: address, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          const at = waiters.indexOf(waiter);
          if (at < 0) return;
          waiters.splice(at, 1);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs).unref();
      });
    },
    rejectDeliveries(reject) {
      rejecting = reject;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
