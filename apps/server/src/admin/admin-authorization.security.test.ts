// Every admin procedure and REST path, walked as anonymous, a user, an impersonated session (of an administrator's
// account, even) and an administrator: only the administrator gets through, and every other caller gets exactly
// the answer of a path that does not exist, whatever the input, so probing reveals nothing.
import { hostname } from 'node:os';
import { appRouter, restRoutes, type TServerState } from '@rooms/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, impersonate } from '../testing/admin-accounts';
import { rest } from '../testing/rest-client';
import { createOwner } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let callers: { name: string; token: string | undefined }[];
let adminToken: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  const user = await createOwner(server.app);
  const admin = await createAdmin(server.app);
  const otherAdmin = await createAdmin(server.app);
  adminToken = admin.token;
  callers = [
    { name: 'anonymous', token: undefined },
    { name: 'user', token: user.token },
    { name: 'impersonated user', token: await impersonate(server.app, admin.token, user.userId) },
    {
      name: 'impersonated administrator',
      token: await impersonate(server.app, admin.token, otherAdmin.userId),
    },
    { name: 'unknown token', token: 'x'.repeat(43) },
  ];
});

afterAll(async () => {
  await server?.close();
});

const adminProcedures = Object.entries(appRouter._def.procedures)
  .filter(([path]) => path.startsWith('admin.'))
  .map(([path, procedure]) => ({
    path,
    type: (procedure as unknown as { _def: { type: string } })._def.type,
  }));
const adminRestRoutes = restRoutes.filter((route) => route.path.startsWith('/api/admin/'));

/** Inputs a prober might send: nothing, a valid-looking one, and one with a control character. */
const INPUTS = [{}, { userId: '00000000-0000-4000-8000-000000000000' }, { query: 'a\u0000b' }];

async function callTrpc(path: string, type: string, input: unknown, token: string | undefined) {
  const headers = token ? { authorization: token } : {};
  const encoded = encodeURIComponent(JSON.stringify({ json: input }));
  const response =
    type === 'query'
      ? await server.app.inject({ method: 'GET', url: `/trpc/${path}?input=${encoded}`, headers })
      : await server.app.inject({ method: 'POST', url: `/trpc/${path}`, headers, payload: { json: input } });
  // The path is part of tRPC's own not-found text; with it written as <path>, answers compare word for word.
  return { status: response.statusCode, body: response.body.split(path).join('<path>') };
}

async function callRest(method: 'GET' | 'POST', url: string, input: unknown, token: string | undefined) {
  const headers = token ? { authorization: token } : {};
  const response =
    method === 'GET'
      ? await server.app.inject({ method, url, query: input as Record<string, string>, headers })
      : await server.app.inject({ method, url, headers, payload: input as object });
  return { status: response.statusCode, body: response.body };
}

describe('the admin area refuses everyone but an administrator as if it did not exist', () => {
  it('covers every admin procedure with a REST path', () => {
    expect(adminProcedures.length).toBeGreaterThanOrEqual(19);
    const routed = new Set(adminRestRoutes.map((route) => route.procedure));
    for (const { path } of adminProcedures) expect(routed, path).toContain(path);
  });

  it('answers every admin procedure over tRPC like a missing procedure', async () => {
    for (const { path, type } of adminProcedures) {
      const missingPath = `${path}Missing`;
      for (const caller of callers) {
        for (const input of INPUTS) {
          const missing = await callTrpc(missingPath, type, input, caller.token);
          expect(missing.status).toBe(404);
          const answer = await callTrpc(path, type, input, caller.token);
          expect(answer, `${caller.name} ${path} ${JSON.stringify(input)}`).toEqual(missing);
        }
      }
    }
  });

  it('answers every /api/admin path like an unknown path', async () => {
    for (const route of adminRestRoutes) {
      for (const caller of callers) {
        for (const input of INPUTS) {
          const missing = await callRest(route.method, `${route.path}Missing`, input, caller.token);
          expect(missing).toEqual({ status: 404, body: JSON.stringify({ msg: 'error', data: 'Not found' }) });
          const answer = await callRest(route.method, route.path, input, caller.token);
          expect(answer, `${caller.name} ${route.method} ${route.path}`).toEqual(missing);
        }
      }
    }
  });

  it('lets an administrator in their own session through every path', async () => {
    for (const route of adminRestRoutes) {
      const answer = await callRest(route.method, route.path, {}, adminToken);
      expect(answer.body, `${route.method} ${route.path}`).not.toBe(
        JSON.stringify({ msg: 'error', data: 'Not found' }),
      );
      expect(answer.status, `${route.method} ${route.path}: ${answer.body}`).toBeLessThan(500);
    }
    for (const { path, type } of adminProcedures) {
      const answer = await callTrpc(path, type, {}, adminToken);
      expect(answer.body, path).not.toContain('No procedure found');
      expect(answer.status, `${path}: ${answer.body}`).toBeLessThan(500);
    }
  });

  it('documents the admin paths in the OpenAPI document', async () => {
    const document = (await server.app.inject('/api/openapi.json')).json() as {
      paths: Record<string, unknown>;
    };
    for (const route of adminRestRoutes) expect(Object.keys(document.paths)).toContain(route.path);
  });
});

describe('the server state page (issue 29, finding 14)', () => {
  it('tells a user the zones, rooms and start times, and only an administrator the host’s name, CPU and memory', async () => {
    const host = hostname();
    for (const caller of callers.slice(1, 3)) {
      const reply = await rest<TServerState>(server.app, 'GET', '/api/server/getServerState', {
        token: caller.token,
      });
      expect(reply.msg, caller.name).toBe('success');
      const node = reply.data.regions.find((region) => region.code === 'local')?.nodes[0];
      expect(node?.rooms.max, caller.name).toBeGreaterThan(0);
      expect(node?.startLatency.windowMinutes, caller.name).toBe(60);
      expect(node?.host, caller.name).toBeNull();
      // Nowhere in the answer either, over REST or the web app's tRPC.
      expect(JSON.stringify(reply.data), caller.name).not.toContain(host);
      const trpc = await server.app.inject({
        url: '/trpc/server.getServerState',
        headers: { authorization: caller.token ?? '' },
      });
      expect(trpc.statusCode, caller.name).toBe(200);
      expect(trpc.body, caller.name).not.toMatch(new RegExp(`${host}|"cpu"|"memory"|totalBytes`));
    }
    const forAdmin = await rest<TServerState>(server.app, 'GET', '/api/server/getServerState', {
      token: adminToken,
    });
    const node = forAdmin.data.regions.find((region) => region.code === 'local')?.nodes[0];
    expect(node?.host).toMatchObject({ name: host, cpu: { cores: expect.any(Number) } });
  });
});
