// The direct /trpc handler answers as tRPC's official Fastify adapter does: every call below goes both to the
// server and to the official adapter mounted with the same options over the same database, and the two answers
// must carry the same status, content type, Vary header and body (superjson and the error formatter included).
// Calls the web client never makes (batches, wrong methods, malformed input) go to the adapter itself.
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';
import { trpcOptionsFor } from './trpc';

let server: TTestServer;
let official: FastifyInstance;
let owner: TTestOwner;
let roomName: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  official = Fastify({ logger: false });
  await official.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: trpcOptionsFor(server.app) });
  await official.ready();
  owner = await createOwner(server.app);
  roomName = uniqueRoomName('trpc');
  const created = await rest(server.app, 'POST', '/api/room/createRoom', {
    token: owner.token,
    body: { name: roomName, region: 'local', image: 'chromium-url', startUrl: 'http://127.0.0.1:9/' },
  });
  expect(created.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await official?.close();
  await server?.close();
});

async function both(request: InjectOptions, by: 'direct' | 'adapter' = 'direct') {
  const [ours, theirs] = await Promise.all([server.app.inject(request), official.inject(request)]);
  const answer = (response: typeof ours) => ({
    status: response.statusCode,
    contentType: response.headers['content-type'],
    vary: response.headers.vary,
    body: response.body,
  });
  expect(answer(ours)).toEqual(answer(theirs));
  // Which of the two answered on our side shows in the framing: the direct handler sends the body whole with its
  // length, the adapter streams its Response (chunked), so the calls meant for the direct path are known to take it.
  expect(ours.headers['content-length'] !== undefined ? 'direct' : 'adapter').toBe(by);
  return { status: ours.statusCode, body: ours.json() as Record<string, unknown> };
}

const query = (input: unknown) => encodeURIComponent(JSON.stringify(superjson.serialize(input)));

describe('tRPC over HTTP, the direct handler beside the official adapter', () => {
  it('answers a signed-in query with superjson-typed data (dates) the same', async () => {
    const answer = await both({
      method: 'GET',
      url: '/trpc/user.userinfo',
      headers: { authorization: owner.token },
    });
    expect(answer.status).toBe(200);
    const result = answer.body.result as { data: Parameters<typeof superjson.deserialize>[0] };
    const data = superjson.deserialize<{ createdAt: Date }>(result.data);
    expect(data.createdAt).toBeInstanceOf(Date);
  });

  it('answers a query with input in the URL, and the same query by POST (method override), the same', async () => {
    const byGet = await both({
      method: 'GET',
      url: `/trpc/room.getRoomInfo?input=${query({ name: roomName })}`,
      headers: { authorization: owner.token },
    });
    expect(byGet.status).toBe(200);
    const byPost = await both({
      method: 'POST',
      url: '/trpc/room.getRoomInfo',
      headers: { authorization: owner.token, 'content-type': 'application/json' },
      payload: JSON.stringify(superjson.serialize({ name: roomName })),
    });
    expect(byPost).toEqual(byGet);
    await both({ method: 'GET', url: '/trpc/room.getRoomList', headers: { authorization: owner.token } });
  });

  it('refuses a call without a session the same', async () => {
    const answer = await both({ method: 'GET', url: '/trpc/user.userinfo' });
    expect(answer.status).toBe(401);
  });

  it('refuses invalid input to a mutation and a query the same', async () => {
    const mutation = await both({
      method: 'POST',
      url: '/trpc/room.createRoom',
      headers: { authorization: owner.token, 'content-type': 'application/json' },
      payload: JSON.stringify(superjson.serialize({ name: 5, region: 'local' })),
    });
    expect(mutation.status).toBe(400);
    const missing = await both({
      method: 'GET',
      url: `/trpc/room.getRoomInfo?input=${query({ name: 'no-such-room' })}`,
      headers: { authorization: owner.token },
    });
    expect(missing.status).toBe(404);
    const controlCharacters = await both({
      method: 'GET',
      url: `/trpc/room.getRoomInfo?input=${query({ name: 'a\u0000b' })}`,
      headers: { authorization: owner.token },
    });
    expect(controlCharacters.status).toBe(400);
  });

  it('answers an unknown procedure, a wrong method, malformed input and a batch the same', async () => {
    expect((await both({ method: 'GET', url: '/trpc/room.noSuchThing' }, 'adapter')).status).toBe(404);
    expect((await both({ method: 'GET', url: '/trpc/__proto__' }, 'adapter')).status).toBe(404);
    const mutationByGet = await both(
      {
        method: 'GET',
        url: '/trpc/room.deleteRoom',
        headers: { authorization: owner.token },
      },
      'adapter',
    );
    expect(mutationByGet.status).toBe(405);
    const malformed = await both(
      {
        method: 'GET',
        url: '/trpc/room.getRoomInfo?input=%7Bnot-json',
        headers: { authorization: owner.token },
      },
      'adapter',
    );
    expect(malformed.status).toBe(400);
    const emptyBody = await both(
      {
        method: 'POST',
        url: '/trpc/room.getRoomInfo',
        headers: { authorization: owner.token, 'content-type': 'application/json' },
        payload: '',
      },
      'adapter',
    );
    expect(emptyBody.status).toBe(400);
    const batch = await both(
      {
        method: 'GET',
        url: `/trpc/user.userinfo,room.getRoomList?batch=1&input=${encodeURIComponent('{}')}`,
        headers: { authorization: owner.token },
      },
      'adapter',
    );
    expect(batch.status).toBe(200);
  });
});
