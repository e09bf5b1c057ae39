// What each role answers to a stranger. An agent's routes start rooms and take forwarded participants, so they
// answer only the install's own processes (fleet credentials, fleet-auth.ts): no credential, another install's, or
// a forged identity gets nothing. An agent and a gateway serve none of the control plane's API, and a gateway's room sockets check
// the participant as a single server does.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { ROOM_CLOSE_CODES, roomSocketPath } from '@rooms/api/room-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetProcess, tampered } from '../testing/fleet-calls';
import { RoomClient } from '../testing/room-client';
import { startTestServer, type TTestServer } from '../testing/test-server';
import { developmentSigningKey } from './fleet-keys';

let agent: TTestServer;
let gateway: TTestServer;
let control: TTestServer;

beforeAll(async () => {
  [agent, gateway, control] = await Promise.all([
    startTestServer({ env: { ROOM_ROLE: 'agent', AGENT_ADDRESS: '127.0.0.1:9', ROOM_CAPACITY: '1' } }),
    startTestServer({ env: { ROOM_ROLE: 'gateway' } }),
    startTestServer({ env: { ROOM_ROLE: 'control' } }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([agent?.close(), gateway?.close(), control?.close()]);
});

/** Another install's key: what it signs is nobody's here. */
const otherInstall = generateKeyPairSync('ed25519').privateKey;
/** This install's signing key, as its control plane holds it (test servers derive it from their APP_SECRET). */
const ownKey = () => developmentSigningKey(agent.config.appSecret);
const AGENT_ADDRESS = '127.0.0.1:9';

const order = () => ({
  runId: randomUUID(),
  epoch: 1,
  spec: {
    roomId: randomUUID(),
    width: 640,
    height: 360,
    maxFrameRate: 15,
    videoBitrateKbps: 1000,
    startUrl: 'about:blank',
    keepData: false,
    autoCloseMs: null,
  },
});

describe('a control plane', () => {
  it('takes heartbeats only from the install’s own processes, and says what is wrong with a malformed one', async () => {
    const beat = (authorization: string | undefined, payload: unknown) =>
      control.app.inject({
        method: 'POST',
        url: '/fleet/heartbeats',
        headers: authorization ? { authorization } : {},
        payload: payload as object,
      });
    const agentId = randomUUID();
    const unknown = { beats: [{ agentId, held: [] }] };
    const asAgent = (key: typeof otherInstall) =>
      fleetProcess(key, 'agent', { agents: [agentId] }).call('control', 'POST', '/fleet/heartbeats');
    for (const authorization of [undefined, asAgent(otherInstall)]) {
      const refused = await beat(authorization, unknown);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({
        message: 'Only the processes of this install may call the fleet’s routes',
      });
    }
    const own = asAgent(control.config.fleet.signingKey!);
    const malformed = await beat(own, { beats: [{ agentId: 'agent-1' }] });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/^beats\.0\.agentId: /);
    // An agent the fleet does not know is told so: it registers again.
    const answered = await beat(own, unknown);
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toEqual({ answers: [{ ok: false, reason: 'not-found' }] });
  });

  it('is where heartbeats go: an agent or a gateway takes none', async () => {
    for (const server of [agent, gateway]) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/fleet/heartbeats',
        headers: {
          authorization: fleetProcess(ownKey(), 'agent').call('control', 'POST', '/fleet/heartbeats'),
        },
        payload: { beats: [{ agentId: randomUUID() }] },
      });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('a room agent', () => {
  it('starts and stops rooms only for the install’s own processes', async () => {
    const control = fleetProcess(ownKey(), 'control');
    const other = fleetProcess(otherInstall, 'control');
    const stopPath = `/fleet/rooms/${randomUUID()}/stop`;
    const refusals = (path: string) => [
      undefined,
      other.call(AGENT_ADDRESS, 'POST', path),
      tampered(control.call(AGENT_ADDRESS, 'POST', path)),
      control.call(AGENT_ADDRESS, 'POST', path).slice(1),
    ];
    for (const [index, authorization] of refusals('/fleet/runs').entries()) {
      const start = await agent.app.inject({
        method: 'POST',
        url: '/fleet/runs',
        headers: authorization ? { authorization } : {},
        payload: order(),
      });
      expect(start.statusCode, `refusal ${index}`).toBe(401);
      expect(start.json()).toMatchObject({ message: 'Only the processes of this install may call an agent' });
    }
    for (const authorization of refusals(stopPath)) {
      const stop = await agent.app.inject({
        method: 'POST',
        url: stopPath,
        headers: authorization ? { authorization } : {},
        payload: {},
      });
      expect(stop.statusCode).toBe(401);
    }
    expect(agent.app.roomEngine.capacity().running).toBe(0);
    // The install's own call gets through to the checks of what it asks.
    const malformed = await agent.app.inject({
      method: 'POST',
      url: '/fleet/runs',
      headers: { authorization: control.call(AGENT_ADDRESS, 'POST', '/fleet/runs') },
      payload: { runId: 'not-a-run' },
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('gives a room’s feed only to a gateway of the install, and none for a room it does not run', async () => {
    const path = `/fleet/rooms/${randomUUID()}/feed`;
    const url = `${agent.url.replace(/^http/, 'ws')}${path}`;
    const refusal = async (headers: Record<string, string>) =>
      RoomClient.connect(url, headers).then(
        (client) => client.closedWith().then((closed) => closed.code),
        (error: { status?: number }) => error.status,
      );
    expect(await refusal({})).toBe(401);
    expect(
      await refusal({
        authorization: fleetProcess(otherInstall, 'gateway').call(AGENT_ADDRESS, 'GET', path),
      }),
    ).toBe(401);
    // The install's own gateway is let in, and told the room does not run here.
    expect(
      await refusal({ authorization: fleetProcess(ownKey(), 'gateway').call(AGENT_ADDRESS, 'GET', path) }),
    ).toBe(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING);
  });

  it('takes a forwarded participant only from a gateway of the install, with a well-formed identity', async () => {
    const path = `/fleet/rooms/${randomUUID()}/socket`;
    const identity = Buffer.from(
      JSON.stringify({
        userId: randomUUID(),
        guestId: null,
        sessionId: null,
        ip: '203.0.113.9',
        via: 'ticket',
      }),
    ).toString('base64url');
    const refusal = async (headers: Record<string, string>) =>
      RoomClient.connect(`${agent.url.replace(/^http/, 'ws')}${path}`, headers).then(
        (client) => {
          client.close();
          return 101;
        },
        (error: { status?: number }) => error.status,
      );
    expect(await refusal({ 'x-room-identity': identity })).toBe(401);
    expect(
      await refusal({
        authorization: fleetProcess(otherInstall, 'gateway').call(AGENT_ADDRESS, 'GET', path),
        'x-room-identity': identity,
      }),
    ).toBe(401);
    const own = { authorization: fleetProcess(ownKey(), 'gateway').call(AGENT_ADDRESS, 'GET', path) };
    expect(await refusal(own)).toBe(400);
    expect(await refusal({ ...own, 'x-room-identity': 'not-json' })).toBe(400);
    const forged = Buffer.from(JSON.stringify({ userId: 'owner', via: 'ticket' })).toString('base64url');
    expect(await refusal({ ...own, 'x-room-identity': forged })).toBe(400);
  });

  it('serves none of the control plane’s API, tickets or web app', async () => {
    for (const url of ['/api/user/userinfo', '/trpc/user.userinfo', '/api/openapi.json', '/', '/dashboard']) {
      expect((await agent.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    expect((await agent.app.inject({ method: 'POST', url: '/ws/ticket', payload: {} })).statusCode).toBe(404);
    expect((await agent.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('a room gateway', () => {
  it('serves no API, and lets no one into a room without a ticket or a session', async () => {
    for (const url of ['/api/user/userinfo', '/trpc/user.userinfo', '/fleet/runs', '/']) {
      expect((await gateway.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    const socket = `${gateway.url.replace(/^http/, 'ws')}${roomSocketPath(randomUUID())}`;
    const status = (url: string, headers: Record<string, string> = {}) =>
      RoomClient.connect(url, headers).then(
        (client) => {
          client.close();
          return 101;
        },
        (error: { status?: number }) => error.status,
      );
    expect(await status(socket)).toBe(401);
    expect(await status(`${socket}?ticket=forged.ticket`, { origin: gateway.config.publicUrl })).toBe(401);
    expect(await status(`${socket}?token=not-a-session`)).toBe(401);
    expect(await status(`${socket}?ticket=forged.ticket`, { origin: 'https://elsewhere.example' })).toBe(403);
  });
});
