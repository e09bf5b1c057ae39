// The README's reverse-proxy examples work as written: behind deploy/proxy/nginx.conf and deploy/proxy/Caddyfile
// (run where the package is installed; scripts/setup.mjs installs both) the app's page loads, the API answers with
// the session's Authorization passed through, and a room socket is upgraded to a WebSocket (101), not refused by
// the proxy.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { onPath, startCaddy, startNginx, type TRunningProxy } from '../testing/reverse-proxy';
import { createOwner, type TTestOwner } from '../testing/room-test-users';
import { makeTestCertificate } from '../testing/test-certificates';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let owner: TTestOwner;

beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: '1' } });
  owner = await createOwner(server.app);
});

afterAll(async () => {
  await server?.close();
});

function get(
  proxy: TRunningProxy,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${proxy.url}${path}`, { rejectUnauthorized: false, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type']), body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a room socket through the proxy: the HTTP status of the upgrade, and the first message if it opened. */
function openRoomSocket(proxy: TRunningProxy, token: string): Promise<{ status: number; first?: string }> {
  const socket = new WebSocket(
    `${proxy.url.replace('https:', 'wss:')}/ws/room/${randomUUID()}?token=${token}`,
    { rejectUnauthorized: false },
  );
  return new Promise((resolve, reject) => {
    socket.once('upgrade', () => {
      socket.once('message', (data) => {
        resolve({ status: 101, first: String(data) });
        socket.close();
      });
      socket.once('close', () => resolve({ status: 101 }));
    });
    socket.once('unexpected-response', (_request, response) => {
      // The refusal's own words: the app's ("This room does not exist"), or the proxy's error page.
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, first: body });
        socket.terminate();
      });
    });
    socket.once('error', reject);
  });
}

const proxies = [
  {
    name: 'nginx',
    program: 'nginx',
    start: async () => startNginx(appPort(), await makeTestCertificate(['localhost'])),
  },
  { name: 'Caddy', program: 'caddy', start: () => startCaddy(appPort()) },
];

function appPort(): number {
  return Number(new URL(server.url).port);
}

describe.each(proxies)('behind the $name example', ({ program, start }) => {
  let proxy: TRunningProxy;

  beforeAll(async () => {
    if (onPath(program)) proxy = await start();
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it.runIf(onPath(program))('serves the page and the API, and upgrades room sockets', async () => {
    const page = await get(proxy, '/dashboard');
    if (existsSync(join(server.config.webDist, 'index.html'))) {
      expect(page.status).toBe(200);
      expect(page.type).toMatch(/text\/html/);
      expect(page.body).toContain('<div id="root">');
    }

    const info = await get(proxy, '/trpc/user.userinfo', { authorization: owner.token });
    expect(info.status).toBe(200);
    expect(info.body).toContain(owner.username);

    // The room does not exist: the app itself refuses the upgrade and says why, so the request went through the
    // proxy to the app as an upgrade (a proxy that dropped the upgrade headers gets the app's plain 404 page).
    const socket = await openRoomSocket(proxy, owner.token);
    expect(socket).toMatchObject({ status: 404, first: expect.stringContaining('This room does not exist') });
  });
});
