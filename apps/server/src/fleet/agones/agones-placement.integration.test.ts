// Rooms on Agones, both ends, against local servers answering as Agones does: the control plane's start takes the
// GameServer a GameServerAllocation hands out (the Kubernetes API) and places the room on the agent registered
// under that name, never on another agent with a free slot; an agent running as a GameServer tells the SDK sidecar
// it is Ready once it serves, pings its health, keeps its rooms Counter at the rooms it runs, and asks to be shut
// down when it stops.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { AppError, fleet } from '@rooms/api';
import { LOCAL_REGION_CODE } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedRoom, storedUser } from '../../testing/stored-accounts';
import { startTestServer } from '../../testing/test-server';
import { agonesAllocator } from './agones-placement';
import { AgonesRuntime } from './agones-runtime';

let database: TestDatabase;
const servers: Server[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await database?.drop();
});

interface TSeen {
  method?: string;
  url?: string;
  body: Record<string, unknown>;
}

/** A loopback server answering every request with `answer(seen)`, keeping what it was sent. */
async function answering(answer: (seen: TSeen) => { status: number; body: object }) {
  const seen: TSeen[] = [];
  const server = createServer(async (request: IncomingMessage, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const entry = { method: request.method, url: request.url, body: text ? JSON.parse(text) : {} };
    seen.push(entry);
    const { status, body } = answer(entry);
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, seen };
}

/** The Kubernetes API as Agones answers a GameServerAllocation: allocated to the named GameServer. */
async function kubernetesAllocating(
  gameServerName: string,
): Promise<{ runtime: AgonesRuntime; seen: TSeen[] }> {
  const api = await answering(() => ({
    status: 201,
    body: {
      apiVersion: 'allocation.agones.dev/v1',
      kind: 'GameServerAllocation',
      status: {
        state: 'Allocated',
        gameServerName,
        address: '10.0.0.7',
        nodeName: 'node-1',
        ports: [{ name: 'agent', port: 7001 }],
      },
    },
  }));
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'test', server: `http://127.0.0.1:${api.port}`, skipTLSVerify: true }],
    users: [{ name: 'control-plane', token: 'service-account-token' }],
    contexts: [{ name: 'test', cluster: 'test', user: 'control-plane' }],
    currentContext: 'test',
  });
  return {
    runtime: new AgonesRuntime({ kubeConfig, namespace: 'rooms-agents', fleet: 'room-agents' }),
    seen: api.seen,
  };
}

async function roomOfNewOwner(orm = database.orm): Promise<string> {
  const owner = await storedUser(orm, { prefix: 'gs' });
  const room = await storedRoom(orm, owner.id, {
    startUrl: 'about:blank',
    width: 640,
    height: 360,
    videoBitrateKbps: 1000,
    maxFrameRate: 15,
  });
  return room.id;
}

/** An agent of the local zone that reports `name` (as AGENT_NAME makes a real one do). */
async function agentNamed(name: string): Promise<string> {
  const em = database.orm.em.fork();
  const { agent } = await fleet.registerAgent(
    em,
    { regionCode: LOCAL_REGION_CODE, address: `${name}.test:3000`, capacity: 1, version: 'test' },
    new Date(),
  );
  await fleet.heartbeat(em, agent.id, new Date(), { agentName: name });
  return agent.id;
}

describe('the control plane under Agones', () => {
  it('places a start on the agent of the GameServer Agones allocated, selected by the room’s zone', async () => {
    const roomId = await roomOfNewOwner();
    // Registered first, so the fleet's own choice would be this one.
    await agentNamed(`gs-other-${randomUUID().slice(0, 6)}`);
    const allocatedName = `gs-${randomUUID().slice(0, 6)}`;
    const allocated = await agentNamed(allocatedName);
    const { runtime, seen } = await kubernetesAllocating(allocatedName);

    const among = await agonesAllocator(database.orm, runtime)(roomId);
    expect(among).toEqual([allocated]);
    const placement = await fleet.placeRun(database.orm.em.fork(), roomId, new Date(), among);
    expect(placement.run.agentId).toBe(allocated);

    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('/apis/allocation.agones.dev/v1/namespaces/rooms-agents/gameserverallocations');
    expect(JSON.stringify(seen[0]?.body)).toContain(`"cloud-browser-rooms/region":"${LOCAL_REGION_CODE}"`);
    expect(JSON.stringify(seen[0]?.body)).toContain('"agones.dev/fleet":"room-agents"');
  });

  it('refuses with a message when the allocated GameServer is not a registered agent', async () => {
    const roomId = await roomOfNewOwner();
    const { runtime } = await kubernetesAllocating('gs-never-registered');
    const refusal = await agonesAllocator(database.orm, runtime)(roomId).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).appCode).toBe('ROOMS_UNAVAILABLE');
  });
});

describe('an agent running as a GameServer', () => {
  it('is Ready once it serves, pings its health, counts its rooms in the rooms Counter, and shuts down when it stops', async () => {
    // The sidecar's Counter, moved by the agent's PATCHes as Agones' SDK server moves it.
    const counter = { count: 0, capacity: 0 };
    const sdk = await answering(({ method, url, body }) => {
      if (url !== '/v1beta1/counters/rooms') return { status: 200, body: {} };
      if (method === 'PATCH') {
        if (body.capacity !== undefined) counter.capacity = Number(body.capacity);
        if (body.countDiff !== undefined) counter.count += Number(body.countDiff);
      }
      return {
        status: 200,
        body: { name: 'rooms', count: String(counter.count), capacity: String(counter.capacity) },
      };
    });
    const name = `gs-agent-${randomUUID().slice(0, 6)}`;
    const server = await startTestServer({
      listen: false,
      env: {
        ROOM_ROLE: 'agent',
        AGENT_ADDRESS: '127.0.0.1:9',
        AGENT_NAME: name,
        AGONES_SDK_HTTP_PORT: String(sdk.port),
        ROOM_CAPACITY: '3',
        ROOM_MEDIA: 'screencast',
      },
    });
    let closed = false;
    try {
      const paths = () => sdk.seen.map((request) => request.url);
      await expect.poll(paths).toContain('/ready');
      await expect.poll(paths).toContain('/health');
      await expect.poll(() => counter.capacity).toBe(3);
      const em = server.app.orm.em.fork();
      const [agent] = await em.execute<{ id: string }[]>(
        `select id from room_agents where report->>'agentName' = ? and state = 'active'`,
        [name],
      );
      expect(agent).toBeDefined();

      const roomId = await roomOfNewOwner(server.app.orm);
      const { run } = await fleet.placeRun(em, roomId, new Date(), [agent!.id]);
      const spec = {
        roomId,
        width: 640,
        height: 360,
        maxFrameRate: 15,
        videoBitrateKbps: 1000,
        startUrl: 'about:blank',
        keepData: false,
        autoCloseMs: null,
      };
      expect(await server.app.agentRuns.start({ runId: run.id, epoch: run.epoch, spec })).toBe('running');
      // Placed without an allocation here, so the agent counts the room itself.
      await expect.poll(() => counter.count, { timeout: 10_000 }).toBe(1);
      await server.app.agentRuns.stop(roomId);
      await expect.poll(() => counter.count, { timeout: 10_000 }).toBe(0);
      // An agent with many room slots outlives its rooms.
      expect(paths()).not.toContain('/shutdown');
      await server.close();
      closed = true;
      expect(paths()).toContain('/shutdown');
    } finally {
      if (!closed) await server.close();
    }
  }, 60_000);
});
