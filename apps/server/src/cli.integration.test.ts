// The operator command line against a real database: create the first administrator, validate like the API.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { User } from '@rooms/db';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from './env';
import { createOwner } from './rooms/room-test-users';
import { rest, solveCaptcha } from './testing/rest-client';
import { startTestServer, type TTestServer } from './testing/test-server';

const run = promisify(execFile);
let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
});

afterAll(async () => {
  await server?.close();
});

async function cli(...args: string[]) {
  const tsx = join(REPO_ROOT, 'node_modules/.bin/tsx');
  try {
    const { stdout, stderr } = await run(tsx, [join(REPO_ROOT, 'apps/server/src/cli.ts'), ...args], {
      env: { ...process.env, DATABASE_URL: server.config.databaseUrl, APP_SECRET: 'z'.repeat(40) },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

it('creates an administrator who can log in', async () => {
  const created = await cli(
    'user:create',
    '--email',
    'Root@Example.com',
    '--password',
    'operator-secret',
    '--admin',
  );
  expect(created.stderr).toBe('');
  expect(created.stdout).toContain('created administrator root <root@example.com>');

  const user = await server.app.orm.em.fork().findOneOrFail(User, { email: 'root@example.com' });
  expect(user.role).toBe('admin');

  const captcha = await solveCaptcha(server.app, '10.9.9.9');
  const login = await rest<{ token: string }>(server.app, 'POST', '/api/user/login', {
    body: { email: 'root@example.com', password: 'operator-secret', ...captcha },
    ip: '10.9.9.9',
  });
  expect(login.msg).toBe('success');
  const info = await rest<{ role: string }>(server.app, 'GET', '/api/user/userinfo', {
    token: login.data.token,
  });
  expect(info.data.role).toBe('admin');

  const again = await cli('user:create', '--email', 'root@example.com', '--password', 'operator-secret');
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('an account with the e-mail root@example.com exists');
});

it('validates like the API does', async () => {
  const badEmail = await cli('user:create', '--email', 'not-an-email', '--password', 'operator-secret');
  expect(badEmail.code).toBe(1);
  expect(badEmail.stderr).toContain('--email: is not a valid e-mail address');
  const shortPassword = await cli('user:create', '--email', 'short@example.com', '--password', '123');
  expect(shortPassword.code).toBe(1);
  expect(shortPassword.stderr).toContain('--password: Password length cannot be less than 6 digits');
  const unknown = await cli('user:explode');
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('unknown command user:explode');
});

it('disables an account, which ends its sessions and blocks login', async () => {
  await cli('user:create', '--email', 'blocked@example.com', '--password', 'blocked-secret');
  const ip = '10.9.9.10';
  const login = await rest<{ token: string }>(server.app, 'POST', '/api/user/login', {
    body: {
      email: 'blocked@example.com',
      password: 'blocked-secret',
      ...(await solveCaptcha(server.app, ip)),
    },
    ip,
  });
  expect(login.msg).toBe('success');
  expect((await cli('user:disable', '--email', 'blocked@example.com')).code).toBe(0);
  expect((await rest(server.app, 'GET', '/api/user/userinfo', { token: login.data.token })).status).toBe(401);
  const refused = await rest(server.app, 'POST', '/api/user/login', {
    body: {
      email: 'blocked@example.com',
      password: 'blocked-secret',
      ...(await solveCaptcha(server.app, ip)),
    },
    ip,
  });
  expect(refused).toEqual({ status: 403, msg: 'error', data: 'This account has been disabled' });
});

it("reaches the server's session cache from its own process: a new administrator is one at once", async () => {
  const owner = await createOwner(server.app);
  const email = (await server.app.orm.em.fork().findOneOrFail(User, owner.userId)).email;
  const role = async () =>
    (await rest<{ role: string }>(server.app, 'GET', '/api/user/userinfo', { token: owner.token })).data.role;
  expect(await role()).toBe('user');
  expect((await cli('user:admin', '--email', email)).code).toBe(0);
  // The notice travels through PostgreSQL NOTIFY: allow it a moment, far less than the cache's 10 s lifetime.
  const deadline = Date.now() + 2000;
  while ((await role()) !== 'admin' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(await role()).toBe('admin');
});
