// The server as its operator runs it (`npm start`'s `node dist/server.mjs`, a real process) through SIGTERM and
// a new start: the drain tells every participant the server is restarting and closes their sockets with the code
// that means "wait for the room", stops every room process, and exits 0; the next start runs the room again by
// itself and a participant sees its picture without anyone pressing Start.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOM_CLOSE_CODES, roomSocketPath } from '@rooms/api/room-protocol';
import { freePort, Room } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomClient } from '../testing/room-client';
import { killServerProcesses, startServerProcess, type TServerProcess } from '../testing/server-processes';
import { storedRoom, storedUser } from '../testing/stored-accounts';

let database: TestDatabase;
let page: Server;
let pageHost: string;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  page = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(
      `<!doctype html><title>moving</title><canvas id=c width=64 height=64></canvas><script>
        let n = 0; const c = document.getElementById('c').getContext('2d');
        (function f() { c.fillStyle = 'hsl(' + (n++ % 360) + ',80%,50%)'; c.fillRect(0, 0, 64, 64); requestAnimationFrame(f); })();
      </script>`,
    );
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  const address = page.address();
  if (!address || typeof address !== 'object') throw new Error('no page port');
  pageHost = `127.0.0.1:${address.port}`;
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-restart-'));
}, 60_000);

afterAll(async () => {
  killServerProcesses();
  await new Promise((resolve) => page?.close(resolve));
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The server process with this test's database; resolves once it serves. */
function startServer(port: number): Promise<TServerProcess> {
  return startServerProcess(
    'server',
    {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ROOMS_DATA_DIR: join(dataDir, 'rooms'),
      ROOM_EGRESS_ALLOW: pageHost,
      APP_SECRET: 'test-secret-that-is-long-enough-for-hmac-keys',
      BILLING_JOBS: 'off',
    },
    port,
  );
}

/** Processes whose command line names the room (its browser's profile directory carries the room id). */
async function roomProcesses(roomId: string): Promise<number> {
  let count = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(roomId)) count += 1;
  }
  return count;
}

async function ownerWithRoom(): Promise<{ token: string; roomId: string }> {
  const owner = await storedUser(database.orm, { prefix: 'restart' });
  const room = await storedRoom(database.orm, owner.id, { startUrl: `http://${pageHost}/` });
  return { token: owner.token, roomId: room.id };
}

async function joinRoom(port: number, roomId: string, token: string): Promise<RoomClient> {
  const client = await RoomClient.connect(
    `ws://127.0.0.1:${port}${roomSocketPath(roomId)}?token=${encodeURIComponent(token)}`,
  );
  client.send({ type: 'member/join', nickname: 'Olga' });
  await client.next('member/list');
  return client;
}

/** The server's own log goes with a failure: the room's side of a missing picture is only there. */
async function showingLog<T>(server: TServerProcess, waiting: Promise<T>): Promise<T> {
  try {
    return await waiting;
  } catch (error) {
    console.error(`the server logged:\n${server.log()}`);
    throw error;
  }
}

describe('a server restarted by its operator', () => {
  it('drains on SIGTERM, telling participants to wait, and runs the room again on its next start', async () => {
    const { token, roomId } = await ownerWithRoom();
    const port = await freePort();
    const first = await startServer(port);
    const started = await fetch(`http://127.0.0.1:${port}/api/room/startRoom?id=${roomId}`, {
      method: 'POST',
      headers: { authorization: token },
    });
    expect(((await started.json()) as { data: { state: string } }).data.state).toBe('running');
    const participant = await joinRoom(port, roomId, token);
    // Generous: with the whole suite sharing two cores, a cold room browser's first picture has taken over 20 s.
    await showingLog(
      first,
      participant.until(() => participant.frames.length > 3, 'the picture before the restart', 45_000),
    );
    expect(await roomProcesses(roomId)).toBeGreaterThan(0);

    first.child.kill('SIGTERM');
    expect(await participant.next('system/room-ended')).toMatchObject({ reason: 'server-restart', by: null });
    expect((await participant.closedWith()).code).toBe(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING);
    expect(await first.exited).toBe(0);
    expect(await roomProcesses(roomId)).toBe(0);
    // Stored as it ran: the next start resumes it.
    const stored = await database.orm.em.fork().findOneOrFail(Room, roomId);
    expect(stored.state).toBe('running');

    const startedAt = performance.now();
    const second = await startServer(port);
    let back: RoomClient | undefined;
    await expect
      .poll(
        async () => {
          back = await joinRoom(port, roomId, token).catch(() => undefined);
          return back !== undefined;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    const rejoined = back!;
    await showingLog(
      second,
      rejoined.until(() => rejoined.frames.length > 3, 'the picture after the restart', 45_000),
    );
    console.log(
      `[restart] picture again ${Math.round(performance.now() - startedAt)} ms after the new process started`,
    );
    rejoined.close();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 240_000);
});
