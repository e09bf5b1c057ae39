// The GeeTest verifier against a local HTTP server that validates the way GeeTest's v4 documentation describes.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appCodeOf } from '../../testing/app-code-of';
import { sendJson as json, startLocalGeetest, type TLocalGeetest } from '../../testing/local-geetest';
import { MemoryOnceStore } from '../../testing/memory-once-store';
import { GeetestCaptcha } from './geetest-captcha';

let gt: TLocalGeetest;

function solvedCaptcha() {
  return gt.solve();
}

function verifier(options: { captchaKey?: string; apiServer?: string; timeoutMs?: number } = {}) {
  return new GeetestCaptcha({
    captchaId: gt.captchaId,
    captchaKey: options.captchaKey ?? gt.captchaKey,
    apiServer: options.apiServer ?? gt.url,
    timeoutMs: options.timeoutMs ?? 2000,
    onceStore: new MemoryOnceStore(),
  });
}

beforeAll(async () => {
  gt = await startLocalGeetest();
});

afterAll(async () => {
  await gt.close();
});

beforeEach(() => {
  gt.reset();
});

describe('GeeTest v4 verifier', () => {
  it('accepts a captcha GeeTest validates, sending the documented request', async () => {
    const seen: { url: string; contentType: string; form: Record<string, string> }[] = [];
    gt.answerWith((request, response, form) => {
      seen.push({
        url: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        form: Object.fromEntries(form),
      });
      gt.validate(request, response, form);
    });
    const fields = solvedCaptcha();
    await expect(verifier().verify(fields)).resolves.toBeUndefined();
    expect(seen).toEqual([
      {
        url: `/validate?captcha_id=${gt.captchaId}`,
        contentType: expect.stringContaining('application/x-www-form-urlencoded'),
        form: {
          lot_number: fields.lot_number,
          captcha_output: fields.captcha_output,
          pass_token: fields.pass_token,
          gen_time: fields.gen_time,
          sign_token: createHmac('sha256', gt.captchaKey).update(fields.lot_number).digest('hex'),
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
    gt.answerWith((request, response, form) => {
      asked = true;
      gt.validate(request, response, form);
    });
    const fields = { ...solvedCaptcha(), captcha_id: 'ffffffffffffffffffffffffffffffff' };
    expect(await appCodeOf(verifier().verify(fields))).toBe('CAPTCHA_FAILED');
    expect(asked).toBe(false);
  });

  it("maps GeeTest's error codes: bad fields fail, a repeat is a used token, our own id is unavailability", async () => {
    const fields = solvedCaptcha();
    expect(await appCodeOf(verifier().verify({ ...fields, gen_time: 'yesterday' }))).toBe('CAPTCHA_FAILED');
    gt.answerWith((_request, response) =>
      json(response, 200, { status: 'error', code: '-50003', msg: 'illegal verify' }),
    );
    expect(await appCodeOf(verifier().verify(fields))).toBe('PASS_TOKEN_USED');
    gt.answerWith((_request, response) =>
      json(response, 200, { status: 'error', code: '-50105', msg: 'captcha_id paused' }),
    );
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
    gt.answerWith((request, response, form) => {
      setTimeout(() => gt.validate(request, response, form), 1000).unref();
    });
    expect(await appCodeOf(verifier({ timeoutMs: 100 }).verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
  });

  it('fails closed when GeeTest stalls in the middle of its reply', async () => {
    gt.answerWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"result":');
    });
    expect(await appCodeOf(verifier({ timeoutMs: 200 }).verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
  });

  it('fails closed on a server error', async () => {
    gt.answerWith((_request, response) => json(response, 500, { result: 'success' }));
    expect(await appCodeOf(verifier().verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
  });

  it('fails closed on a reply it cannot read', async () => {
    gt.answerWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>maintenance</html>');
    });
    expect(await appCodeOf(verifier().verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
    gt.answerWith((_request, response) => json(response, 200, { status: 'success', result: 'maybe' }));
    expect(await appCodeOf(verifier().verify(solvedCaptcha()))).toBe('CAPTCHA_UNAVAILABLE');
  });
});
