// Rooms started on browsers the engine keeps warm (./warm-pool.ts), on the H.264 path with real Chromium, Xvfb and
// pulseaudio: a start of the pool's shape takes the warm browser and runs like a cold one (same sandbox, same way
// out), the pool refills, keep-data rooms start cold, a real room takes a warm browser's slot at capacity, a warm
// browser that dies is replaced, and closing leaves no process.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppError, TRoomLaunchSpec } from '@rooms/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveDescendants } from '../../testing/rooms/room-processes';
import { startTestPages, type TTestPages } from '../../testing/rooms/test-pages';
import { startTestServer } from '../../testing/test-server';
import { startEgressProxy } from '../egress/egress-proxy';
import { findBrowserPid, isAlive, processesUsingProfile } from '../process-tree';
import { ChromiumRoomEngine } from './chromium-room-engine';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHAPE = { width: 800, height: 600, maxFrameRate: 10, videoBitrateKbps: 1000 };

let pages: TTestPages;
let dataDir: string;
let engine: ChromiumRoomEngine;
let rooms = 0;

const roomSpec = (overrides: Partial<TRoomLaunchSpec> = {}): TRoomLaunchSpec => ({
  roomId: `warm-test-${process.pid}-${++rooms}`,
  ...SHAPE,
  startUrl: 'about:blank',
  keepData: false,
  autoCloseMs: null,
  ...overrides,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The warm browsers up now, their fresh profile directories and browser processes (a room's is not one). */
async function warmBrowsers(): Promise<{ profileDir: string; pid: number }[]> {
  const fresh = join(dataDir, '.fresh');
  const names = (await readdir(fresh).catch(() => [] as string[])).filter((name) => name.startsWith('warm-'));
  const found = await Promise.all(
    names.map(async (name) => ({
      profileDir: join(fresh, name),
      pid: await findBrowserPid(join(fresh, name)),
    })),
  );
  const roomBrowsers = engine.roomList().map((room) => engine.browserPid(room.roomId));
  return found.filter(
    (entry): entry is { profileDir: string; pid: number } =>
      entry.pid !== undefined && !roomBrowsers.includes(entry.pid),
  );
}

/** One warm browser, once the pool holds it ready. */
async function warmBrowser(): Promise<{ profileDir: string; pid: number }> {
  return waitFor(async () => {
    if (engine.warmRuns().ready !== 1) return undefined;
    const found = await warmBrowsers();
    return found.length === 1 ? found[0] : undefined;
  }, 'a warm browser');
}

const uidOf = async (pid: number) =>
  Number(/^Uid:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]);

beforeAll(async () => {
  pages = await startTestPages();
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-warm-test-'));
  engine = new ChromiumRoomEngine({
    chromiumPath: CHROMIUM,
    roomsDataDir: dataDir,
    capacity: 2,
    warmPool: 1,
    media: 'h264',
    egress: { start: startEgressProxy, allow: [pages.hostPort] },
  });
});

afterAll(async () => {
  await engine?.close();
  await pages?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the warm pool', () => {
  it('serves a start of its shape, refills, leaves keep-data rooms cold and yields its slot to a real room', async () => {
    engine.warmFor(SHAPE);
    const warm = await warmBrowser();
    // Warm browsers are not rooms.
    expect(engine.capacity()).toEqual({ running: 0, max: 2 });

    const outside = await startTestPages();
    const served = roomSpec({ startUrl: pages.url('/animated') });
    const kept = roomSpec({ keepData: true, startUrl: pages.url('/animated') });
    try {
      await engine.start(served);
      // The room runs on the browser that was waiting, with the room's own page.
      expect(engine.browserPid(served.roomId)).toBe(warm.pid);
      const session = engine.session(served.roomId)!;
      await waitFor(async () => session.tabs()[0]?.url === pages.url('/animated'), 'the start page');
      // Its encoders were ready: the H.264 picture comes when someone watches.
      const chunks: { keyframe: boolean; codec: string }[] = [];
      const unsubscribe = session.video.subscribe((chunk) => chunks.push(chunk));
      await waitFor(
        async () => chunks.some((chunk) => chunk.keyframe && chunk.codec === 'h264'),
        'a keyframe',
      );
      unsubscribe();
      // Its one way out is the egress proxy, as on a cold start: another local port stays unreachable.
      await session.navigate(outside.url('/form'));
      await sleep(300);
      expect(outside.events).toEqual([]);

      // The pool refills in the background with a new browser on a new profile.
      const next = await warmBrowser();
      expect(next.pid).not.toBe(warm.pid);
      expect(next.profileDir).not.toBe(warm.profileDir);

      // A keep-data room opens its own saved profile, so it starts cold; at capacity (one room, one warm browser)
      // the warm browser gives way to it.
      await engine.start(kept);
      expect(await findBrowserPid(join(dataDir, kept.roomId, 'profile'))).toBe(
        engine.browserPid(kept.roomId),
      );
      expect(engine.warmRuns().total).toBe(0);
      await waitFor(async () => !isAlive(next.pid), 'the evicted warm browser to end');
      expect(existsSync(next.profileDir)).toBe(false);
      expect(engine.capacity()).toEqual({ running: 2, max: 2 });
      await expect(engine.start(roomSpec())).rejects.toMatchObject({ appCode: 'SERVER_FULL' } as AppError);

      // The warm-served room is isolated like the cold one: same user, same kind of sandbox and cgroups.
      const [warmSandbox, coldSandbox] = [engine.sandbox(served.roomId)!, engine.sandbox(kept.roomId)!];
      expect(warmSandbox.rootPid === undefined).toBe(coldSandbox.rootPid === undefined);
      expect(warmSandbox.cgroupDirs.length).toBe(coldSandbox.cgroupDirs.length);
      expect(await uidOf(warm.pid)).toBe(await uidOf(engine.browserPid(kept.roomId)!));
      if (coldSandbox.rootPid !== undefined) {
        expect(warmSandbox.rootPid).not.toBe(coldSandbox.rootPid);
        expect(warmSandbox.cgroupDirs).not.toEqual(coldSandbox.cgroupDirs);
        expect(await uidOf(warm.pid)).not.toBe(0);
      }

      // No warm browser is started while the server is full.
      await sleep(2500);
      expect(engine.warmRuns().total).toBe(0);
    } finally {
      await outside.close();
      await engine.stop(kept.roomId);
      await engine.deleteData(kept.roomId);
    }

    // A browser that served a room ends with it; its profile goes too, and the pool starts another.
    await engine.stop(served.roomId);
    expect(isAlive(warm.pid)).toBe(false);
    expect(existsSync(warm.profileDir)).toBe(false);
    const refilled = await warmBrowser();
    expect(refilled.profileDir).not.toBe(warm.profileDir);
  });

  it('replaces a warm browser that died, and serves the new one', async () => {
    const dying = await warmBrowser();
    process.kill(dying.pid, 'SIGKILL');
    const replacement = await waitFor(async () => {
      // The dead browser's launcher may outlive it for a moment, with the same profile on its command line.
      const found = (await warmBrowsers()).filter((entry) => entry.profileDir !== dying.profileDir);
      return engine.warmRuns().ready === 1 && found.length === 1 && found[0];
    }, 'a replacement');
    await waitFor(async () => !existsSync(dying.profileDir), 'the dead browser’s profile to go');

    const spec = roomSpec();
    await engine.start(spec);
    expect(engine.browserPid(spec.roomId)).toBe(replacement.pid);
    await engine.stop(spec.roomId);
  });

  it('starts a room of another shape cold and keeps its shape from then on', async () => {
    await warmBrowser();
    const wide = roomSpec({ width: 640, height: 480 });
    await engine.start(wide);
    expect((await warmBrowsers()).map((entry) => entry.pid)).not.toContain(engine.browserPid(wide.roomId));
    await engine.stop(wide.roomId);
    expect(engine.warmRuns().shape).toMatchObject({ width: 640, height: 480 });
    await warmBrowser();
    const again = roomSpec({ width: 640, height: 480 });
    const waiting = (await warmBrowsers())[0]!;
    await engine.start(again);
    expect(engine.browserPid(again.roomId)).toBe(waiting.pid);
    await engine.stop(again.roomId);
  });

  it('ends its warm browsers when the engine closes, leaving no process', async () => {
    await warmBrowser();
    await engine.close();
    expect(engine.warmRuns().total).toBe(0);
    expect(await processesUsingProfile(dataDir)).toEqual([]);
    expect(await liveDescendants(process.pid)).toEqual([]);
  });
});

describe('the server with a warm pool', () => {
  it('fills the pool once it serves and ends it when it closes', async () => {
    const roomsDir = await mkdtemp(join(tmpdir(), 'rooms-warm-app-test-'));
    const server = await startTestServer({
      listen: false,
      env: {
        ROOMS_DATA_DIR: roomsDir,
        CHROMIUM_PATH: CHROMIUM,
        ROOM_WARM_POOL: '1',
        ROOM_MEDIA: 'screencast',
      },
    });
    try {
      // No room has started yet: the pool warms for a new room on the default plan.
      await waitFor(async () => server.app.roomEngine.warmRuns().ready === 1, 'a warm browser');
      expect((await processesUsingProfile(roomsDir)).length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
    expect(await processesUsingProfile(roomsDir)).toEqual([]);
    await rm(roomsDir, { recursive: true, force: true });
  });
});
