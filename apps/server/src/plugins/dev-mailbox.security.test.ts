// Security review, finding 4: the development mailbox shows every reset code, so only the machine itself may read
// it: a request from any other address (whatever X-Forwarded-For it claims) is refused, and production never has it.
// Issue 29, finding 15: a same-host proxy that adds no X-Forwarded-For (nginx by default) makes every visitor look
// like this machine, so the mailbox is there only when asked for (DEV_MAILBOX=on) and /metrics only with a token.
import { createTestDatabase } from '@rooms/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app';
import { parseEnv } from '../env';
import { rest, solveCaptcha, uniqueCaller } from '../testing/rest-client';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const apps: FastifyInstance[] = [];

/** A server the way `npm start` runs without SMTP_URL: mail goes to the outbox, read through the mailbox. */
async function startWithoutSmtp(env: Record<string, string> = {}) {
  const app = await buildApp(
    parseEnv({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      APP_SECRET: 'm'.repeat(40),
      LOG_LEVEL: 'silent',
      ...env,
    }),
  );
  apps.push(app);
  await app.ready();
  return app;
}

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await database?.drop();
});

it('shows a reset code to the machine itself and to nobody else, whatever X-Forwarded-For says', async () => {
  const app = await startWithoutSmtp({ TRUST_PROXY: '1', DEV_MAILBOX: 'on' });
  const { email, ip } = uniqueCaller('mailbox-guard');
  const captcha = await solveCaptcha(app, ip);
  expect(
    (await rest(app, 'POST', '/api/user/sendRegisterCode', { body: { email, ...captcha }, ip })).msg,
  ).toBe('success');

  const read = (remoteAddress: string, headers: Record<string, string> = {}) =>
    app.inject({ url: '/dev/mailbox', query: { to: email }, remoteAddress, headers });

  // A stranger on the network, directly or claiming to be loopback through a header.
  for (const response of [
    await read('203.0.113.9'),
    await read('203.0.113.9', { 'x-forwarded-for': '127.0.0.1' }),
    await read('10.0.0.8', { 'x-forwarded-for': '::1' }),
    // A reverse proxy on this machine forwarding someone else's request.
    await read('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }),
  ]) {
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain(email);
  }

  for (const loopback of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
    const page = await read(loopback);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<pre>[^<]*?\s\d{6}\s/);
  }

  // Production never serves it, from loopback either.
  const production = await startWithoutSmtp({ NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:9' });
  expect((await production.inject({ url: '/dev/mailbox', remoteAddress: '127.0.0.1' })).statusCode).toBe(404);
});

it('keeps the mailbox and /metrics shut to a loopback request unless the operator turned them on', async () => {
  // What a visitor looks like through nginx on the same machine: loopback, no X-Forwarded-For. (No rooms warmed
  // up and no billing jobs: only the routes are looked at.)
  const app = await startWithoutSmtp({ ROOM_WARM_POOL: '0', BILLING_JOBS: 'off' });
  for (const url of ['/dev/mailbox', '/metrics']) {
    const response = await app.inject({ url, remoteAddress: '127.0.0.1' });
    expect(response.statusCode, url).toBe(404);
    expect(response.body, url).not.toMatch(/Development mailbox|rooms_/);
  }

  // The mailbox cannot be asked for in production, where the configuration says why.
  expect(() =>
    parseEnv({
      NODE_ENV: 'production',
      APP_SECRET: 'm'.repeat(40),
      SMTP_URL: 'smtp://127.0.0.1:9',
      DEV_MAILBOX: 'on',
    }),
  ).toThrowError(/DEV_MAILBOX.*development only/);
});
