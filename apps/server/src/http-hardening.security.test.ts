// Security review, finding 8 (the HTTP parts): control characters in input are a 400 a person can read, never a
// 500; the shared-room lobby does not tell a missing room from a wrong password; secrets in a query string stay
// out of the logs; every answer carries security headers whose CSP still lets the web app run.
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { parseEnv } from './env';
import { rest } from './testing/rest-client';
import { createOwner, uniqueRoomName } from './testing/room-test-users';
import { startTestServer, type TTestServer } from './testing/test-server';

let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
});

afterAll(async () => {
  await server?.close();
});

const CONTROL_TEXT = 'The text contains characters that are not allowed';

async function trpcMutation(path: string, input: unknown, token: string) {
  const response = await server.app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { authorization: token, 'content-type': 'application/json' },
    payload: JSON.stringify({ json: input }),
  });
  return { status: response.statusCode, body: response.json() as { error?: { json: { message: string } } } };
}

describe('control characters in input', () => {
  it('answer a NUL byte or another control character with a 400 that says what is wrong', async () => {
    const owner = await createOwner(server.app);

    const byName = await rest(server.app, 'GET', '/api/room/getRoomInfo_share', {
      query: { name: 'lobby\u0000', password: 'whatever' },
    });
    expect(byName).toEqual({ status: 400, msg: 'error', data: CONTROL_TEXT });

    const create = (remark: string) =>
      rest(server.app, 'POST', '/api/room/createRoom', {
        body: { name: uniqueRoomName('nul'), remark, region: 'local', image: 'chromium-blank' },
        token: owner.token,
      });
    for (const remark of ['nul\u0000here', 'bell\u0007', 'escape\u001b[31m', 'tab\there', 'line\nbreak']) {
      expect(await create(remark)).toEqual({ status: 400, msg: 'error', data: CONTROL_TEXT });
    }
    expect((await create('plain remark')).status).toBe(200);

    const overTrpc = await trpcMutation(
      'room.createRoom',
      { name: uniqueRoomName('nul'), remark: 'a\u0000b', region: 'local', image: 'chromium-blank' },
      owner.token,
    );
    expect(overTrpc.status).toBe(400);
    expect(overTrpc.body.error?.json.message).toBe(CONTROL_TEXT);
  });

  it('leave line breaks and tabs where a text area has them (a report’s reason)', async () => {
    const owner = await createOwner(server.app);
    const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
      body: { name: uniqueRoomName('report'), region: 'local', image: 'chromium-blank', isPublic: true },
      token: owner.token,
    });
    const report = (reason: string) =>
      rest(server.app, 'POST', '/api/room/reportRoom', {
        body: { id: created.data.id, reason },
        token: owner.token,
        ip: '192.0.2.200',
      });
    expect((await report('First line\n\tsecond line')).status).toBe(200);
    expect(await report('First line\u0000')).toEqual({ status: 400, msg: 'error', data: CONTROL_TEXT });
  });
});

describe('the shared-room lobby', () => {
  it('answers a missing room exactly like a room with a wrong or missing password', async () => {
    const owner = await createOwner(server.app);
    const room = await rest<{ id: string; name: string }>(server.app, 'POST', '/api/room/createRoom', {
      body: { name: uniqueRoomName('probe'), region: 'local', image: 'chromium-blank', password: 'sesame-1' },
      token: owner.token,
    });
    const hidden = await rest<{ id: string; name: string }>(server.app, 'POST', '/api/room/createRoom', {
      body: { name: uniqueRoomName('hidden'), region: 'local', image: 'chromium-blank' },
      token: owner.token,
    });
    const lobby = (query: Record<string, string>) =>
      rest(server.app, 'GET', '/api/room/getRoomInfo_share', { query, ip: '192.0.2.201' });

    const wrongPassword = await lobby({ name: room.data.name, password: 'not-it' });
    expect(wrongPassword.status).toBe(403);
    const probes: Record<string, string>[] = [
      { name: uniqueRoomName('missing'), password: 'not-it' },
      { id: crypto.randomUUID(), password: 'not-it' },
      { name: hidden.data.name, password: 'not-it' },
    ];
    for (const query of probes) {
      expect(await lobby(query)).toEqual(wrongPassword);
    }

    const noPassword = await lobby({ name: room.data.name });
    for (const query of [{ name: uniqueRoomName('missing') }, { name: hidden.data.name }]) {
      expect(await lobby(query)).toEqual(noPassword);
    }
  });
});

describe('logs', () => {
  it('keep passwords, codes and pass tokens sent in a query string out', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // Request logging is on outside tests; this server logs the way a production one does.
    const config = parseEnv({
      NODE_ENV: 'development',
      DATABASE_URL: server.config.databaseUrl,
      SMTP_URL: 'smtp://127.0.0.1:9',
      APP_SECRET: 'l'.repeat(40),
      LOG_LEVEL: 'info',
    });
    const app: FastifyInstance = await buildApp(config, { logger: { level: 'info', stream } });
    try {
      const secrets = {
        password: 'hunter2-password',
        code: '731945',
        pass_token: 'pass-token-secret',
        captcha_output: 'captcha-output-secret',
        newPassword: 'new-password-secret',
        oldPassword: 'old-password-secret',
      };
      await app.inject({
        method: 'POST',
        url: `/api/user/resetPassword?email=someone%40example.test&${new URLSearchParams(secrets)}`,
      });
      const input = encodeURIComponent(
        JSON.stringify({ json: { name: 'lobby', password: 'trpc-password-secret', code: '555111' } }),
      );
      await app.inject({ method: 'GET', url: `/trpc/room.getRoomInfo_share?input=${input}` });

      const log = lines.join('');
      expect(log).toContain('/api/user/resetPassword');
      expect(log).toContain('someone%40example.test');
      for (const secret of [...Object.values(secrets), 'trpc-password-secret', '555111']) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await app.close();
    }
  });
});

describe('security headers', () => {
  it('come with every answer, and the CSP still allows what the web app uses', async () => {
    for (const url of ['/api/server/getServerState', '/', '/share/room/abc']) {
      const response = await server.app.inject({ url });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBeDefined();
      expect(response.headers['referrer-policy']).toBeDefined();
      const csp = String(response.headers['content-security-policy'] ?? '');
      const directives = new Map(
        csp.split(';').map((directive) => {
          const [name = '', ...values] = directive.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.get('script-src')).toEqual(["'self'"]);
      expect(directives.get('worker-src')).toContain("'self'");
      expect(directives.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
      expect(directives.get('connect-src')).toContain("'self'");
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    }
  });
});
