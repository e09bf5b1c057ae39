// The AgonesRuntime against a local HTTP server answering as the Kubernetes API server does for
// GameServerAllocations (POST /apis/allocation.agones.dev/v1/namespaces/{ns}/gameserverallocations: 201 with the
// object and its status; Agones' states Allocated, UnAllocated, Contention; Status objects for refusals).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { AppError } from '@rooms/api';
import { afterEach, describe, expect, it } from 'vitest';
import { AgonesRuntime } from './agones-runtime';

interface TSeen {
  method?: string;
  url?: string;
  authorization?: string;
  contentType?: string;
  body: Record<string, unknown>;
}

/** `silent`: the request is read and never answered, as from an API server that hangs. */
type TAnswer = { status: number; body: object } | 'silent';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function readBody(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

/** Answers each request with the next answer; the requests are kept for the test to read. */
async function kubernetesApi(answers: TAnswer[]): Promise<{ url: string; seen: TSeen[] }> {
  const seen: TSeen[] = [];
  server = createServer(async (request, response) => {
    const text = await readBody(request);
    seen.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body: text ? JSON.parse(text) : {},
    });
    const answer = answers.shift() ?? { status: 500, body: { kind: 'Status', message: 'no more answers' } };
    if (answer === 'silent') return;
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

function runtimeOn(url: string, timeoutMs?: number): AgonesRuntime {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'test', server: url, skipTLSVerify: true }],
    users: [{ name: 'control-plane', token: 'service-account-token' }],
    contexts: [{ name: 'test', cluster: 'test', user: 'control-plane' }],
    currentContext: 'test',
  });
  return new AgonesRuntime({ kubeConfig, namespace: 'rooms', fleet: 'room-agents', timeoutMs });
}

/** What the API server answers to a create: the object as stored, with the status Agones filled in. */
function allocation(status: object): TAnswer {
  return {
    status: 201,
    body: {
      apiVersion: 'allocation.agones.dev/v1',
      kind: 'GameServerAllocation',
      metadata: { namespace: 'rooms', creationTimestamp: null },
      spec: {},
      status,
    },
  };
}

const ALLOCATED = {
  state: 'Allocated',
  gameServerName: 'room-agents-x7k2p-9qz4d',
  ports: [{ name: 'agent', port: 7412 }],
  address: '10.128.0.17',
  addresses: [
    { type: 'InternalIP', address: '10.128.0.17' },
    { type: 'PodIP', address: '10.4.2.9' },
  ],
  nodeName: 'gke-rooms-pool-1-abc',
  source: 'local',
};

describe('AgonesRuntime', () => {
  it('creates a GameServerAllocation for a room slot in the fleet and region, and returns the agent it got', async () => {
    const api = await kubernetesApi([allocation(ALLOCATED)]);
    const result = await runtimeOn(api.url).allocate({
      region: 'eu-west',
      annotations: { 'cloud-browser-rooms/epoch': '3' },
    });

    expect(result).toEqual({
      name: 'room-agents-x7k2p-9qz4d',
      address: '10.128.0.17',
      port: 7412,
      nodeName: 'gke-rooms-pool-1-abc',
      addresses: [
        { type: 'InternalIP', address: '10.128.0.17' },
        { type: 'PodIP', address: '10.4.2.9' },
      ],
    });
    expect(api.seen).toHaveLength(1);
    const [request] = api.seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/apis/allocation.agones.dev/v1/namespaces/rooms/gameserverallocations');
    expect(request?.authorization).toBe('Bearer service-account-token');
    expect(request?.contentType).toMatch(/^application\/json/);
    const fleetAndRegion = { 'agones.dev/fleet': 'room-agents', 'cloud-browser-rooms/region': 'eu-west' };
    const slotLeft = { rooms: { minAvailable: 1 } };
    expect(request?.body).toEqual({
      apiVersion: 'allocation.agones.dev/v1',
      kind: 'GameServerAllocation',
      spec: {
        selectors: [
          { matchLabels: fleetAndRegion, gameServerState: 'Allocated', counters: slotLeft },
          { matchLabels: fleetAndRegion, gameServerState: 'Ready', counters: slotLeft },
        ],
        scheduling: 'Packed',
        priorities: [{ type: 'Counter', key: 'rooms', order: 'Ascending' }],
        counters: { rooms: { action: 'Increment', amount: 1 } },
        metadata: { annotations: { 'cloud-browser-rooms/epoch': '3' } },
      },
    });
  });

  it('refuses with SERVER_FULL when no agent of the region has a room slot left', async () => {
    const api = await kubernetesApi([
      allocation({ state: 'UnAllocated', gameServerName: '', source: 'local' }),
    ]);
    const refused = await runtimeOn(api.url)
      .allocate({ region: 'ap-east' })
      .catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).appCode).toBe('SERVER_FULL');
    expect(((refused as AppError).cause as Error).message).toContain('region ap-east');
    expect(api.seen).toHaveLength(1);
  });

  it('tries again after Contention, as Agones asks', async () => {
    const contention = allocation({ state: 'Contention', gameServerName: '', source: 'local' });
    const api = await kubernetesApi([contention, contention, allocation(ALLOCATED)]);
    const result = await runtimeOn(api.url).allocate({ region: 'eu-west' });

    expect(result.name).toBe('room-agents-x7k2p-9qz4d');
    expect(api.seen).toHaveLength(3);
    expect(api.seen.every((request) => request.method === 'POST')).toBe(true);
  });

  it('says rooms are unavailable when the API server refuses (no RBAC permission)', async () => {
    const api = await kubernetesApi([
      {
        status: 403,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message:
            'gameserverallocations.allocation.agones.dev is forbidden: User "system:serviceaccount:rooms:default" cannot create resource "gameserverallocations"',
          reason: 'Forbidden',
          code: 403,
        },
      },
    ]);
    const refused = await runtimeOn(api.url)
      .allocate({ region: 'eu-west' })
      .catch((error: unknown) => error);

    expect((refused as AppError).appCode).toBe('ROOMS_UNAVAILABLE');
    expect(((refused as AppError).cause as Error).message).toContain('403');
  });

  it('refuses instead of waiting on an API server that does not answer', async () => {
    const api = await kubernetesApi(['silent']);
    const refused = await runtimeOn(api.url, 300)
      .allocate({ region: 'eu-west' })
      .catch((error: unknown) => error);

    expect((refused as AppError).appCode).toBe('ROOMS_UNAVAILABLE');
    expect(((refused as AppError).cause as Error).message).toContain('did not answer within 300 ms');
    expect(api.seen).toHaveLength(1);
  });
});
