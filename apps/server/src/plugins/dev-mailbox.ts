// Development only, and only when asked for (DEV_MAILBOX=on): without SMTP the codes stay in the outbox table;
// this page lets a new user read them. It shows every reset code, so it also answers only the machine itself
// (local-request.ts) — which a same-host proxy that adds no X-Forwarded-For defeats, hence the explicit switch.
import { OutboxMail } from '@rooms/db';
import fp from 'fastify-plugin';
import { fromThisMachine } from './local-request';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export const devMailboxPlugin = fp(
  async (app) => {
    app.get('/dev/mailbox', async (request, reply) => {
      // Answered as if the page did not exist, like in production.
      if (!fromThisMachine(request)) return reply.code(404).send({ msg: 'error', data: 'Not found' });
      const to =
        typeof (request.query as { to?: unknown }).to === 'string'
          ? (request.query as { to: string }).to
          : '';
      // A NUL byte would make PostgreSQL fail the query; no address has one.
      const recipient = to.replace(/\p{Cc}/gu, '').toLowerCase();
      const mails = await app.orm.em.fork().find(OutboxMail, recipient ? { recipient } : {}, {
        orderBy: { createdAt: 'desc' },
        limit: 50,
      });
      const items = mails
        .map(
          (mail) =>
            `<article><h2>${escapeHtml(mail.subject)}</h2><p class="meta">to ${escapeHtml(mail.recipient)} · ${mail.createdAt.toISOString()}</p><pre>${escapeHtml(mail.text)}</pre></article>`,
        )
        .join('');
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development mailbox</title><style>body{font-family:system-ui;background:#0b1120;color:#e2e8f0;max-width:48rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #334155;border-radius:.5rem;padding:1rem;margin:1rem 0}.meta{color:#94a3b8}pre{white-space:pre-wrap;font-size:1rem}</style></head><body><h1>Development mailbox</h1><p class="meta">Mail the server would have sent; shown because no SMTP_URL is set. Not available in production.</p><form><input name="to" placeholder="filter by address" value="${escapeHtml(to)}"> <button>Filter</button></form>${items || '<p>No mail yet.</p>'}</body></html>`,
        );
    });
  },
  { name: 'dev-mailbox', dependencies: ['database'] },
);
