// Without SMTP_URL (the embedded default) mail goes to the outbox, and the development mailbox shows it when asked
// for (DEV_MAILBOX=on, as `npm run dev` sets it).
import { createTestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app';
import { parseEnv } from '../env';
import { rest, solveCaptcha, uniqueCaller } from '../testing/rest-client';

let app: Awaited<ReturnType<typeof buildApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp(
    parseEnv({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      APP_SECRET: 'y'.repeat(40),
      LOG_LEVEL: 'silent',
      DEV_MAILBOX: 'on',
    }),
  );
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

it('keeps the code in the outbox and shows it on the development mailbox page', async () => {
  const { email, ip } = uniqueCaller('mailbox');
  const captcha = await solveCaptcha(app, ip);
  const sent = await rest(app, 'POST', '/api/user/sendRegisterCode', { body: { email, ...captcha }, ip });
  expect(sent.msg).toBe('success');

  const page = await app.inject({ url: '/dev/mailbox', query: { to: email } });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toContain('text/html');
  const code = /<pre>[^<]*?\s(\d{6})\s/.exec(page.body)?.[1];
  expect(code).toMatch(/^\d{6}$/);

  const registered = await rest(app, 'POST', '/api/user/register', {
    body: { username: 'Mailbox', email, password: 'secret-enough', code, ...captcha },
    ip,
  });
  expect(registered.msg).toBe('success');
});

it('is not there when the server sends real mail', async () => {
  const withSmtp = await buildApp(
    parseEnv({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      SMTP_URL: 'smtp://127.0.0.1:9',
      APP_SECRET: 'y'.repeat(40),
      LOG_LEVEL: 'silent',
      DEV_MAILBOX: 'on',
    }),
  );
  try {
    expect((await withSmtp.inject('/dev/mailbox')).statusCode).toBe(404);
  } finally {
    await withSmtp.close();
  }
});
