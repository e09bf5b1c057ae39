// The operator command line against a real database: create the first administrator, validate like the API; and
// with the embedded database of a DATA_DIR and port of the operator's choosing, reach the server's own database.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { TCaptchaFields } from '@rooms/api';
import { solveChallenge } from '@rooms/api/captcha';
import { freePort, User } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './env';
import { rest, solveCaptcha } from './testing/rest-client';
import { createOwner } from './testing/room-test-users';
import { killServerProcesses, startServerProcess, type TServerProcess } from './testing/server-processes';
import { startTestServer, type TTestServer } from './testing/test-server';

const run = promisify(execFile);
let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
});

afterAll(async () => {
  await server?.close();
});

/** `npm run cli -- …` as run from the repository's root, with the test server's database unless `env` says otherwise. */
async function cli(...args: string[]) {
  return cliWith({ DATABASE_URL: server.config.databaseUrl ?? '' }, ...args);
}

async function cliWith(env: Record<string, string>, ...args: string[]) {
  const tsx = join(REPO_ROOT, 'node_modules/.bin/tsx');
  try {
    const { stdout, stderr } = await run(tsx, [join(REPO_ROOT, 'apps/server/src/cli.ts'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, APP_SECRET: 'z'.repeat(40), ...env },
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
  // stderr says which database and nothing else: no warning, no error.
  const url = new URL(server.config.databaseUrl ?? '');
  expect(created.stderr.trim()).toBe(`database: ${url.hostname}:${url.port}${url.pathname} (DATABASE_URL)`);
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

/** Signs in over HTTP as a browser would (the self-hosted captcha solved first); the HTTP status. */
async function signIn(
  origin: string,
  email: string,
  password: string,
): Promise<{ status: number; role?: string }> {
  const post = (path: string, body: unknown) =>
    fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const challenge = (await (await fetch(`${origin}/api/captcha/challenge`)).json()) as {
    data: Parameters<typeof solveChallenge>[0];
  };
  const captcha = (await (
    await post('/api/captcha/verify', await solveChallenge(challenge.data))
  ).json()) as {
    data: TCaptchaFields;
  };
  const login = await post('/api/user/login', { email, password, ...captcha.data });
  if (login.status !== 200) return { status: login.status };
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const info = await fetch(`${origin}/api/user/userinfo`, { headers: { authorization: token } });
  return { status: info.status, role: ((await info.json()) as { data: { role: string } }).data.role };
}

describe('an embedded database in a DATA_DIR and on a port of its own', () => {
  let dataDir: string;
  let otherDir: string;
  let pgPort: number;
  let app: TServerProcess;
  /** DATA_DIR as an operator would write it in the repository: relative (npm start runs in apps/server). */
  let relativeDataDir: string;

  beforeAll(async () => {
    const base = await mkdtemp(join(tmpdir(), 'rooms-cli-data-'));
    await chmod(base, 0o755); // the postgres user PostgreSQL runs as under root must reach its directory
    dataDir = join(base, 'install');
    otherDir = join(base, 'elsewhere');
    relativeDataDir = relative(REPO_ROOT, dataDir);
    pgPort = await freePort();
    app = await startServerProcess('server', {
      DATABASE_URL: '',
      DATA_DIR: relativeDataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      ROOMS_DATA_DIR: join(dataDir, 'rooms'),
      APP_SECRET: 'z'.repeat(40),
      BILLING_JOBS: 'off',
      ROOM_WARM_POOL: '0',
    });
  }, 180_000);

  afterAll(async () => {
    if (app) {
      app.child.kill('SIGTERM');
      await app.exited;
    }
    killServerProcesses();
    if (dataDir) await rm(join(dataDir, '..'), { recursive: true, force: true });
  }, 60_000);

  it("writes to the running server's database with the server's settings, and says which it is", async () => {
    const env = { DATABASE_URL: '', DATA_DIR: relativeDataDir, EMBEDDED_PG_PORT: String(pgPort) };
    const created = await cliWith(
      env,
      'user:create',
      '--email',
      'op@example.com',
      '--password',
      'operator-secret',
      '--admin',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(
      `database: the embedded PostgreSQL in ${join(dataDir, 'postgres')} (127.0.0.1:${pgPort}/rooms), run by the server (process ${app.child.pid}`,
    );
    // The server reads the account the command wrote: the operator signs in as an administrator.
    expect(await signIn(app.url, 'op@example.com', 'operator-secret')).toEqual({
      status: 200,
      role: 'admin',
    });
  });

  it('refuses to write to a database no server reads, and names the running one', async () => {
    const elsewhere = await cliWith(
      { DATABASE_URL: '', DATA_DIR: otherDir, EMBEDDED_PG_PORT: String(await freePort()) },
      'user:create',
      '--email',
      'lost@example.com',
      '--password',
      'operator-secret',
    );
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain(`no server is running the database of DATA_DIR=${otherDir}`);
    expect(elsewhere.stderr).toContain(`DATA_DIR=${dataDir} EMBEDDED_PG_PORT=${pgPort}`);
    expect(existsSync(join(otherDir, 'postgres'))).toBe(false);
  });
});
