// Security review, finding 5: the captcha is checked before any throttle counts, so a stranger without a solved
// captcha spends nobody's budget; and wrong passwords from a stranger's addresses cannot lock the owner out of
// their own account.
import type { TCaptchaFields } from '@rooms/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest, solveCaptcha, uniqueCaller } from '../testing/rest-client';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
});

afterAll(async () => {
  await server?.close();
});

/** Five captcha fields that were never solved. */
const JUNK_CAPTCHA: TCaptchaFields = {
  lot_number: 'junk',
  captcha_output: 'junk',
  pass_token: 'junk',
  gen_time: '0',
  captcha_id: 'junk',
};

async function registerOwner() {
  const { email, ip } = uniqueCaller('owner');
  const codeCaptcha = await solveCaptcha(server.app, ip);
  const sent = await rest(server.app, 'POST', '/api/user/sendRegisterCode', {
    body: { email, ...codeCaptcha },
    ip,
  });
  expect(sent.msg).toBe('success');
  const { code } = await server.smtp.nextMail(email);
  const password = 'owner-secret-1';
  const registered = await rest(server.app, 'POST', '/api/user/register', {
    body: { username: 'Owner', email, password, code, ...codeCaptcha },
    ip,
  });
  expect(registered.msg).toBe('success');
  return { email, password, ip };
}

async function login(email: string, password: string, ip: string, captcha?: TCaptchaFields) {
  return rest(server.app, 'POST', '/api/user/login', {
    body: { email, password, ...(captcha ?? (await solveCaptcha(server.app, ip))) },
    ip,
  });
}

describe('a stranger trying to lock an owner out', () => {
  it('spends nothing of the owner’s budgets without a solved captcha', async () => {
    const owner = await registerOwner();
    const stranger = '198.51.100.23';

    for (let attempt = 0; attempt < 15; attempt++) {
      const junk = await login(owner.email, `guess-${attempt}`, stranger, JUNK_CAPTCHA);
      expect(junk).toMatchObject({ status: 400, data: 'verification failed' });
      const bare = await rest(server.app, 'POST', '/api/user/login', {
        body: { email: owner.email, password: `guess-${attempt}` },
        ip: stranger,
      });
      expect(bare).toMatchObject({ status: 400, data: 'Please complete the verification' });
    }
    for (let attempt = 0; attempt < 10; attempt++) {
      const junkCode = await rest(server.app, 'POST', '/api/user/sendResetPasswordCode', {
        body: { email: owner.email, ...JUNK_CAPTCHA },
        ip: stranger,
      });
      expect(junkCode).toMatchObject({ status: 400, data: 'verification failed' });
    }

    // The owner logs in, and can still have a reset code mailed.
    expect((await login(owner.email, owner.password, owner.ip)).msg).toBe('success');
    const captcha = await solveCaptcha(server.app, owner.ip);
    const reset = await rest(server.app, 'POST', '/api/user/sendResetPasswordCode', {
      body: { email: owner.email, ...captcha },
      ip: owner.ip,
    });
    expect(reset.msg).toBe('success');
  });

  it('stops a stranger who solves captchas and guesses, while the owner still logs in', async () => {
    const owner = await registerOwner();
    const stranger = '198.51.100.77';

    const answers: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      answers.push((await login(owner.email, `guess-${attempt}`, stranger)).status);
    }
    // Ten wrong passwords after valid captchas are counted; the eleventh try is refused.
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(answers[10]).toBe(429);
    expect((await login(owner.email, owner.password, stranger)).status).toBe(429);

    // The owner, from their own address, is not locked out by the stranger's guesses.
    expect((await login(owner.email, owner.password, owner.ip)).msg).toBe('success');
  });
});
