// Accounts over the REST layer, as a third-party script sees them (the documented user calls and their error texts), against
// real PostgreSQL and a real SMTP listener.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rest, solveCaptcha, uniqueCaller } from '../testing/rest-client';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
});

afterAll(async () => {
  await server?.close();
});

type TSession = { token: string; username: string; avatar: string; level: number };

async function sendCode(kind: 'Register' | 'ResetPassword', email: string, ip: string) {
  const captcha = await solveCaptcha(server.app, ip);
  const reply = await rest(server.app, 'POST', `/api/user/send${kind}Code`, {
    body: { email, ...captcha },
    ip,
  });
  return { reply, captcha };
}

async function registerUser(password = 'first-secret-1') {
  const { email, ip } = uniqueCaller();
  const { reply } = await sendCode('Register', email, ip);
  expect(reply).toMatchObject({ status: 200, msg: 'success' });
  const mail = await server.smtp.nextMail(email);
  const captcha = await solveCaptcha(server.app, ip);
  const registered = await rest<TSession>(server.app, 'POST', '/api/user/register', {
    body: { username: 'Ada', email, password, code: mail.code, ...captcha },
    ip,
  });
  expect(registered).toMatchObject({ status: 200, msg: 'success' });
  return { email, ip, password, token: registered.data.token };
}

async function login(email: string, password: string, ip: string) {
  const captcha = await solveCaptcha(server.app, ip);
  return rest<TSession>(server.app, 'POST', '/api/user/login', { body: { email, password, ...captcha }, ip });
}

describe('the whole account journey over REST', () => {
  it('registers with a mailed code, logs in, changes and resets the password, logs out', async () => {
    const { email, ip } = uniqueCaller();

    const { reply: sent, captcha: codeCaptcha } = await sendCode('Register', email, ip);
    expect(sent).toEqual({ status: 200, msg: 'success', data: { cooldownSeconds: 60 } });
    const mail = await server.smtp.nextMail(email);
    expect(mail.subject).toContain('registration code');
    expect(mail.code).toMatch(/^\d{6}$/);

    // The captcha that sent the code is accepted again by the register call that spends the code.
    const registered = await rest<TSession>(server.app, 'POST', '/api/user/register', {
      body: {
        username: 'Grace',
        email: email.toUpperCase(),
        password: 'first-secret',
        code: mail.code,
        ...codeCaptcha,
      },
      ip,
    });
    expect(registered.msg).toBe('success');
    expect(registered.data).toMatchObject({ username: 'Grace', avatar: '', level: 1 });
    expect(registered.data.token.length).toBeGreaterThanOrEqual(32);

    const loggedIn = await login(email, 'first-secret', ip);
    expect(loggedIn.msg).toBe('success');
    const token = loggedIn.data.token;
    expect(token).not.toBe(registered.data.token);

    const info = await rest<Record<string, unknown>>(server.app, 'GET', '/api/user/userinfo', { token });
    expect(info.msg).toBe('success');
    expect(info.data).toMatchObject({
      username: 'Grace',
      email,
      level: 1,
      balance: 0,
      lastLoginIp: ip,
      avatar: '',
    });
    expect(typeof info.data.lastLoginTime).toBe('string');

    const changed = await rest(server.app, 'POST', '/api/user/updatePassword', {
      body: {
        oldPassword: 'first-secret',
        newPassword: 'second-secret',
        ...(await solveCaptcha(server.app, ip)),
      },
      token,
      ip,
    });
    expect(changed).toEqual({ status: 200, msg: 'success', data: null });
    // The registration session was ended by the change; the session that changed it lives on.
    expect(
      (await rest(server.app, 'GET', '/api/user/userinfo', { token: registered.data.token })).status,
    ).toBe(401);
    expect((await rest(server.app, 'GET', '/api/user/userinfo', { token })).msg).toBe('success');
    expect((await login(email, 'first-secret', ip)).data).toBe('Incorrect email or password');
    expect((await login(email, 'second-secret', ip)).msg).toBe('success');

    const { reply: resetSent, captcha: resetCaptcha } = await sendCode('ResetPassword', email, ip);
    expect(resetSent.msg).toBe('success');
    const resetMail = await server.smtp.nextMail(email);
    expect(resetMail.subject).toContain('password reset code');
    const reset = await rest(server.app, 'POST', '/api/user/resetPassword', {
      body: { email, password: 'third-secret', code: resetMail.code, ...resetCaptcha },
      ip,
    });
    expect(reset).toEqual({ status: 200, msg: 'success', data: null });
    // A reset ends every session.
    expect((await rest(server.app, 'GET', '/api/user/userinfo', { token })).status).toBe(401);

    const fresh = await login(email, 'third-secret', ip);
    expect(fresh.msg).toBe('success');
    const loggedOut = await rest(server.app, 'POST', '/api/user/logout', { token: fresh.data.token, ip });
    expect(loggedOut).toEqual({ status: 200, msg: 'success', data: null });
    const after = await rest(server.app, 'GET', '/api/user/userinfo', { token: fresh.data.token });
    expect(after).toEqual({ status: 401, msg: 'error', data: 'Not logged in' });
  });
});

describe('login errors', () => {
  it('answers the same for an unknown e-mail and a wrong password', async () => {
    const { email, ip, password } = await registerUser();
    expect(await login(email, `${password}x`, ip)).toEqual({
      status: 400,
      msg: 'error',
      data: 'Incorrect email or password',
    });
    expect((await login(`nobody-${email}`, password, ip)).data).toBe('Incorrect email or password');
  });

  it('names missing fields, a malformed account and a missing captcha', async () => {
    const { ip } = uniqueCaller();
    const captcha = await solveCaptcha(server.app, ip);
    const empty = await rest(server.app, 'POST', '/api/user/login', { body: { ...captcha }, ip });
    expect(empty).toEqual({ status: 400, msg: 'error', data: 'Please fill in your email and password' });
    const malformed = await rest(server.app, 'POST', '/api/user/login', {
      body: { email: 'not-an-email', password: 'whatever', ...captcha },
      ip,
    });
    expect(malformed.data).toBe('Incorrect account');
    const noCaptcha = await rest(server.app, 'POST', '/api/user/login', {
      body: { email: 'a@b.co', password: 'whatever' },
      ip,
    });
    expect(noCaptcha.data).toBe('Please complete the verification');
  });

  it('refuses a captcha used twice with pass_token used', async () => {
    const { email, ip, password } = await registerUser();
    const captcha = await solveCaptcha(server.app, ip);
    const first = await rest(server.app, 'POST', '/api/user/login', {
      body: { email, password, ...captcha },
      ip,
    });
    expect(first.msg).toBe('success');
    const second = await rest(server.app, 'POST', '/api/user/login', {
      body: { email, password, ...captcha },
      ip,
    });
    expect(second).toEqual({ status: 400, msg: 'error', data: 'pass_token used' });
  });

  it('refuses a forged captcha', async () => {
    const { ip } = uniqueCaller();
    const captcha = await solveCaptcha(server.app, ip);
    const forged = await rest(server.app, 'POST', '/api/user/login', {
      body: { email: 'a@b.co', password: 'whatever', ...captcha, captcha_output: '1' },
      ip,
    });
    expect(forged.data).toBe('verification failed');
  });

  it('throttles repeated logins on one account with a clear message', async () => {
    const { email, ip } = await registerUser();
    let last = await login(email, 'wrong-password', ip);
    for (let attempt = 1; attempt < 11; attempt++) last = await login(email, 'wrong-password', ip);
    expect(last.status).toBe(429);
    expect(last.data).toMatch(/^Too many attempts, please try again in \d+ seconds$/);
  });

  it('tells a wrong current password apart when changing it', async () => {
    const { token, ip } = await registerUser();
    const wrong = await rest(server.app, 'POST', '/api/user/updatePassword', {
      body: { oldPassword: 'not-it', newPassword: 'another-secret', ...(await solveCaptcha(server.app, ip)) },
      token,
      ip,
    });
    expect(wrong).toEqual({ status: 400, msg: 'error', data: 'Incorrect password' });
    const captcha = await solveCaptcha(server.app, ip);
    const short = await rest(server.app, 'POST', '/api/user/updatePassword', {
      body: { oldPassword: 'first-secret-1', newPassword: '12345', ...captcha },
      token,
      ip,
    });
    expect(short.data).toBe('Password length cannot be less than 6 digits');
    // Spaces alone are no password (a password cannot be empty), however many.
    const blank = await rest(server.app, 'POST', '/api/user/updatePassword', {
      body: { oldPassword: 'first-secret-1', newPassword: '      ', ...captcha },
      token,
      ip,
    });
    expect([blank.status, blank.data]).toEqual([400, 'The password cannot be empty']);
  });

  it('changes the password only with a solved captcha, each good for one change', async () => {
    const { email, token, ip } = await registerUser();
    const verifyAgain = {
      status: 400,
      msg: 'error',
      data: 'Verification data is invalid, please verify again',
    };
    const change = (newPassword: string, captcha: object) =>
      rest(server.app, 'POST', '/api/user/updatePassword', {
        body: { oldPassword: 'first-secret-1', newPassword, ...captcha },
        token,
        ip,
      });

    expect(await change('second-secret-2', {})).toEqual(verifyAgain);
    const captcha = await solveCaptcha(server.app, ip);
    expect(await change('second-secret-2', { ...captcha, captcha_output: 'forged' })).toEqual(verifyAgain);
    // Nothing was changed by the refused calls.
    expect((await login(email, 'first-secret-1', ip)).msg).toBe('success');

    const solved = await solveCaptcha(server.app, ip);
    expect(await change('second-secret-2', solved)).toEqual({ status: 200, msg: 'success', data: null });
    // The same captcha does not pass a second time, whatever else the call gets right.
    const again = await rest(server.app, 'POST', '/api/user/updatePassword', {
      body: { oldPassword: 'second-secret-2', newPassword: 'third-secret-3', ...solved },
      token,
      ip,
    });
    expect(again).toEqual(verifyAgain);
    expect((await login(email, 'second-secret-2', ip)).msg).toBe('success');
  });
});

describe('the last login on the profile', () => {
  it('is the sign-in before the current one, with its time and address', async () => {
    const { email, ip: registeredFrom, token: registrationToken } = await registerUser();
    const lastLogin = async (token: string) => {
      const info = await rest<{ lastLoginIp: string | null; lastLoginTime: string | null }>(
        server.app,
        'GET',
        '/api/user/userinfo',
        { token },
      );
      return { ip: info.data.lastLoginIp, time: info.data.lastLoginTime };
    };
    // Registering is the first sign-in: there is none before it.
    expect(await lastLogin(registrationToken)).toEqual({ ip: null, time: null });
    const registeredAt = new Date().toISOString();

    const laptop = uniqueCaller().ip;
    const first = await login(email, 'first-secret-1', laptop);
    expect(first.msg).toBe('success');
    const afterFirst = await lastLogin(first.data.token);
    expect(afterFirst.ip).toBe(registeredFrom);
    expect(afterFirst.time! <= registeredAt).toBe(true);

    const phone = uniqueCaller().ip;
    const second = await login(email, 'first-secret-1', phone);
    const afterSecond = await lastLogin(second.data.token);
    expect(afterSecond.ip).toBe(laptop);
    expect(afterSecond.time! > afterFirst.time!).toBe(true);
    // A wrong password is no sign-in: what the profile shows stays.
    expect((await login(email, 'not-the-password', uniqueCaller().ip)).status).toBe(400);
    expect(await lastLogin(second.data.token)).toEqual(afterSecond);
  });
});

describe('sessions', () => {
  it('ends a session after one day, like the cookie', async () => {
    const { token } = await registerUser();
    expect((await rest(server.app, 'GET', '/api/user/userinfo', { token })).msg).toBe('success');
    // A day and a second later (the server's clock): refused, also while the session is in the session cache.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 60 * 60 * 1000 + 1000 });
    try {
      expect(await rest(server.app, 'GET', '/api/user/userinfo', { token })).toEqual({
        status: 401,
        msg: 'error',
        data: 'Not logged in',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('stores only a hash of the token', async () => {
    const { token } = await registerUser();
    const rows = await server.app.orm.em
      .fork()
      .getConnection()
      .execute<{ token_hash: string }[]>('select token_hash from sessions');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.token_hash.includes(token))).toBe(false);
  });
});

describe('registration errors', () => {
  it('refuses a registered e-mail at both steps', async () => {
    const { email, ip } = await registerUser();
    const { reply } = await sendCode('Register', email, ip);
    expect(reply).toEqual({ status: 409, msg: 'error', data: 'The email address already exists' });
    const captcha = await solveCaptcha(server.app, ip);
    const again = await rest(server.app, 'POST', '/api/user/register', {
      body: { username: 'Again', email, password: 'whatever-1', code: '123456', ...captcha },
      ip,
    });
    expect(again).toEqual({ status: 409, msg: 'error', data: 'Email registered' });
  });

  it('checks the e-mail format, missing fields and the password length', async () => {
    const { email, ip } = uniqueCaller();
    // Registration: 'Please enter a valid email address', also for one too long to keep.
    const { reply } = await sendCode('Register', 'no-at-sign.example', ip);
    expect(reply.data).toBe('Please enter a valid email address');
    const long = await sendCode('Register', `${'a'.repeat(250)}@example.test`, ip);
    expect(long.reply.data).toBe('Please enter a valid email address');
    const captcha = await solveCaptcha(server.app, ip);
    const missing = await rest(server.app, 'POST', '/api/user/register', { body: { email, ...captcha }, ip });
    expect(missing.data).toBe('Please fill in the complete registration information');
    const short = await rest(server.app, 'POST', '/api/user/register', {
      body: { username: 'Short', email, password: '12345', code: '123456', ...captcha },
      ip,
    });
    expect(short.data).toBe('Password length cannot be less than 6 digits');
  });

  it('needs a code first, refuses a wrong one and locks the code after five wrong tries', async () => {
    const { email, ip } = uniqueCaller();
    const body = async (code: string) => ({
      username: 'Tries',
      email,
      password: 'good-secret',
      code,
      ...(await solveCaptcha(server.app, ip)),
    });
    const noCode = await rest(server.app, 'POST', '/api/user/register', { body: await body('123456'), ip });
    expect(noCode.data).toBe('Please get the verification code first');

    await sendCode('Register', email, ip);
    const { code } = await server.smtp.nextMail(email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 4; attempt++) {
      const wrong = await rest(server.app, 'POST', '/api/user/register', { body: await body(wrongCode), ip });
      expect(wrong).toEqual({ status: 400, msg: 'error', data: 'The verification code is incorrect' });
    }
    const fifth = await rest(server.app, 'POST', '/api/user/register', { body: await body(wrongCode), ip });
    expect(fifth.data).toBe('Too many wrong codes, please get a new verification code');
    const right = await rest(server.app, 'POST', '/api/user/register', { body: await body(code!), ip });
    expect(right.data).toBe('Too many wrong codes, please get a new verification code');
  });

  it('refuses an expired code', async () => {
    const { email, ip } = uniqueCaller();
    await sendCode('Register', email, ip);
    const { code } = await server.smtp.nextMail(email);
    await server.app.orm.em
      .fork()
      .getConnection()
      .execute(`update email_codes set expires_at = now() - interval '1 second' where email = ?`, [email]);
    const captcha = await solveCaptcha(server.app, ip);
    const expired = await rest(server.app, 'POST', '/api/user/register', {
      body: { username: 'Late', email, password: 'good-secret', code, ...captcha },
      ip,
    });
    expect(expired.data).toBe('The verification code has expired, please get a new one');
  });
});

describe('sending codes', () => {
  it('enforces the 60-second cooldown on the server', async () => {
    const { email, ip } = uniqueCaller();
    expect((await sendCode('Register', email, ip)).reply.msg).toBe('success');
    const again = (await sendCode('Register', email, ip)).reply;
    expect(again.status).toBe(429);
    expect(again.data).toMatch(/^Please wait (60|59|58) seconds before requesting another code$/);
  });

  it("answers 'Sending failed' when the mail server refuses, without starting a cooldown", async () => {
    const { email, ip } = uniqueCaller();
    server.smtp.rejectDeliveries(true);
    try {
      const { reply } = await sendCode('Register', email, ip);
      expect(reply).toEqual({ status: 502, msg: 'error', data: 'Sending failed' });
    } finally {
      server.smtp.rejectDeliveries(false);
    }
    expect((await sendCode('Register', email, ip)).reply.msg).toBe('success');
  });
});

describe('reset errors', () => {
  it("uses the reset screen's exact replies", async () => {
    const { email, ip } = await registerUser();
    const unknown = await sendCode('ResetPassword', `unknown-${email}`, ip);
    expect(unknown.reply).toEqual({ status: 404, msg: 'error', data: 'Email not exist' });
    const malformed = await sendCode('ResetPassword', 'broken@', ip);
    expect(malformed.reply.data).toBe('Email is incorrect');

    const { captcha } = await sendCode('ResetPassword', email, ip);
    const { code } = await server.smtp.nextMail(email);
    const wrong = await rest(server.app, 'POST', '/api/user/resetPassword', {
      body: { email, password: 'new-secret', code: code === '999999' ? '888888' : '999999', ...captcha },
      ip,
    });
    expect(wrong).toEqual({ status: 400, msg: 'error', data: 'Code is incorrect' });

    const done = await rest(server.app, 'POST', '/api/user/resetPassword', {
      body: { email, password: 'new-secret', code, ...captcha },
      ip,
    });
    expect(done.msg).toBe('success');
    // The code's captcha is spent with the code; a reused captcha is refused as a captcha.
    const replay = await rest(server.app, 'POST', '/api/user/resetPassword', {
      body: { email, password: 'newer-secret', code, ...captcha },
      ip,
    });
    expect(replay.data).toBe('pass_token used');
    const reusedCode = await rest(server.app, 'POST', '/api/user/resetPassword', {
      body: { email, password: 'newer-secret', code, ...(await solveCaptcha(server.app, ip)) },
      ip,
    });
    expect(reusedCode.data).toBe('Verification code has been used');

    const missing = await rest(server.app, 'POST', '/api/user/resetPassword', {
      body: { email, ...(await solveCaptcha(server.app, ip)) },
      ip,
    });
    expect(missing.data).toBe('Please fill in the email, verification code and new password');
    const unknownReset = await rest(server.app, 'POST', '/api/user/resetPassword', {
      body: {
        email: `unknown-${email}`,
        password: 'new-secret',
        code: '123456',
        ...(await solveCaptcha(server.app, ip)),
      },
      ip,
    });
    expect(unknownReset.data).toBe('Email not exist');
  });
});
