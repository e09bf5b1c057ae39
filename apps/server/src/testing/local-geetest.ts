// A local HTTP server that answers GeeTest v4's validate call the way GeeTest documents it:
// POST /validate?captcha_id=…, a form body, sign_token = HMAC-SHA-256(lot_number) keyed by the captcha key.
// Tests point GEETEST_API_SERVER at it; `solve()` plays the browser widget that hands out the five fields.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TCaptchaFields } from '@rooms/api';

export type TGeetestHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  form: URLSearchParams,
) => void;

export interface TLocalGeetest {
  url: string;
  captchaId: string;
  captchaKey: string;
  /** The genuine behaviour; a test may wrap it or answer differently with `answerWith`. */
  validate: TGeetestHandler;
  answerWith(handler: TGeetestHandler): void;
  reset(): void;
  /** The five fields a browser gets from GeeTest's widget after a genuine solve. */
  solve(): TCaptchaFields;
  close(): Promise<void>;
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export async function startLocalGeetest(
  options: { captchaId?: string; captchaKey?: string } = {},
): Promise<TLocalGeetest> {
  const captchaId = options.captchaId ?? '647f5ed2ed8acb4be36784e01556bb71';
  const captchaKey = options.captchaKey ?? 'b09a7aafbfd83f73b35a9b530d0337bf';
  const issued = new Map<string, TCaptchaFields>();

  /** Judges a request as GeeTest does: parameters, then the signature, then the captcha itself. */
  const validate: TGeetestHandler = (request, response, form) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method !== 'POST' || url.pathname !== '/validate') return sendJson(response, 404, {});
    if (url.searchParams.get('captcha_id') !== captchaId) {
      return sendJson(response, 200, { status: 'error', code: '-50103', msg: 'not captcha' });
    }
    if (!/^\d+$/.test(form.get('gen_time') ?? '')) {
      return sendJson(response, 200, { status: 'error', code: '-50005', msg: 'illegal gen_time' });
    }
    const lotNumber = form.get('lot_number') ?? '';
    const expected = createHmac('sha256', captchaKey).update(lotNumber).digest('hex');
    if (form.get('sign_token') !== expected) {
      return sendJson(response, 200, { result: 'fail', reason: 'sign_token error', captcha_args: {} });
    }
    const genuine = issued.get(lotNumber);
    const matches =
      genuine !== undefined &&
      genuine.captcha_output === form.get('captcha_output') &&
      genuine.pass_token === form.get('pass_token') &&
      genuine.gen_time === form.get('gen_time');
    sendJson(response, 200, {
      result: matches ? 'success' : 'fail',
      reason: matches ? '' : 'pass_token error',
      captcha_args: {},
    });
  };

  let handler = validate;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => handler(request, response, new URLSearchParams(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    captchaId,
    captchaKey,
    validate,
    answerWith(next) {
      handler = next;
    },
    reset() {
      handler = validate;
    },
    solve() {
      const fields = {
        lot_number: randomBytes(16).toString('hex'),
        captcha_output: randomBytes(48).toString('base64url'),
        pass_token: randomBytes(32).toString('hex'),
        gen_time: String(Math.floor(Date.now() / 1000)),
        captcha_id: captchaId,
      };
      issued.set(fields.lot_number, fields);
      return fields;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
