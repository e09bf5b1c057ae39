// The OpenAPI document against the REST layer it describes: every operation lists the statuses any call may
// meet, a wrong method answers 405 in the envelope on every documented path, and representative refusals (402,
// 403, 404, 409, 413, 415…) come with a status their operation documents, the POST room actions taking their fields
// as query parameters too (`?id&name`), as the documented API shows them.
import { Plan } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, impersonate } from '../testing/admin-accounts';
import { rest, uniqueCaller } from '../testing/rest-client';
import { createOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

interface TOperation {
  security: unknown[];
  tags: string[];
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { required: boolean };
  responses: Record<string, { description: string }>;
}
type TDocument = { paths: Record<string, Record<string, TOperation>> };

let server: TTestServer;
let document: TDocument;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  document = (await server.app.inject('/api/openapi.json')).json();
});

afterAll(async () => {
  await server?.close();
});

function operation(method: string, path: string): TOperation {
  const found = document.paths[path]?.[method.toLowerCase()];
  if (!found) throw new Error(`${method} ${path} is not documented`);
  return found;
}

/** A reply's status must be one its operation lists, and its body the envelope. */
function expectDocumented(method: string, path: string, reply: { statusCode: number; json(): unknown }) {
  expect(Object.keys(operation(method, path).responses), `${method} ${path}`).toContain(
    String(reply.statusCode),
  );
  expect(reply.json()).toMatchObject({ msg: reply.statusCode === 200 ? 'success' : 'error' });
}

describe('the OpenAPI document', () => {
  it('lists for every operation the statuses any call may answer with', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, described]) => ({ path, method, described })),
    );
    expect(operations.length).toBeGreaterThan(40);
    for (const { path, method, described } of operations) {
      const statuses = Object.keys(described.responses);
      const name = `${method} ${path}`;
      expect(statuses, name).toEqual(expect.arrayContaining(['200', '405', '500', '503']));
      if (path === '/api/room/getPublicRoomThumbnail') continue;
      expect(statuses, name).toContain('400');
      if (described.security.length > 0) expect(statuses, name).toContain('401');
      if (described.tags.includes('Admin')) expect(statuses, name).toContain('404');
      if (method === 'post') expect(statuses, name).toEqual(expect.arrayContaining(['413', '415']));
    }
    // A route's own refusals, with their texts: the plan's price, the room that is not there, the name taken.
    expect(operation('GET', '/api/pay/payPlan').responses['402']?.description).toContain(
      'Insufficient balance',
    );
    expect(operation('POST', '/api/room/startRoom').responses['404']?.description).toContain(
      'The room does not exist',
    );
    expect(operation('POST', '/api/room/createRoom').responses['409']?.description).toContain(
      'This room name is already taken',
    );
    expect(operation('POST', '/api/room/deleteRoom').responses['403']?.description).toContain(
      'This is not available while an administrator is signed in as this user',
    );
  });

  it('documents the POST room actions with their fields as query parameters too', () => {
    for (const action of ['deleteRoom', 'startRoom', 'stopRoom', 'restartRoom']) {
      const described = operation('POST', `/api/room/${action}`);
      const query = (described.parameters ?? []).filter((parameter) => parameter.in === 'query');
      expect(query.map((parameter) => parameter.name).sort(), action).toEqual(['id', 'name']);
      // The fields come in the query or in the body: neither is required alone.
      expect(described.requestBody?.required, action).toBe(false);
    }
  });
});

describe('the REST layer answers as documented', () => {
  it('answers a wrong method with 405 in the envelope on every documented path, naming the one it takes', async () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      const takes = Object.keys(methods).map((method) => method.toUpperCase());
      const wrong = takes.includes('GET') ? 'POST' : 'GET';
      const reply = await server.app.inject({ method: wrong, url: path });
      expect(reply.statusCode, `${wrong} ${path}`).toBe(405);
      expect(reply.json()).toEqual({
        msg: 'error',
        data: `This call does not take the ${wrong} method; use ${takes.join(', ')}${takes.includes('GET') ? ', HEAD' : ''}`,
      });
      expect(reply.headers.allow, path).toContain(takes[0]);
      expect(Object.keys(methods[takes[0]!.toLowerCase()]!.responses), path).toContain('405');
    }
    // PUT and DELETE as well, and a path that is not documented stays a 404.
    expect((await server.app.inject({ method: 'DELETE', url: '/api/user/login' })).statusCode).toBe(405);
    expect((await server.app.inject({ method: 'PUT', url: '/api/room/getRoomList' })).statusCode).toBe(405);
    expect((await server.app.inject({ method: 'GET', url: '/api/user/noSuchCall' })).statusCode).toBe(404);
  });

  it('answers representative refusals with a status their operation documents', async () => {
    const owner = await createOwner(server.app);
    const auth = { authorization: owner.token };
    const { ip } = uniqueCaller();

    // 401: no token.
    expectDocumented('GET', '/api/user/userinfo', await server.app.inject('/api/user/userinfo'));

    // A room created, then acted on by its name in the query string, with no body: 200.
    const name = uniqueRoomName('openapi');
    const created = await rest(server.app, 'POST', '/api/room/createRoom', {
      token: owner.token,
      body: { name, region: 'local', image: 'chromium-blank' },
    });
    expect(created.msg, JSON.stringify(created.data)).toBe('success');
    const stopped = await server.app.inject({
      method: 'POST',
      url: `/api/room/stopRoom?name=${name}`,
      headers: auth,
    });
    expect(stopped.json()).toMatchObject({ msg: 'success', data: { name, state: 'stopped' } });
    expectDocumented('POST', '/api/room/stopRoom', stopped);

    // 404: a room that is not there, by id in the query string.
    const missing = await server.app.inject({
      method: 'POST',
      url: `/api/room/startRoom?id=${crypto.randomUUID()}`,
      headers: auth,
    });
    expect([missing.statusCode, missing.json().data]).toEqual([404, 'The room does not exist']);
    expectDocumented('POST', '/api/room/startRoom', missing);

    // 409: the name taken.
    const taken = await server.app.inject({
      method: 'POST',
      url: '/api/room/createRoom',
      headers: auth,
      payload: { name, region: 'local', image: 'chromium-blank' },
    });
    expect(taken.statusCode).toBe(409);
    expectDocumented('POST', '/api/room/createRoom', taken);

    // 402: a paid plan with an empty balance.
    const pro = await server.app.orm.em.fork().findOneOrFail(Plan, { code: 'pro' });
    const unpaid = await server.app.inject({ url: `/api/pay/payPlan?id=${pro.id}`, headers: auth });
    expect(unpaid.statusCode).toBe(402);
    expectDocumented('GET', '/api/pay/payPlan', unpaid);

    // 403: deleting a room is the owner's own to do, not an administrator's signed in as them.
    const admin = await createAdmin(server.app);
    const asOwner = await impersonate(server.app, admin.token, owner.userId);
    const refused = await server.app.inject({
      method: 'POST',
      url: `/api/room/deleteRoom?name=${name}`,
      headers: { authorization: asOwner },
    });
    expect(refused.statusCode).toBe(403);
    expectDocumented('POST', '/api/room/deleteRoom', refused);

    // 404: an admin path for anyone else.
    const hidden = await server.app.inject({ url: '/api/admin/users/list', headers: auth });
    expect(hidden.statusCode).toBe(404);
    expectDocumented('GET', '/api/admin/users/list', hidden);

    // 400: the change-password captcha missing.
    const unverified = await server.app.inject({
      method: 'POST',
      url: '/api/user/updatePassword',
      headers: auth,
      remoteAddress: ip,
      payload: { oldPassword: 'whatever', newPassword: 'another-secret' },
    });
    expect([unverified.statusCode, unverified.json().data]).toEqual([
      400,
      'Verification data is invalid, please verify again',
    ]);
    expectDocumented('POST', '/api/user/updatePassword', unverified);

    // 413 and 415: a body too large, a body that is not JSON.
    const large = await server.app.inject({
      method: 'POST',
      url: '/api/room/createRoom',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ remark: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expect(large.statusCode).toBe(413);
    expectDocumented('POST', '/api/room/createRoom', large);
    const xml = await server.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login email="a@b.c"/>',
    });
    expect(xml.statusCode).toBe(415);
    expectDocumented('POST', '/api/user/login', xml);
  });
});
