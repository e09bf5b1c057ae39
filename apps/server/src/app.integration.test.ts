// The server's surface outside the account procedures: health, the REST envelope for malformed requests, the
// OpenAPI document, tRPC, and the web app's SPA fallback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CAPTCHA_MAX_NUMBER } from './testing/test-captcha';
import { startTestServer, type TTestServer } from './testing/test-server';

let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
});

afterAll(async () => {
  await server?.close();
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await server.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await server.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
  });
});

describe('REST envelope', () => {
  it('answers 401 in the envelope without a token or with an unknown one', async () => {
    const missing = await server.app.inject('/api/user/userinfo');
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ msg: 'error', data: 'Not logged in' });
    const unknown = await server.app.inject({
      url: '/api/user/userinfo',
      headers: { authorization: 'x'.repeat(43) },
    });
    expect(unknown.statusCode).toBe(401);
  });

  it('turns malformed JSON into a 400 with a readable text', async () => {
    const reply = await server.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.json().msg).toBe('error');
    expect(reply.json().data).toMatch(/^Request error/);
  });

  it('refuses a body that is not an object', async () => {
    const reply = await server.app.inject({ method: 'POST', url: '/api/user/login', payload: [1, 2] });
    expect(reply.statusCode).toBe(400);
    expect(reply.json().msg).toBe('error');
  });

  it('answers an unknown API path with 404 in the envelope', async () => {
    const reply = await server.app.inject('/api/pay/noSuchCall');
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toEqual({ msg: 'error', data: 'Not found' });
  });
});

describe('OpenAPI document', () => {
  it('describes every REST path, including the captcha a script must solve', async () => {
    const document = (await server.app.inject('/api/openapi.json')).json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/user/login',
        '/api/user/register',
        '/api/user/userinfo',
        '/api/captcha/challenge',
        '/api/captcha/verify',
      ]),
    );
    const login = document.paths['/api/user/login'].post;
    expect(Object.keys(login.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining([
        'email',
        'password',
        'lot_number',
        'captcha_output',
        'pass_token',
        'gen_time',
        'captcha_id',
      ]),
    );
    expect(document.paths['/api/captcha/challenge'].get.summary).toMatch(/sha256/);
    expect(document.paths['/api/user/userinfo'].get.security).toEqual([{ token: [] }]);
  });
});

describe('the self-hosted captcha', () => {
  it('hands out challenges as hard as CAPTCHA_MAX_NUMBER says', async () => {
    const reply = await server.app.inject('/api/captcha/challenge');
    expect(reply.json().data.maxnumber).toBe(Number(TEST_CAPTCHA_MAX_NUMBER));
  });
});

describe('tRPC', () => {
  it('serves the same procedures at /trpc', async () => {
    const reply = await server.app.inject('/trpc/captcha.config');
    expect(reply.statusCode).toBe(200);
    expect(reply.json().result.data.json).toEqual({ provider: 'self-hosted', captchaId: expect.any(String) });
    const unauthorised = await server.app.inject('/trpc/user.userinfo');
    expect(unauthorised.statusCode).toBe(401);
    expect(unauthorised.json().error.json.data.appCode).toBe('NOT_LOGGED_IN');
  });
});
