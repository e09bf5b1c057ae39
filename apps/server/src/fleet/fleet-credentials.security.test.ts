// An agent runs strangers' pages: if one is taken over, what it holds must not let it act as the control plane or a
// gateway towards the rest of the fleet. A fleet as production configures it (a control plane with the signing key
// and both join tokens; two agents with their join token and the verify key; a gateway with its join token), each
// a real server on loopback on one database, a room running on one agent. The other agent, with the credential it
// enrolled for and signing as it would, cannot order the room's agent, watch or drive its room, heartbeat as it, or
// use the control plane's routes that are not an agent's; nor can a gateway order agents, nor what one process was
// sent be replayed to another, nor an expired or foreign credential pass.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { freePort } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetProcess } from '../testing/fleet-calls';
import { RoomClient } from '../testing/room-client';
import { storedRoom, storedUser } from '../testing/stored-accounts';
import { startTestServer, type TTestServer } from '../testing/test-server';
import { encodeForwardedIdentity } from './agent-routes';

const signing = generateKeyPairSync('ed25519');
const FLEET_SIGNING_KEY = signing.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const FLEET_VERIFY_KEY = signing.publicKey.export({ format: 'pem', type: 'spki' }).toString();
const FLEET_AGENT_JOIN_TOKEN = randomBytes(32).toString('base64url');
const FLEET_GATEWAY_JOIN_TOKEN = randomBytes(32).toString('base64url');

let control: TTestServer;
let agents: TTestServer[] = [];
let gateway: TTestServer;
/** The agent the room runs on, and the other one: the compromised agent. */
let victim: { server: TTestServer; address: string; agentId: string };
let attacker: { server: TTestServer; address: string; agentId: string };
let room: { id: string; ownerId: string };

/** What a process can sign as itself: a call carrying its own credential, as its own calls do. */
const signedBy =
  (server: TTestServer) =>
  (audience: string, method: string, path: string): Promise<string> =>
    server.app.fleetAuth.caller!.authorization(audience, method, path);

async function startAgent(): Promise<TTestServer> {
  const port = await freePort();
  return startTestServer({
    env: {
      ROOM_ROLE: 'agent',
      PORT: String(port),
      AGENT_ADDRESS: `127.0.0.1:${port}`,
      DATABASE_URL: control.config.databaseUrl!,
      CONTROL_URL: control.url,
      FLEET_VERIFY_KEY,
      FLEET_AGENT_JOIN_TOKEN,
      ROOM_CAPACITY: '1',
      ROOM_MEDIA: 'screencast',
    },
  });
}

const sql = <T>(text: string, values: unknown[] = []) => control.app.orm.em.fork().execute<T[]>(text, values);

beforeAll(async () => {
  control = await startTestServer({
    env: { ROOM_ROLE: 'control', FLEET_SIGNING_KEY, FLEET_AGENT_JOIN_TOKEN, FLEET_GATEWAY_JOIN_TOKEN },
  });
  agents = await Promise.all([startAgent(), startAgent()]);
  gateway = await startTestServer({
    env: {
      ROOM_ROLE: 'gateway',
      DATABASE_URL: control.config.databaseUrl!,
      CONTROL_URL: control.url,
      FLEET_GATEWAY_JOIN_TOKEN,
    },
  });
  const owner = await storedUser(control.app.orm, { prefix: 'fleetcred' });
  const stored = await storedRoom(control.app.orm, owner.id, { startUrl: 'about:blank' });
  room = { id: stored.id, ownerId: owner.id };
  // Started as an owner starts it: the control plane places it and orders it, signed, on one of the agents.
  const started = await fetch(`${control.url}/api/room/startRoom?id=${room.id}`, {
    method: 'POST',
    headers: { authorization: owner.token },
  });
  expect(((await started.json()) as { data: { state: string } }).data.state).toBe('running');
  const [run] = await sql<{ agent_id: string; address: string }>(
    `select r.agent_id, a.address from room_runs r join room_agents a on a.id = r.agent_id
     where r.room_id = ? and r.state = 'running'`,
    [room.id],
  );
  const of = async (server: TTestServer) => {
    const address = server.config.agent.address!;
    const [agent] = await sql<{ id: string }>(
      `select id from room_agents where address = ? and state = 'active'`,
      [address],
    );
    return { server, address, agentId: agent!.id };
  };
  const [first, second] = await Promise.all(agents.map(of));
  [victim, attacker] = first!.address === run!.address ? [first!, second!] : [second!, first!];
}, 120_000);

afterAll(async () => {
  // The control plane first: closed after its agents, its server waits for two connections that carried no
  // request to time out (a minute), as it did before fleet credentials.
  await control?.close();
  await Promise.all([gateway?.close(), ...agents.map((agent) => agent.close())]);
});

const order = (roomId = randomUUID()) => ({
  runId: randomUUID(),
  epoch: 1,
  spec: {
    roomId,
    width: 640,
    height: 360,
    maxFrameRate: 10,
    videoBitrateKbps: 1000,
    startUrl: 'about:blank',
    keepData: false,
    autoCloseMs: null,
  },
});

/** A POST to the agent at `address` (or the control plane) with `authorization`: its status. */
async function post(url: string, authorization: string, body: unknown = {}): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.body?.cancel();
  return response.status;
}

/** A WebSocket upgrade at the agent: the refusal's HTTP status, or 101 when it was let in. */
async function upgrade(address: string, path: string, headers: Record<string, string>): Promise<number> {
  return RoomClient.connect(`ws://${address}${path}`, headers).then(
    (client) => {
      client.close();
      return 101;
    },
    (error: { status?: number }) => error.status ?? 0,
  );
}

const stopPath = () => `/fleet/rooms/${room.id}/stop`;
const feedPath = () => `/fleet/rooms/${room.id}/feed`;
const socketPath = () => `/fleet/rooms/${room.id}/socket`;

describe('a compromised agent, with its own credential', () => {
  it('cannot order another agent to start a room or stop its room', async () => {
    const as = signedBy(attacker.server);
    const url = `http://${victim.address}`;
    expect(await post(`${url}/fleet/runs`, await as(victim.address, 'POST', '/fleet/runs'), order())).toBe(
      403,
    );
    expect(await post(`${url}${stopPath()}`, await as(victim.address, 'POST', stopPath()))).toBe(403);
    expect(victim.server.app.roomEngine.state(room.id)).toBe('running');
    expect(victim.server.app.roomEngine.capacity().running).toBe(1);
  });

  it('cannot open a feed of another agent’s room, nor forward a participant into it', async () => {
    const as = signedBy(attacker.server);
    expect(
      await upgrade(victim.address, feedPath(), {
        authorization: await as(victim.address, 'GET', feedPath()),
      }),
    ).toBe(403);
    // As the room's owner, whom the agent would believe: it could drive the room.
    const identity = encodeForwardedIdentity({
      userId: room.ownerId,
      guestId: null,
      sessionId: null,
      ip: '127.0.0.1',
      via: 'token',
    });
    expect(
      await upgrade(victim.address, socketPath(), {
        authorization: await as(victim.address, 'GET', socketPath()),
        'x-room-identity': identity,
      }),
    ).toBe(403);
    expect(victim.server.app.roomRelay.memberCount(room.id)).toBe(0);
  });

  it('heartbeats as itself only', async () => {
    const as = signedBy(attacker.server);
    const beat = async (agentId: string) =>
      post(`${control.url}/fleet/heartbeats`, await as('control', 'POST', '/fleet/heartbeats'), {
        beats: [{ agentId, held: [] }],
      });
    expect(await beat(attacker.agentId)).toBe(200);
    // Held to no runs, the room's agent would stop its room at its next heartbeat.
    expect(await beat(victim.agentId)).toBe(403);
  });

  it('cannot use the control plane’s routes that are not an agent’s, nor its own agent’s order routes', async () => {
    const as = signedBy(attacker.server);
    const reportPath = `/fleet/agents/${victim.agentId}/unreachable`;
    expect(await post(`${control.url}${reportPath}`, await as('control', 'POST', reportPath))).toBe(403);
    // Its join token enrols an agent, never a gateway; its credential keeps its own agent ids, never another's.
    const key = randomBytes(32).toString('base64url');
    expect(
      await post(`${control.url}/fleet/enrol`, `Bearer ${FLEET_AGENT_JOIN_TOKEN}`, {
        role: 'gateway',
        key,
        name: 'a gateway, it says',
      }),
    ).toBe(401);
    const keepOther = await fetch(`${control.url}/fleet/enrol`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${FLEET_AGENT_JOIN_TOKEN}`,
        'x-fleet-credential': await as('control', 'POST', '/fleet/enrol'),
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        role: 'agent',
        key,
        name: 'the other agent, it says',
        agent: { address: victim.address, register: [], keep: [victim.agentId] },
      }),
    });
    expect(keepOther.status).toBe(403);
    // Orders come from the control plane only, to this agent too.
    const own = `http://${attacker.address}`;
    expect(await post(`${own}/fleet/runs`, await as(attacker.address, 'POST', '/fleet/runs'), order())).toBe(
      403,
    );
  });
});

describe('a gateway’s credential', () => {
  it('takes a room’s feed, but orders no agent', async () => {
    const as = signedBy(gateway);
    expect(
      await upgrade(victim.address, feedPath(), {
        authorization: await as(victim.address, 'GET', feedPath()),
      }),
    ).toBe(101);
    const url = `http://${victim.address}`;
    expect(await post(`${url}/fleet/runs`, await as(victim.address, 'POST', '/fleet/runs'), order())).toBe(
      403,
    );
    expect(await post(`${url}${stopPath()}`, await as(victim.address, 'POST', stopPath()))).toBe(403);
    expect(victim.server.app.roomEngine.state(room.id)).toBe('running');
  });
});

describe('a signed call', () => {
  it('is good for the process it was signed for only: an agent cannot replay what it was sent', async () => {
    // What the attacker would receive: the control plane's order and a gateway's feed, signed for it.
    const order_ = await signedBy(control)(attacker.address, 'POST', stopPath());
    expect(await post(`http://${victim.address}${stopPath()}`, order_)).toBe(401);
    const feed = await signedBy(gateway)(attacker.address, 'GET', feedPath());
    expect(await upgrade(victim.address, feedPath(), { authorization: feed })).toBe(401);
    // Nor for another request to the same process.
    const forRuns = await signedBy(control)(victim.address, 'POST', '/fleet/runs');
    expect(await post(`http://${victim.address}${stopPath()}`, forRuns)).toBe(401);
    expect(victim.server.app.roomEngine.state(room.id)).toBe('running');
  });

  it('is refused with an expired credential, another install’s, or a signature too old', async () => {
    const url = `http://${victim.address}${stopPath()}`;
    const expired = fleetProcess(signing.privateKey, 'control', {}, { issuedAt: Date.now() - 2 * 3_600_000 });
    expect(await post(url, expired.call(victim.address, 'POST', stopPath()))).toBe(401);
    const foreign = fleetProcess(generateKeyPairSync('ed25519').privateKey, 'control');
    expect(await post(url, foreign.call(victim.address, 'POST', stopPath()))).toBe(401);
    const current = fleetProcess(signing.privateKey, 'control');
    expect(await post(url, current.call(victim.address, 'POST', stopPath(), Date.now() - 5 * 60_000))).toBe(
      401,
    );
    expect(victim.server.app.roomEngine.state(room.id)).toBe('running');
    // The same, signed now with the install's key: the control plane's order goes through.
    expect(await post(url, current.call(victim.address, 'POST', stopPath()))).toBe(200);
    expect(victim.server.app.roomEngine.state(room.id)).toBe('stopped');
  });
});

describe('the keys each role holds', () => {
  it('are the verify key and its own join token only, on agents and gateways', () => {
    for (const agent of agents) {
      expect(agent.config.fleet.signingKey).toBeUndefined();
      expect(agent.config.fleet.joinTokens).toEqual({ agent: FLEET_AGENT_JOIN_TOKEN, gateway: undefined });
    }
    expect(gateway.config.fleet.signingKey).toBeUndefined();
    expect(gateway.config.fleet.joinTokens).toEqual({ agent: undefined, gateway: FLEET_GATEWAY_JOIN_TOKEN });
  });
});
