// The agent's side of Agones against a local HTTP server answering as the SDK server's REST gateway does
// (POST /ready, /health, /allocate, /shutdown with a JSON body, PUT /metadata/label, the beta Counters API;
// `{}` on success).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AgonesSdk, startAgonesLifecycle } from './agones-sdk';
import { keepRoomSlots } from './room-slots';

interface TSeen {
  method?: string;
  url?: string;
  contentType?: string;
  body: string;
}

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/**
 * An SDK server that answers `status` (200 by default) to every call, and keeps what it was sent; GET /gameserver
 * answers a GameServer in `state`.
 */
async function sdkServer(
  status: (seen: TSeen[]) => number = () => 200,
  state = 'Ready',
): Promise<{ port: number; seen: TSeen[] }> {
  const seen: TSeen[] = [];
  server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    seen.push({
      method: request.method,
      url: request.url,
      contentType: request.headers['content-type'],
      body,
    });
    const code = status(seen);
    response.writeHead(code, { 'content-type': 'application/json' });
    const answer = request.url === '/gameserver' ? JSON.stringify({ status: { state } }) : '{}';
    response.end(code === 200 ? answer : JSON.stringify({ code: 14, message: 'unavailable' }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server!.address() as AddressInfo).port, seen };
}

const quietLog = { info: () => {}, warn: () => {} };

describe('AgonesSdk', () => {
  it('calls the SDK server’s REST endpoints', async () => {
    const sidecar = await sdkServer();
    const sdk = new AgonesSdk({ port: sidecar.port });
    await sdk.ready();
    await sdk.health();
    await sdk.allocate();
    await sdk.setLabel('region', 'eu-west');
    await sdk.shutdown();

    expect(sidecar.seen.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'POST', url: '/ready', body: '{}' },
      { method: 'POST', url: '/health', body: '{}' },
      { method: 'POST', url: '/allocate', body: '{}' },
      { method: 'PUT', url: '/metadata/label', body: '{"key":"region","value":"eu-west"}' },
      { method: 'POST', url: '/shutdown', body: '{}' },
    ]);
    expect(sidecar.seen.every((request) => request.contentType === 'application/json')).toBe(true);
  });

  it('reports an error status with the code', async () => {
    const sidecar = await sdkServer(() => 503);
    const failed = await new AgonesSdk({ port: sidecar.port }).ready().catch((error: unknown) => error);
    expect(failed).toMatchObject({ name: 'AgonesSdkError', status: 503 });
  });
});

describe('startAgonesLifecycle', () => {
  it('pings health on an interval, marks Ready (trying until the sidecar answers) and shuts down on close', async () => {
    // The sidecar refuses the first Ready, as one still starting would.
    const sidecar = await sdkServer((seen) =>
      seen.filter((request) => request.url === '/ready').length === 1 && seen.at(-1)?.url === '/ready'
        ? 503
        : 200,
    );
    const lifecycle = startAgonesLifecycle({
      sdkPort: sidecar.port,
      log: quietLog,
      healthIntervalMs: 20,
      retryDelayMs: 10,
    });
    await lifecycle.ready();
    await expect
      .poll(() => sidecar.seen.filter((request) => request.url === '/health').length)
      .toBeGreaterThanOrEqual(3);
    await lifecycle.close();

    const urls = sidecar.seen.map((request) => request.url);
    expect(urls.filter((url) => url === '/ready')).toHaveLength(2);
    expect(urls.at(-1)).toBe('/shutdown');
    // No health ping after the shutdown.
    const pings = urls.filter((url) => url === '/health').length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(sidecar.seen.filter((request) => request.url === '/health')).toHaveLength(pings);
  });

  it('gives up on Ready after its timeout when the sidecar never answers', async () => {
    const sidecar = await sdkServer(() => 503);
    const lifecycle = startAgonesLifecycle({
      sdkPort: sidecar.port,
      log: quietLog,
      retryDelayMs: 10,
      readyTimeoutMs: 100,
    });
    await expect(lifecycle.ready()).rejects.toMatchObject({ name: 'AgonesSdkError', status: 503 });
    await lifecycle.close();
    expect(sidecar.seen.at(-1)?.url).toBe('/shutdown');
  });

  it('keeps the rooms Counter: its capacity from the agent, and the count following the rooms', async () => {
    let count = 0;
    let capacity = 1;
    let rooms = 0;
    const seen: TSeen[] = [];
    server = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      seen.push({ method: request.method, url: request.url, body });
      if (request.method === 'PATCH') {
        const update = JSON.parse(body) as { countDiff?: string; capacity?: string };
        if (update.capacity !== undefined) capacity = Number(update.capacity);
        if (update.countDiff !== undefined) count += Number(update.countDiff);
      }
      const answer =
        request.url === '/gameserver'
          ? { status: { state: 'Allocated' } }
          : request.url === '/v1beta1/counters/rooms'
            ? { name: 'rooms', count: String(count), capacity: String(capacity) }
            : {};
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const lifecycle = startAgonesLifecycle({
      sdkPort: (server!.address() as AddressInfo).port,
      log: quietLog,
      healthIntervalMs: 1000,
    });
    const stop = keepRoomSlots({ lifecycle, capacity: 8, rooms: () => rooms, log: quietLog, checkMs: 20 });
    try {
      await expect.poll(() => capacity).toBe(8);
      // An allocation promises a room; it arrives; a room placed without an allocation arrives; both end.
      count += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(count).toBe(1);
      rooms = 2;
      await expect.poll(() => count).toBe(2);
      rooms = 0;
      await expect.poll(() => count).toBe(0);
      expect(seen.filter((request) => request.method === 'PATCH').map((request) => request.body)).toEqual([
        '{"capacity":"8"}',
        '{"countDiff":"1"}',
        '{"countDiff":"-2"}',
      ]);
    } finally {
      stop();
      await lifecycle.close();
    }
  });
});
