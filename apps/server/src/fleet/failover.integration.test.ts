// The fleet as real processes on this machine: a control plane, three room agents and two gateways, each a
// `node dist/server.mjs` with its ROOM_ROLE, on one database. Rooms spread over the agents; an agent killed with
// everything it started (kill -9 of its process group: the machine lost) has its room marked lost within 15 s and
// started again on another agent, where its participant lands by reconnecting as the web app does; a gateway
// killed moves its participants to the other one; a control plane restarted interrupts no room. The lost room keeps
// its data: its profile is checkpointed to an S3-compatible server on loopback, and the page finds, on the new
// agent, what it had stored before the loss.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { fleet } from '@rooms/api';
import { ROOM_CLOSE_CODES, roomSocketPath } from '@rooms/api/room-protocol';
import { freePort } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unmountUnder } from '../rooms/profiles/testing/room-volume-files';
import { startTestS3, type TTestS3 } from '../rooms/profiles/testing/s3-server';
import { killServerProcesses, startServerProcess, type TServerProcess } from '../testing/server-processes';
import { storedRoom, storedUser } from '../testing/stored-accounts';
import { RoomClient } from '../ws/room-client';

const SECRET = 'failover-secret-that-is-long-enough-for-hmac';

let database: TestDatabase;
let page: Server;
let pageHost: string;
let dataDir: string;
let s3: TTestS3;
/** What the kept page reported on each load: the mark it found in its storage, and the one it stored. */
const visits: { found: string | null; stored: string | null }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  s3 = await startTestS3();
  page = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://page');
    if (url.pathname === '/visit') {
      visits.push({ found: url.searchParams.get('found'), stored: url.searchParams.get('stored') });
      response.writeHead(204).end();
      return;
    }
    if (url.pathname === '/kept') {
      // Remembers a mark in IndexedDB on the first load (a durable transaction: on disk when it completes, where a
      // checkpoint's copy finds it; localStorage reaches the disk only some seconds later); reports what it finds.
      response.writeHead(200, { 'content-type': 'text/html' }).end(
        `<!doctype html><title>kept</title><canvas id=c width=64 height=64></canvas><script>
          const open = indexedDB.open('kept', 1);
          open.onupgradeneeded = () => open.result.createObjectStore('marks');
          open.onsuccess = () => {
            const db = open.result;
            const read = db.transaction('marks').objectStore('marks').get('mark');
            read.onsuccess = () => {
              const found = read.result ?? null;
              const stored = found ?? 'mark-' + Date.now();
              const write = db.transaction('marks', 'readwrite', { durability: 'strict' });
              write.objectStore('marks').put(stored, 'mark');
              write.oncomplete = () =>
                fetch('/visit?found=' + encodeURIComponent(found ?? '') + '&stored=' + encodeURIComponent(stored));
            };
          };
          let n = 0; const c = document.getElementById('c').getContext('2d');
          (function f() { c.fillStyle = 'hsl(' + (n++ % 360) + ',80%,50%)'; c.fillRect(0, 0, 64, 64); requestAnimationFrame(f); })();
        </script>`,
      );
      return;
    }
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
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-failover-'));
}, 60_000);

afterAll(async () => {
  killServerProcesses();
  await new Promise((resolve) => page?.close(resolve));
  await database?.drop();
  await s3?.close();
  if (dataDir) {
    // The killed agent's keep-data rooms are still mounted, as they would be on its machine.
    await unmountUnder(dataDir);
    await rm(dataDir, { recursive: true, force: true });
  }
});

/** One process of the fleet on this test's database and data directory. */
function startProcess(name: string, env: Record<string, string>, port?: number): Promise<TServerProcess> {
  return startServerProcess(
    name,
    {
      DATABASE_URL: database.url,
      DATA_DIR: join(dataDir, name),
      APP_SECRET: SECRET,
      BILLING_JOBS: 'off',
      ...env,
    },
    port,
  );
}

/** Where kept profiles are saved: the install's bucket, which agents and the control plane are both told. */
function bucketEnv(): Record<string, string> {
  return {
    PROFILE_S3_BUCKET: s3.bucket,
    PROFILE_S3_ENDPOINT: s3.endpoint,
    PROFILE_S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    PROFILE_S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
  };
}

async function startAgent(name: string): Promise<TServerProcess> {
  const port = await freePort();
  return startProcess(
    name,
    {
      ROOM_ROLE: 'agent',
      AGENT_ADDRESS: `127.0.0.1:${port}`,
      ROOMS_DATA_DIR: join(dataDir, name, 'rooms'),
      ROOM_EGRESS_ALLOW: pageHost,
      ROOM_CAPACITY: '2',
      ROOM_WARM_POOL: '0',
      ROOM_MEDIA: 'screencast',
      ...bucketEnv(),
      PROFILE_CHECKPOINT_SECONDS: '2',
    },
    port,
  );
}

/** An owner with three rooms of 640×360 at 15 fps; the first keeps its data (the one whose agent is killed). */
async function ownerWithRooms(count: number): Promise<{ token: string; roomIds: string[] }> {
  const owner = await storedUser(database.orm, { prefix: 'fleet' });
  const roomIds: string[] = [];
  for (let index = 0; index < count; index++) {
    const room = await storedRoom(database.orm, owner.id, {
      startUrl: `http://${pageHost}/${index === 0 ? 'kept' : ''}`,
      keepData: index === 0,
      width: 640,
      height: 360,
      videoBitrateKbps: 1000,
      maxFrameRate: 15,
    });
    roomIds.push(room.id);
  }
  return { token: owner.token, roomIds };
}

async function liveRun(roomId: string): Promise<fleet.TRun | null> {
  return fleet.liveRunOf(database.orm.em.fork(), roomId);
}

async function eventually<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | null | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Joins through a gateway as a script does (its session token), and waits for the picture. */
async function enterRoom(gatewayPort: number, roomId: string, token: string): Promise<RoomClient> {
  const client = await RoomClient.connect(
    `ws://127.0.0.1:${gatewayPort}${roomSocketPath(roomId)}?token=${encodeURIComponent(token)}`,
  );
  client.send({ type: 'member/join', nickname: 'Olga' });
  await client.next('member/list');
  await client.until(() => client.frames.length > 2, 'the picture', 30_000);
  return client;
}

/** What the web app does when its socket closes: try again (every 500 ms here) until it is in the room again. */
async function rejoin(
  gatewayPorts: number[],
  roomId: string,
  token: string,
  timeoutMs: number,
): Promise<RoomClient> {
  let attempt = 0;
  return eventually('the participant back in the room', timeoutMs, async () => {
    const port = gatewayPorts[attempt++ % gatewayPorts.length] as number;
    try {
      return await enterRoom(port, roomId, token);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
      return null;
    }
  });
}

describe('rooms on a fleet of agents', () => {
  it('spreads rooms, survives an agent and a gateway killed, and a control plane restarted', async () => {
    const controlPort = await freePort();
    const controlEnv = {
      ROOM_ROLE: 'control',
      PUBLIC_URL: `http://127.0.0.1:${controlPort}`,
      ...bucketEnv(),
    };
    let control = await startProcess('control', controlEnv, controlPort);
    const agents = [await startAgent('agent-1'), await startAgent('agent-2'), await startAgent('agent-3')];
    const gateways = [
      await startProcess('gateway-1', {
        ROOM_ROLE: 'gateway',
        PUBLIC_URL: `http://127.0.0.1:${controlPort}`,
      }),
      await startProcess('gateway-2', {
        ROOM_ROLE: 'gateway',
        PUBLIC_URL: `http://127.0.0.1:${controlPort}`,
      }),
    ] as const;

    const { token, roomIds } = await ownerWithRooms(3);
    for (const roomId of roomIds) {
      const started = await fetch(`http://127.0.0.1:${control.port}/api/room/startRoom?id=${roomId}`, {
        method: 'POST',
        headers: { authorization: token },
      });
      expect(((await started.json()) as { data: { state: string } }).data.state).toBe('running');
    }
    // Spread: each agent runs one of the three rooms.
    const runs = await Promise.all(roomIds.map((roomId) => liveRun(roomId)));
    expect(new Set(runs.map((run) => run?.agentId)).size).toBe(3);

    const participants = await Promise.all(
      roomIds.map((roomId) => enterRoom(gateways[0].port, roomId, token)),
    );

    // An agent's machine is lost: its room is lost within 15 s and runs again on another agent.
    const [victimRoom] = roomIds as [string, ...string[]];
    const victimRun = runs[0] as fleet.TRun;
    const agentRows = await fleet.liveAgents(database.orm.em.fork());
    const victimAddress = agentRows.find((agent) => agent.id === victimRun.agentId)?.address;
    const victim = agents.find((agent) => `127.0.0.1:${agent.port}` === victimAddress);
    if (!victim) throw new Error('no agent runs the first room');
    // The kept page stored its mark, and a checkpoint saved the profile after that.
    const firstVisit = await eventually('the kept page’s first visit', 20_000, async () => visits[0]);
    expect(firstVisit.found).toBe('');
    const markedAt = new Date();
    await eventually('a checkpoint after the mark', 30_000, async () => {
      const [row] = await database.orm.em
        .fork()
        .execute<{ saved_at: Date }[]>('select saved_at from room_profiles where room_id = ?', [victimRoom]);
      return row && new Date(row.saved_at).getTime() > markedAt.getTime() + 2_000;
    });
    const killedAt = Date.now();
    victim.kill();
    const closed = await participants[0]?.closedWith();
    expect(closed?.code).toBe(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING);
    await eventually('the room marked lost', 20_000, async () => {
      const [row] = await database.orm.em
        .fork()
        .execute<{ state: string }[]>('select state from room_runs where id = ?', [victimRun.id]);
      return row?.state === 'lost';
    });
    const lostAfter = Date.now() - killedAt;
    expect(lostAfter).toBeLessThan(fleet.WORST_LOSS_DETECTION_MS + 3_000);
    const moved = await eventually('the room running on another agent', 60_000, async () => {
      const run = await liveRun(victimRoom);
      return run?.state === 'running' ? run : null;
    });
    expect(moved.agentId).not.toBe(victimRun.agentId);
    expect(moved.epoch).toBe(victimRun.epoch + 1);
    const back = await rejoin([gateways[0].port, gateways[1].port], victimRoom, token, 60_000);
    // The page on the new agent found the mark it had stored before the loss.
    const secondVisit = await eventually(
      'the kept page’s visit on the new agent',
      20_000,
      async () => visits[1],
    );
    expect(secondVisit.found).toBe(firstVisit.stored);
    expect(back.frames.length).toBeGreaterThan(2);
    console.log(`agent killed: room lost after ${lostAfter} ms, back after ${Date.now() - killedAt} ms`);

    // A gateway dies: its participants come back through the other one within 3 s.
    const others = participants.slice(1) as RoomClient[];
    gateways[0].kill();
    const gatewayKilledAt = Date.now();
    await Promise.all(others.map((client) => client.closedWith()));
    back.close();
    const rejoined = await Promise.all(
      roomIds.slice(1).map((roomId) => rejoin([gateways[1].port], roomId, token, 10_000)),
    );
    const movedAfter = Date.now() - gatewayKilledAt;
    console.log(`gateway killed: participants back after ${movedAfter} ms`);
    expect(movedAfter).toBeLessThan(3_000);

    // The control plane restarts: the rooms keep running and nobody is disconnected.
    control.child.kill('SIGTERM');
    expect(await control.exited).toBe(0);
    control = await startProcess('control', controlEnv, controlPort);
    const framesBefore = rejoined.map((client) => client.frames.length);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    rejoined.forEach((client, index) => {
      expect(client.closed).toBeUndefined();
      expect(client.frames.length).toBeGreaterThan(framesBefore[index] as number);
    });
    for (const roomId of roomIds) expect((await liveRun(roomId))?.state).toBe('running');
    for (const client of rejoined) client.close();

    // The kept room deleted on the control plane, which runs no agent: its saved profile goes from the bucket.
    const [kept] = await database.orm.em
      .fork()
      .execute<{ name: string }[]>('select name from rooms where id = ?', [victimRoom]);
    const deleted = await fetch(
      `http://127.0.0.1:${control.port}/api/room/deleteRoom?name=${encodeURIComponent(kept?.name ?? '')}`,
      { method: 'POST', headers: { authorization: token } },
    );
    expect(((await deleted.json()) as { msg: string }).msg).toBe('success');
    const bucket = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: s3.credentials,
      forcePathStyle: true,
    });
    const left = await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    expect((left.Contents ?? []).filter((object) => object.Key?.includes(victimRoom))).toEqual([]);
    bucket.destroy();
  }, 400_000);
});
