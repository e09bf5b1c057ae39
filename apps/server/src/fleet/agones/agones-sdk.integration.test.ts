// The agent's side of Agones against a local HTTP server answering as the SDK server's REST gateway does
// (POST /ready, /health, /allocate, /shutdown with a JSON body, PUT /metadata/label; `{}` on success).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AgonesSdk, shutDownUnusedAllocation, startAgonesLifecycle } from './agones-sdk';

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

  it('shuts down a GameServer Allocated for a room that never came, and only that one', async () => {
    const watch = (sidecar: { port: number }, hasRoom: () => boolean) =>
      shutDownUnusedAllocation({
        lifecycle: startAgonesLifecycle({ sdkPort: sidecar.port, log: quietLog, healthIntervalMs: 1000 }),
        hasRoom,
        log: quietLog,
        afterMs: 100,
        checkMs: 20,
      });
    const shutdowns = (sidecar: { seen: TSeen[] }) =>
      sidecar.seen.filter((request) => request.url === '/shutdown').length;

    // Allocated, no room: a start that went elsewhere. It held a slot of the Fleet for good.
    const unused = await sdkServer(() => 200, 'Allocated');
    const stopUnused = watch(unused, () => false);
    await expect.poll(() => shutdowns(unused), { timeout: 5_000 }).toBe(1);
    stopUnused();
    await new Promise((resolve) => server?.close(resolve));

    // Allocated with its room, or still Ready: they stay.
    for (const [state, hasRoom] of [
      ['Allocated', true],
      ['Ready', false],
    ] as const) {
      const sidecar = await sdkServer(() => 200, state);
      const stop = watch(sidecar, () => hasRoom);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(shutdowns(sidecar), `${state}, room: ${hasRoom}`).toBe(0);
      stop();
      await new Promise((resolve) => server?.close(resolve));
    }
    server = undefined;
  });
});
