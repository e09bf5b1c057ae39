// Security review, finding 5: the captcha is checked before any throttle counts, so a stranger without a solved
// captcha spends nobody's budget; and wrong passwords from a stranger's addresses cannot lock the owner out of
// their own account. Guesses sent at once get no more tries than guesses sent one by one: each try is counted
// before the slow password check, not after it.
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

/** Solves `count` captchas one after another, so the burst that uses them starts at once. */
async function solveCaptchas(count: number, ip: string): Promise<TCaptchaFields[]> {
  const captchas: TCaptchaFields[] = [];
  for (let index = 0; index < count; index++) captchas.push(await solveCaptcha(server.app, ip));
  return captchas;
}

/** How many replies carried each (status, data) pair, e.g. `{ '400 Incorrect email or password': 10 }`. */
function tally(replies: readonly { status: number; data: unknown }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status, data } of replies) {
    const key = `${status} ${String(data).replace(/\d+ seconds/, 'N seconds')}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** The budgets of packages/api domains/accounts/guards.ts LIMITS: wrong logins per account and per address, failed redemptions. */
const LOGIN_LIMIT_PER_ACCOUNT = 10;
const LOGIN_LIMIT_PER_ADDRESS = 30;
const REDEEM_LIMIT_PER_ADDRESS = 30;

const WRONG_LOGIN = '400 Incorrect email or password';
const LOCKED = '429 Too many attempts, please try again in N seconds';

describe('guesses sent at once', () => {
  it('get an account no more wrong passwords than its budget, and the owner still logs in', async () => {
    const owner = await registerOwner();
    const stranger = '198.51.100.140';
    const burst = 30;
    const captchas = await solveCaptchas(burst, stranger);

    const replies = await Promise.all(
      captchas.map((captcha, index) => login(owner.email, `burst-${index}`, stranger, captcha)),
    );
    const perAccount = LOGIN_LIMIT_PER_ACCOUNT;
    expect(tally(replies)).toEqual({ [WRONG_LOGIN]: perAccount, [LOCKED]: burst - perAccount });

    // Sequential tries after the burst are refused as before; the owner's own address is not.
    expect((await login(owner.email, owner.password, stranger)).status).toBe(429);
    expect((await login(owner.email, owner.password, owner.ip)).msg).toBe('success');
  });

  it('get an address no more wrong logins than its budget, over many accounts', async () => {
    const stranger = '198.51.100.141';
    const perAddress = LOGIN_LIMIT_PER_ADDRESS;
    const burst = perAddress + 10;
    const captchas = await solveCaptchas(burst, stranger);

    // Unknown e-mails answer as wrong passwords do, and count the same.
    const replies = await Promise.all(
      captchas.map((captcha, index) =>
        login(`${uniqueCaller('nobody').email}-${index}`, 'burst-guess', stranger, captcha),
      ),
    );
    expect(tally(replies)).toEqual({ [WRONG_LOGIN]: perAddress, [LOCKED]: burst - perAddress });
  });

  it('get an address no more failed code redemptions than its budget', async () => {
    const stranger = '198.51.100.142';
    const perAddress = REDEEM_LIMIT_PER_ADDRESS;
    const burst = perAddress + 10;
    const captchas = await solveCaptchas(burst, stranger);

    const replies = await Promise.all(
      captchas.map((captcha, index) =>
        rest(server.app, 'POST', '/api/user/resetPassword', {
          body: {
            email: uniqueCaller(`nobody${index}`).email,
            password: 'burst-secret',
            code: '123456',
            ...captcha,
          },
          ip: stranger,
        }),
      ),
    );
    expect(tally(replies)).toEqual({ '404 Email not exist': perAddress, [LOCKED]: burst - perAddress });
  });

  it('get one e-mail code no more wrong tries than the five it allows', async () => {
    const owner = await registerOwner();
    const captcha = await solveCaptcha(server.app, owner.ip);
    const sent = await rest(server.app, 'POST', '/api/user/sendResetPasswordCode', {
      body: { email: owner.email, ...captcha },
      ip: owner.ip,
    });
    expect(sent.msg).toBe('success');
    const { code } = await server.smtp.nextMail(owner.email);
    const wrongCodes = Array.from({ length: 20 }, (_, index) =>
      String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'),
    );

    // The captcha that sent the code is accepted again for the calls that redeem it (the reset screen's way).
    const replies = await Promise.all(
      wrongCodes.map((wrong) =>
        rest(server.app, 'POST', '/api/user/resetPassword', {
          body: { email: owner.email, password: 'burst-secret', code: wrong, ...captcha },
          ip: owner.ip,
        }),
      ),
    );
    // Four wrong tries are told so; the fifth spends the code, and every later one is refused unchecked.
    const tooMany = '429 Too many wrong codes, please get a new verification code';
    expect(tally(replies)).toEqual({ '400 Code is incorrect': 4, [tooMany]: 16 });
    const right = await rest(server.app, 'POST', '/api/user/resetPassword', {
      body: { email: owner.email, password: 'burst-secret', code, ...captcha },
      ip: owner.ip,
    });
    expect(`${right.status} ${String(right.data)}`).toBe(tooMany);
  });
});
