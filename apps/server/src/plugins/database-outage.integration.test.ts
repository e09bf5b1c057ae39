// PostgreSQL out of reach for 10 s (every connection to it cut, through a TCP proxy between the server and the
// database): each request that needs it answers 503 with a sentence within seconds, REST and tRPC alike; a write refused during
// the outage did nothing; once the database answers again the same server serves again, no restart.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

/** Forwards to PostgreSQL until cut; while cut, every connection (open or new) is dropped at once. */
class CuttableProxy {
  private readonly sockets = new Set<Socket>();
  private cut = false;
  readonly server: Server;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => {
      if (this.cut) {
        client.destroy();
        return;
      }
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as { port: number }).port;
  }

  down(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.destroy();
  }

  up(): void {
    this.cut = false;
  }
}

let database: TestDatabase;
let proxy: CuttableProxy;
let server: TTestServer;
let owner: TTestOwner;

beforeAll(async () => {
  database = await createTestDatabase();
  const url = new URL(database.url);
  proxy = new CuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.port = String(await proxy.listen());
  url.hostname = '127.0.0.1';
  server = await startTestServer({ listen: false, env: { DATABASE_URL: url.toString() } });
  owner = await createOwner(server.app);
}, 60_000);

afterAll(async () => {
  proxy?.up();
  await server?.close();
  proxy?.server.close();
  await database?.drop();
});

/** The room list reads the database on every call (the profile may come from the session and balance caches). */
async function roomListOverTrpc(): Promise<{ status: number; message: unknown }> {
  const response = await server.app.inject({
    method: 'GET',
    url: '/trpc/room.getRoomList',
    headers: { authorization: owner.token },
  });
  const body = response.json() as { error?: { json?: { message?: unknown } } };
  return { status: response.statusCode, message: body.error?.json?.message };
}

describe('PostgreSQL out of reach for 10 s', () => {
  it('answers 503 with a sentence, loses nothing, and serves again without a restart', async () => {
    expect((await rest(server.app, 'GET', '/api/user/userinfo', { token: owner.token })).status).toBe(200);
    const name = uniqueRoomName('outage');
    const create = () =>
      rest(server.app, 'POST', '/api/room/createRoom', {
        token: owner.token,
        body: { name, region: 'local', image: 'chromium-url', startUrl: 'http://127.0.0.1:9/' },
      });

    proxy.down();
    const outageEnds = Date.now() + 10_000;
    const slowest: number[] = [];
    let answered = 0;
    while (Date.now() < outageEnds) {
      const started = performance.now();
      const [read, trpc, write] = await Promise.all([
        rest(server.app, 'GET', '/api/room/getRoomList', { token: owner.token }),
        roomListOverTrpc(),
        create(),
      ]);
      slowest.push(performance.now() - started);
      for (const answer of [read, { status: trpc.status, data: trpc.message }, write]) {
        expect(answer.status).toBe(503);
        expect(answer.data).toBe('The service is briefly unavailable; please try again in a moment');
      }
      answered += 3;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Refused in seconds, not held until a socket times out.
    expect(Math.max(...slowest)).toBeLessThan(5000);

    proxy.up();
    await expect
      .poll(
        async () => (await rest(server.app, 'GET', '/api/room/getRoomList', { token: owner.token })).status,
        {
          timeout: 10_000,
          interval: 250,
        },
      )
      .toBe(200);
    expect(await create()).toMatchObject({ status: 200, msg: 'success' });
    // The writes refused during the outage did nothing: one room by that name, the one made after it.
    const rooms = await rest<{ name: string }[]>(server.app, 'GET', '/api/room/getRoomList', {
      token: owner.token,
    });
    expect(rooms.data.filter((room) => room.name === name)).toHaveLength(1);
    console.log(
      `[outage] ${answered} requests in 10 s answered 503, the slowest batch in ${Math.round(Math.max(...slowest))} ms`,
    );
  }, 60_000);
});
