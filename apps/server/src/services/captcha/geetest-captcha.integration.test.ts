// The GeeTest verifier against a local HTTP server that validates the way GeeTest's v4 documentation describes:
// POST /validate?captcha_id=…, a form body, sign_token = HMAC-SHA-256(lot_number) keyed by the captcha key.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TAppErrorCode, TCaptchaFields } from '@rooms/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GeetestCaptcha } from './geetest-captcha';
import { MemoryOnceStore } from './memory-once-store';

const CAPTCHA_ID = '647f5ed2ed8acb4be36784e01556bb71';
const CAPTCHA_KEY = 'b09a7aafbfd83f73b35a9b530d0337bf';

type THandler = (request: IncomingMessage, response: ServerResponse, form: URLSearchParams) => void;

/** What the fake GeeTest answers; each test may swap it. */
let handler: THandler;
/** Lot numbers the fake GeeTest "issued", with the fields a genuine solve produced. */
const issued = new Map<string, TCaptchaFields>();
let server: Server;
let apiServer: string;

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Judges a request as GeeTest does: parameters, then the signature, then the captcha itself. */
const geetest: THandler = (request, response, form) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (request.method !== 'POST' || url.pathname !== '/validate') return json(response, 404, {});
  if (url.searchParams.get('captcha_id') !== CAPTCHA_ID) {
    return json(response, 200, { status: 'error', code: '-50103', msg: 'not captcha' });
  }
  if (!/^\d+$/.test(form.get('gen_time') ?? '')) {
    return json(response, 200, { status: 'error', code: '-50005', msg: 'illegal gen_time' });
  }
  const lotNumber = form.get('lot_number') ?? '';
  const expected = createHmac('sha256', CAPTCHA_KEY).update(lotNumber).digest('hex');
  if (form.get('sign_token') !== expected) {
    return json(response, 200, { result: 'fail', reason: 'sign_token error', captcha_args: {} });
  }
  const genuine = issued.get(lotNumber);
  const matches =
    genuine !== undefined &&
    genuine.captcha_output === form.get('captcha_output') &&
    genuine.pass_token === form.get('pass_token') &&
    genuine.gen_time === form.get('gen_time');
  json(response, 200, {
    result: matches ? 'success' : 'fail',
    reason: matches ? '' : 'pass_token error',
    captcha_args: {},
  });
};

/** The five fields a browser would get from GeeTest's widget after a genuine solve. */
function solvedCaptcha(): TCaptchaFields {
  const fields = {
    lot_number: randomBytes(16).toString('hex'),
    captcha_output: randomBytes(48).toString('base64url'),
    pass_token: randomBytes(32).toString('hex'),
    gen_time: String(Math.floor(Date.now() / 1000)),
    captcha_id: CAPTCHA_ID,
  };
  issued.set(fields.lot_number, fields);
  return fields;
}

function verifier(options: { captchaKey?: string; apiServer?: string; timeoutMs?: number } = {}) {
  return new GeetestCaptcha({
    captchaId: CAPTCHA_ID,
    captchaKey: options.captchaKey ?? CAPTCHA_KEY,
    apiServer: options.apiServer ?? apiServer,
    timeoutMs: options.timeoutMs ?? 2000,
    onceStore: new MemoryOnceStore(),
  });
}

async function appCodeOf(promise: Promise<unknown>): Promise<TAppErrorCode> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
  expect(error).toHaveProperty('appCode');
  return (error as { appCode: TAppErrorCode }).appCode;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => handler(request, response, new URLSearchParams(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiServer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  handler = geetest;
});

describe('GeeTest v4 verifier', () => {
  it('accepts a captcha GeeTest validates, sending the documented request', async () => {
    const seen: { url: string; contentType: string; form: Record<string, string> }[] = [];
    handler = (request, response, form) => {
      seen.push({
        url: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        form: Object.fromEntries(form),
      });
      geetest(request, response, form);
    };
    const fields = solvedCaptcha();
    await expect(verifier().verify(fields)).resolves.toBeUndefined();
    expect(seen).toEqual([
      {
        url: `/validate?captcha_id=${CAPTCHA_ID}`,
        contentType: expect.stringContaining('application/x-www-form-urlencoded'),
        form: {
          lot_number: fields.lot_number,
          captcha_output: fields.captcha_output,
          pass_token: fields.pass_token,
          gen_time: fields.gen_time,
          sign_token: createHmac('sha256', CAPTCHA_KEY).update(fields.lot_number).digest('hex'),
        },
      },
    ]);
  });

  it('refuses a captcha GeeTest answers fail for', async () => {
    const fields = { ...solvedCaptcha(), pass_token: randomBytes(32).toString('hex') };
    expect(await appCodeOf(verifier().verify(fields))).toBe('CAPTCHA_FAILED');
  });

  it('refuses when GeeTest rejects our sign_token (wrong captcha key)', async () => {
    const wrongKey = verifier({ captchaKey: 'not-the-key-geetest-holds' });
    expect(await appCodeOf(wrongKey.verify(solvedCaptcha()))).toBe('CAPTCHA_FAILED');
  });

  it('refuses fields for another captcha_id without asking GeeTest', async () => {
    let asked = false;
    handler = (request, response, form) => {
      asked = true;
      geetest(request, response, form);
    };
    const fields = { ...solvedCaptcha(), captcha_id: 'ffffffffffffffffffffffffffffffff' };
    expect(await appCodeOf(verifier().verify(fields))).toBe('CAPTCHA_FAILED');
    expect(asked).toBe(false);
  });

  it("maps GeeTest's error codes: bad fields fail, a repeat is a used token, our own id is unavailability", async () => {
    const fields = solvedCaptcha();
    expect(await appCodeOf(verifier().verify({ ...fields, gen_time: 'yesterday' }))).toBe('CAPTCHA_FAILED');
    handler = (_request, response) =>
      json(response, 200, { status: 'error', code: '-50003', msg: 'illegal verify' });
    expect(await appCodeOf(verifier().verify(fields))).toBe('PASS_TOKEN_USED');
    handler = (_request, response) =>
      json(response, 200, { status: 'error', code: '-50105', msg: 'captcha_id paused' });
    expect(await appCodeOf(verifier().verify(fields))).toBe('CAPTCHA_UNAVAILABLE');
  });

  it('answers pass_token used when a validated token comes back', async () => {
    const captcha = verifier();
    const fields = solvedCaptcha();
    await captcha.verify(fields);
    expect(await appCodeOf(captcha.verify(fields))).toBe('PASS_TOKEN_USED');
  });

  it('fails closed when GeeTest cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = verifier({ apiServer: `http://127.0.0.1:${port}` });
    expect(await appCodeOf(unreachable.verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
  });

  it('fails closed when GeeTest is too slow', async () => {
    handler = (request, response, form) => {
      setTimeout(() => geetest(request, response, form), 1000).unref();
    };
    expect(await appCodeOf(verifier({ timeoutMs: 100 }).verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
  });

  it('fails closed when GeeTest stalls in the middle of its reply', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"result":');
    };
    expect(await appCodeOf(verifier({ timeoutMs: 200 }).verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
  });

  it('fails closed on a server error', async () => {
    handler = (_request, response) => json(response, 500, { result: 'success' });
    expect(await appCodeOf(verifier().verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
  });

  it('fails closed on a reply it cannot read', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>maintenance</html>');
    };
    expect(await appCodeOf(verifier().verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
    handler = (_request, response) => json(response, 200, { status: 'success', result: 'maybe' });
    expect(await appCodeOf(verifier().verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
  });
});
