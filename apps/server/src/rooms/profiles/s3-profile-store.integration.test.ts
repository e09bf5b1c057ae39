// Keep-data profiles in object storage, end to end: real Chromium rooms on two engines with separate data
// directories (two machines), an S3-compatible server on loopback, the fleet's runs and epochs in real PostgreSQL.
// A page's localStorage and cookie follow the room to the other machine, from its stop or from a checkpoint taken
// while it ran, and a run the fleet gave away can no longer replace the profile the room's newer run saved.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { EntityManager } from '@mikro-orm/postgresql';
import { fleet, type TRoomLaunchSpec } from '@rooms/api';
import { Region, Room, SystemImage, User } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStoppedRoomFile } from '../../testing/rooms/room-volume-files';
import { startTestS3, type TTestS3 } from '../../testing/rooms/s3-server';
import { startEgressProxy } from '../egress/egress-proxy';
import { ChromiumRoomEngine } from '../engine/chromium-room-engine';
import { commitProfile, committedProfile } from './profile-records';
import { S3ProfileStore } from './s3-profile-store';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PREFIX = 'profiles/';

let db: TestDatabase;
let s3: TTestS3;
let client: S3Client;
let pages: TStoragePages;
const machines: { engine: ChromiumRoomEngine; store: S3ProfileStore; dataDir: string }[] = [];
let regionId: string;
let regionCode: string;
let ownerId: string;
let imageId: string;

const em = () => db.orm.em.fork() as unknown as EntityManager;

/** A page that keeps a value in localStorage and a cookie, and one that reports both; each tagged per room. */
interface TStoragePages {
  url(path: string): string;
  /** Events the pages reported, oldest first. */
  events: string[];
  hostPort: string;
  waitForEvent(prefix: string): Promise<string>;
  close(): Promise<void>;
}

async function startStoragePages(): Promise<TStoragePages> {
  const events: string[] = [];
  const script: Record<string, string> = {
    '/set': `localStorage.setItem('room', 'kept-' + tag);
      document.cookie = 'room=kept-' + tag + '; max-age=3600; path=/';
      report('set:' + tag);`,
    '/check': `report('check:' + tag + ':' + (localStorage.getItem('room') ?? '') + ':' + document.cookie);`,
    // The same mark in IndexedDB, reported once a durable transaction has it on disk (localStorage reaches the
    // disk only when Chromium commits it, seconds to half a minute later), for a checkpoint taken at once.
    '/set-durable': `const open = indexedDB.open('kept', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('marks');
      open.onsuccess = () => {
        const write = open.result.transaction('marks', 'readwrite', { durability: 'strict' });
        write.objectStore('marks').put('kept-' + tag, 'room');
        write.oncomplete = () => report('set:' + tag);
      };`,
    '/check-durable': `const open = indexedDB.open('kept', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('marks');
      open.onsuccess = () => {
        const read = open.result.transaction('marks').objectStore('marks').get('room');
        read.onsuccess = () => report('check:' + tag + ':' + (read.result ?? '') + ':');
      };`,
    // Counts its visits in localStorage: each reports the count it found and stores one more.
    '/visit': `const before = Number((localStorage.getItem('visits') ?? '0').split(':')[0]);
      localStorage.setItem('visits', (before + 1) + ':' + tag);
      report('visit:' + tag + ':' + before);`,
  };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    response.setHeader('cache-control', 'no-store');
    if (url.pathname.startsWith('/event/')) {
      events.push(decodeURIComponent(url.pathname.slice('/event/'.length)));
      response.end();
      return;
    }
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html><body>storage<script>
      const report = (name) => fetch('/event/' + encodeURIComponent(name));
      const tag = new URLSearchParams(location.search).get('tag');
      ${script[url.pathname] ?? ''}</script></body></html>`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const hostPort = `127.0.0.1:${address.port}`;
  return {
    hostPort,
    url: (path) => `http://${hostPort}${path}`,
    events,
    async waitForEvent(prefix) {
      return waitFor(() => events.find((event) => event.startsWith(prefix)), `a "${prefix}" event`);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One machine of the fleet: its own rooms' data directory and engine, the shared bucket and database. */
async function machine(): Promise<(typeof machines)[number]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'rooms-profiles-test-'));
  const store = new S3ProfileStore({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: s3.credentials,
    prefix: PREFIX,
    orm: db.orm,
    // Checkpoints are taken by hand here (engine.checkpoint), not by the clock.
    checkpointMs: null,
  });
  const engine = new ChromiumRoomEngine({
    chromiumPath: CHROMIUM,
    roomsDataDir: dataDir,
    capacity: 2,
    media: 'screencast',
    egress: { start: startEgressProxy, allow: [pages.hostPort] },
    profiles: store,
  });
  const made = { engine, store, dataDir };
  machines.push(made);
  return made;
}

async function newRoom(): Promise<string> {
  const fork = em();
  const room = fork.create(Room, {
    name: `p${randomBytes(6).toString('hex')}`,
    region: regionId,
    image: imageId,
    owner: ownerId,
    startUrl: null,
    password: null,
    maxConnections: 4,
    width: 800,
    height: 600,
    videoBitrateKbps: 2000,
    maxFrameRate: 10,
    keepData: true,
  });
  await fork.flush();
  return room.id;
}

const spec = (roomId: string, epoch: number, startUrl: string): TRoomLaunchSpec => ({
  roomId,
  width: 800,
  height: 600,
  maxFrameRate: 10,
  videoBitrateKbps: 2000,
  startUrl,
  keepData: true,
  autoCloseMs: null,
  epoch,
});

async function objectKeys(roomId: string): Promise<string[]> {
  const page = await client.send(
    new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${PREFIX}${roomId}/` }),
  );
  return (page.Contents ?? []).map((object) => object.Key ?? '').sort();
}

async function objectBytes(key: string): Promise<Buffer> {
  const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

/** Whether the browser has written `text` into the profile's localStorage database yet (it commits after a delay). */
async function localStorageHolds(profileDir: string, text: string): Promise<true | undefined> {
  const dir = join(profileDir, 'Default', 'Local Storage', 'leveldb');
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const bytes = await readFile(join(dir, name)).catch(() => Buffer.alloc(0));
    if (bytes.includes(Buffer.from(text, 'latin1')) || bytes.includes(Buffer.from(text, 'utf16le')))
      return true;
  }
  return undefined;
}

beforeAll(async () => {
  db = await createTestDatabase();
  s3 = await startTestS3();
  client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: s3.credentials,
    forcePathStyle: true,
  });
  pages = await startStoragePages();
  const fork = em();
  const suffix = randomBytes(4).toString('hex');
  regionCode = `p-${suffix}`;
  const region = fork.create(Region, { code: regionCode, name: regionCode });
  const owner = fork.create(User, {
    username: `profiles-${suffix}`,
    email: `profiles-${suffix}@example.test`,
    passwordHash: 'unused',
  });
  await fork.flush();
  regionId = region.id;
  ownerId = owner.id;
  imageId = (await fork.findOneOrFail(SystemImage, { kind: 'blank' })).id;
});

afterAll(async () => {
  for (const { engine, store, dataDir } of machines) {
    await engine.close();
    store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  client?.destroy();
  await pages?.close();
  await s3?.close();
  await db?.drop();
});

describe('keep-data profiles in object storage', () => {
  it('follow a stopped room to another machine, and go with the room', async () => {
    const [a, b] = [await machine(), await machine()];
    const roomId = await newRoom();
    await a.engine.start(spec(roomId, 1, pages.url(`/set?tag=${roomId}`)));
    await pages.waitForEvent(`set:${roomId}`);
    await a.engine.stop(roomId);
    const first = await committedProfile(em(), roomId);
    expect(first).toMatchObject({ epoch: 1 });
    expect(await objectKeys(roomId)).toEqual([first!.key]);

    await b.engine.start(spec(roomId, 2, pages.url(`/check?tag=${roomId}`)));
    expect(await pages.waitForEvent(`check:${roomId}:`)).toBe(
      `check:${roomId}:kept-${roomId}:room=kept-${roomId}`,
    );
    await b.engine.stop(roomId);
    const second = await committedProfile(em(), roomId);
    expect(second).toMatchObject({ epoch: 2 });
    // The replaced archive is gone from the bucket; only the committed one is left.
    expect(await objectKeys(roomId)).toEqual([second!.key]);

    await b.engine.deleteData(roomId);
    expect(await objectKeys(roomId)).toEqual([]);
    expect(await committedProfile(em(), roomId)).toBeNull();
    expect(existsSync(join(b.dataDir, roomId))).toBe(false);
  });

  it('restore the last checkpoint of a lost run elsewhere, and refuse that run’s late uploads', async () => {
    const [a, b] = [await machine(), await machine()];
    const roomId = await newRoom();
    const start = new Date();
    // The fleet places the room's first run on agent A.
    const agentA = (
      await fleet.registerAgent(
        em(),
        { regionCode, address: `10.9.${randomBytes(2).join('.')}:4100`, capacity: 4, version: 'test' },
        start,
      )
    ).agent;
    const first = (await fleet.placeRun(em(), roomId, start)).run;
    expect(first).toMatchObject({ agentId: agentA.id, epoch: 1 });

    await a.engine.start(spec(roomId, first.epoch, pages.url(`/set-durable?tag=${roomId}`)));
    await pages.waitForEvent(`set:${roomId}`);
    // A checkpoint while the room runs (its browser held still for the copy).
    expect(await a.engine.checkpoint(roomId)).toMatchObject({ saved: true });
    const checkpoint = (await committedProfile(em(), roomId))!;
    expect(checkpoint.epoch).toBe(1);
    const checkpointBytes = await objectBytes(checkpoint.key);

    // A goes silent: the sweep declares it lost, and the room's next run goes to agent B with a newer epoch.
    const later = new Date(start.getTime() + 20_000);
    const agentB = (
      await fleet.registerAgent(
        em(),
        { regionCode, address: `10.9.${randomBytes(2).join('.')}:4100`, capacity: 4, version: 'test' },
        later,
      )
    ).agent;
    await fleet.markLostAgents(em(), later);
    const second = (await fleet.placeRun(em(), roomId, later)).run;
    expect(second).toMatchObject({ agentId: agentB.id, epoch: 2 });

    await b.engine.start(spec(roomId, second.epoch, pages.url(`/check-durable?tag=${roomId}`)));
    const seen = await pages.waitForEvent(`check:${roomId}:`);
    expect(seen.startsWith(`check:${roomId}:kept-${roomId}:`)).toBe(true);

    // A still runs (it was only cut off): its checkpoints and its stop upload nothing the room keeps.
    expect(await a.engine.checkpoint(roomId)).toEqual({ saved: false, reason: 'stale' });
    // Even an upload that got past the check before B's run existed is refused where it commits.
    expect(await commitProfile(em(), roomId, 1, `${PREFIX}${roomId}/late.tar.gz`, new Date())).toEqual({
      ok: false,
      reason: 'stale',
    });
    await a.engine.stop(roomId);
    expect(await committedProfile(em(), roomId)).toEqual(checkpoint);
    expect(await objectKeys(roomId)).toEqual([checkpoint.key]);
    expect((await objectBytes(checkpoint.key)).equals(checkpointBytes)).toBe(true);
    // The stale machine's copy is dropped with its refused save.
    expect(existsSync(join(a.dataDir, roomId, 'profile'))).toBe(false);

    // An upload whose run died before its commit, left in the bucket; the next commit sweeps it away.
    await client.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: `${PREFIX}${roomId}/1-0-orphan.tar.gz`,
        Body: 'orphan',
      }),
    );
    // B's own stop commits its run's profile over the checkpoint.
    await b.engine.stop(roomId);
    const saved = (await committedProfile(em(), roomId))!;
    expect(saved.epoch).toBe(2);
    expect(await objectKeys(roomId)).toEqual([saved.key]);
  }, 180_000);

  it('start again on the same machine from the local copy of the saved profile', async () => {
    const [a] = [await machine()];
    const roomId = await newRoom();
    await a.engine.start(spec(roomId, 0, pages.url(`/set?tag=${roomId}`)));
    await pages.waitForEvent(`set:${roomId}`);
    await a.engine.stop(roomId);
    const saved = (await committedProfile(em(), roomId))!;
    const marker = JSON.parse(await readStoppedRoomFile(a.dataDir, roomId, 'profile.json'));
    expect(marker).toEqual({ base: saved.key, epoch: 0, clean: true });

    await a.engine.start(spec(roomId, 0, pages.url(`/check?tag=${roomId}`)));
    expect(await pages.waitForEvent(`check:${roomId}:`)).toBe(
      `check:${roomId}:kept-${roomId}:room=kept-${roomId}`,
    );
    await a.engine.stop(roomId);
  });

  it('start again after a browser crash on the run’s own copy, newer than the saved profile', async () => {
    const [a] = [await machine()];
    const roomId = await newRoom();
    const visits = () => pages.events.filter((event) => event.startsWith(`visit:${roomId}:`));
    const room = spec(roomId, 0, pages.url(`/visit?tag=${roomId}`));
    await a.engine.start(room);
    await pages.waitForEvent(`visit:${roomId}:0`);
    await a.engine.stop(roomId);
    const saved = await committedProfile(em(), roomId);

    await a.engine.start(room);
    await pages.waitForEvent(`visit:${roomId}:1`);
    const profileDir = join(a.dataDir, roomId, 'profile');
    await waitFor(() => localStorageHolds(profileDir, `2:${roomId}`), 'the second visit on disk', 90_000);
    const pid = a.engine.browserPid(roomId);
    process.kill(pid!, 'SIGKILL');
    await waitFor(() => visits()[2], 'the visit after the crash restart');
    // The saved profile has one visit; the crashed run's own copy, which the restart goes on with, has two.
    expect(visits()).toEqual([`visit:${roomId}:0`, `visit:${roomId}:1`, `visit:${roomId}:2`]);
    expect(await committedProfile(em(), roomId)).toEqual(saved);
    await a.engine.stop(roomId);
  }, 180_000);
});
