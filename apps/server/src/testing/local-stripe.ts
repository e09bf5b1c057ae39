// A local HTTP server that answers as Stripe documents the parts we use: POST /v1/checkout/sessions (form body,
// Bearer secret key), GET /v1/checkout/sessions/:id, and a hosted checkout page at the session's url that "pays"
// and sends the signed `checkout.session.completed` webhook (Stripe-Signature: t=…,v1=HMAC-SHA-256 of `t.payload`).
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJson } from './local-geetest';

export interface TStripeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  expires_at: number;
}

export interface TLocalStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, TStripeSession>;
  /** Where webhooks go (the server under test's STRIPE_WEBHOOK_PATH). */
  webhookUrl: string;
  /** Marks the session paid and returns the completed event as Stripe would send it, and its signature header. */
  pay(sessionId: string): { payload: string; signature: string };
  /** Signs any payload with the webhook secret (or another secret, to forge). */
  sign(payload: string, secret?: string, timestamp?: number): string;
  deliver(payload: string, signature: string): Promise<Response>;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
  });
}

function stripeError(response: ServerResponse, status: number, message: string) {
  sendJson(response, status, { error: { type: 'invalid_request_error', message } });
}

export async function startLocalStripe(): Promise<TLocalStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const sessions = new Map<string, TStripeSession>();
  let base = '';

  const sign = (payload: string, secret = webhookSecret, timestamp = Math.floor(Date.now() / 1000)) => {
    const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
    return `t=${timestamp},v1=${v1}`;
  };

  const local: TLocalStripe = {
    url: '',
    secretKey,
    webhookSecret,
    sessions,
    webhookUrl: '',
    sign,
    pay(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = 'paid';
      session.payment_intent = session.payment_intent ?? `pi_${randomBytes(10).toString('hex')}`;
      const payload = JSON.stringify({
        id: `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        type: 'checkout.session.completed',
        data: { object: session },
      });
      return { payload, signature: sign(payload) };
    },
    deliver(payload, signature) {
      return fetch(local.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
    },
    close: async () => {},
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/v1/')) {
      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        return stripeError(response, 401, 'Invalid API Key provided');
      }
    }
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const form = new URLSearchParams(await readBody(request));
      const amount = Number(form.get('line_items[0][price_data][unit_amount]'));
      const currency = form.get('line_items[0][price_data][currency]') ?? '';
      if (form.get('mode') !== 'payment' || !Number.isInteger(amount) || amount < 50 || !currency) {
        return stripeError(response, 400, 'Invalid checkout session parameters');
      }
      const expiresAt = Number(form.get('expires_at'));
      const now = Math.floor(Date.now() / 1000);
      if (expiresAt && (expiresAt < now + 30 * 60 - 5 || expiresAt > now + 24 * 3600)) {
        return stripeError(response, 400, 'expires_at must be between 30 minutes and 24 hours from now');
      }
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const session: TStripeSession = {
        id,
        object: 'checkout.session',
        url: `${base}/c/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: amount,
        currency,
        client_reference_id: form.get('client_reference_id'),
        metadata: { out_trade_no: form.get('metadata[out_trade_no]') ?? '' },
        payment_intent: null,
        success_url: form.get('success_url') ?? '',
        expires_at: expiresAt,
      };
      sessions.set(id, session);
      return sendJson(response, 200, session);
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(url.pathname);
    if (request.method === 'GET' && retrieve) {
      const session = sessions.get(retrieve[1] ?? '');
      if (!session) return stripeError(response, 404, 'No such checkout.session');
      return sendJson(response, 200, session);
    }
    // The hosted checkout page: paying here sends the webhook, then returns the payer to success_url.
    const hosted = /^\/c\/pay\/([\w-]+)$/.exec(url.pathname);
    if (request.method === 'GET' && hosted) {
      const session = sessions.get(hosted[1] ?? '');
      if (session?.status !== 'open') return sendJson(response, 404, {});
      const { payload, signature } = local.pay(session.id);
      await local.deliver(payload, signature);
      response.writeHead(303, { location: session.success_url });
      return response.end();
    }
    sendJson(response, 404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  local.url = base;
  local.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return local;
}
