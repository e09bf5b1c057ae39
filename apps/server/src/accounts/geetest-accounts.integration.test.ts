// The whole server configured for GeeTest v4, talking to a local server that answers as GeeTest documents:
// the client is told to load GeeTest, accounts work with its five fields, and GeeTest being down fails closed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalGeetest, type TLocalGeetest } from '../testing/local-geetest';
import { rest } from '../testing/rest-client';
import { startTestServer, type TTestServer } from '../testing/test-server';

let geetest: TLocalGeetest;
let server: TTestServer;

beforeAll(async () => {
  geetest = await startLocalGeetest();
  server = await startTestServer({
    listen: false,
    env: {
      CAPTCHA_PROVIDER: 'geetest',
      GEETEST_ID: geetest.captchaId,
      GEETEST_KEY: geetest.captchaKey,
      GEETEST_API_SERVER: geetest.url,
    },
  });
});

afterAll(async () => {
  await server?.close();
  await geetest?.close();
});

it('tells the client to load GeeTest and has no self-hosted challenge', async () => {
  const config = await rest(server.app, 'GET', '/api/captcha/config');
  expect(config.data).toEqual({ provider: 'geetest', captchaId: geetest.captchaId });
  const challenge = await rest(server.app, 'GET', '/api/captcha/challenge');
  expect(challenge).toEqual({
    status: 404,
    msg: 'error',
    data: 'The self-hosted captcha is not enabled on this server',
  });
});

it('registers and logs in with GeeTest captchas, each usable once', async () => {
  const email = `geetest-${Date.now()}@example.test`;
  const ip = '10.200.0.1';
  const sendCaptcha = geetest.solve();
  const sent = await rest(server.app, 'POST', '/api/user/sendRegisterCode', {
    body: { email, ...sendCaptcha },
    ip,
  });
  expect(sent.msg).toBe('success');
  const { code } = await server.smtp.nextMail(email);
  const registered = await rest(server.app, 'POST', '/api/user/register', {
    body: { username: 'Gee', email, password: 'geetest-secret', code, ...sendCaptcha },
    ip,
  });
  expect(registered.msg).toBe('success');

  const loginCaptcha = geetest.solve();
  const login = await rest(server.app, 'POST', '/api/user/login', {
    body: { email, password: 'geetest-secret', ...loginCaptcha },
    ip,
  });
  expect(login.msg).toBe('success');
  const replay = await rest(server.app, 'POST', '/api/user/login', {
    body: { email, password: 'geetest-secret', ...loginCaptcha },
    ip,
  });
  expect(replay.data).toBe('pass_token used');

  const forged = await rest(server.app, 'POST', '/api/user/login', {
    body: { email, password: 'geetest-secret', ...geetest.solve(), captcha_output: 'forged' },
    ip,
  });
  expect(forged.data).toBe('verification failed');
});

it('fails closed when GeeTest answers with an error page', async () => {
  geetest.answerWith((_request, response) => {
    response.writeHead(502, { 'content-type': 'text/html' });
    response.end('<h1>Bad gateway</h1>');
  });
  try {
    const login = await rest(server.app, 'POST', '/api/user/login', {
      body: { email: 'someone@example.test', password: 'whatever', ...geetest.solve() },
      ip: '10.200.0.2',
    });
    expect(login).toEqual({
      status: 503,
      msg: 'error',
      data: 'The verification service is unavailable, please try again later',
    });
  } finally {
    geetest.reset();
  }
});
