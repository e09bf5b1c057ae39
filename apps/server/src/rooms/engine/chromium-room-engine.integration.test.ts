// The room engine against real Chromium: pages served on loopback (allowed through the egress proxy for exactly
// that origin), rooms started and stopped for real, frames and input through the RoomSession a relay uses.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppError, TRoomLaunchSpec, TRoomStateChange } from '@rooms/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply, input, key, press } from '../../testing/rooms/room-input';
import { startTestPages, type TTestPages } from '../../testing/rooms/test-pages';
import { startTestServer } from '../../testing/test-server';
import { startEgressProxy } from '../egress/egress-proxy';
import { processesUsingProfile } from '../process-tree';
import type { TMediaChunk } from '../room-session';
import { ChromiumRoomEngine } from './chromium-room-engine';
import type { ChromiumRoomSession } from './chromium-room-session';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let pages: TTestPages;
let dataDir: string;
let engine: ChromiumRoomEngine;
let rooms = 0;

const roomSpec = (overrides: Partial<TRoomLaunchSpec> = {}): TRoomLaunchSpec => ({
  roomId: `engine-test-${process.pid}-${++rooms}`,
  width: 800,
  height: 600,
  maxFrameRate: 10,
  videoBitrateKbps: 2000,
  startUrl: 'about:blank',
  keepData: false,
  autoCloseMs: null,
  ...overrides,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

function recordChanges(roomId: string): TRoomStateChange[] {
  const changes: TRoomStateChange[] = [];
  engine.onStateChange((change) => {
    if (change.roomId === roomId) changes.push(change);
  });
  return changes;
}

/** The picture once the page stops repainting: the screencast is then quiet until something changes. */
async function settledFrame(session: ChromiumRoomSession): Promise<TMediaChunk> {
  await waitFor(() => session.video.latestKeyframe(), 'a first frame');
  let last = session.video.latestKeyframe();
  for (;;) {
    await sleep(400);
    const now = session.video.latestKeyframe();
    if (now === last && now) return now;
    last = now;
  }
}

/** The picture size from a JPEG's start-of-frame segment. */
function jpegSize(jpeg: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(jpeg);
  for (let offset = 2; offset + 9 < view.length; ) {
    const marker = view.readUInt16BE(offset);
    if (marker >= 0xffc0 && marker <= 0xffc3) {
      return { height: view.readUInt16BE(offset + 5), width: view.readUInt16BE(offset + 7) };
    }
    offset += 2 + view.readUInt16BE(offset + 2);
  }
  throw new Error('no start-of-frame segment');
}

async function running(spec: TRoomLaunchSpec): Promise<ChromiumRoomSession> {
  await engine.start(spec);
  const session = engine.session(spec.roomId);
  if (!session) throw new Error('a started room has no session');
  return session;
}

beforeAll(async () => {
  pages = await startTestPages();
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-engine-test-'));
  engine = new ChromiumRoomEngine({
    chromiumPath: CHROMIUM,
    roomsDataDir: dataDir,
    capacity: 2,
    // The screencast path's behaviour; the H.264 path has its own tests (../media).
    media: 'screencast',
    egress: { start: startEgressProxy, allow: [pages.hostPort] },
  });
});

afterAll(async () => {
  await engine?.close();
  await pages?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('ChromiumRoomEngine', () => {
  it('streams one shared capture of an animated page at about the room frame rate, until stopped', async () => {
    const spec = roomSpec({ startUrl: pages.url('/animated'), maxFrameRate: 10 });
    const changes = recordChanges(spec.roomId);
    const session = await running(spec);
    expect(engine.state(spec.roomId)).toBe('running');

    const first: TMediaChunk[] = [];
    const second: TMediaChunk[] = [];
    session.video.subscribe((chunk) => first.push(chunk));
    session.video.subscribe((chunk) => second.push(chunk));
    // Counted from the first picture: the page's load after the start is not the capture's pace.
    await waitFor(() => first.length > 0, 'a first frame', 25_000);
    await sleep(2000);

    // 10 fps for 2 s, capped although the page paints at up to 60 fps; loose bounds for a loaded machine.
    expect(first.length).toBeGreaterThanOrEqual(8);
    expect(first.length).toBeLessThanOrEqual(24);
    // Both participants get the very same chunks: one capture, no per-viewer encode.
    expect(second.length).toBe(first.length);
    expect(second.every((chunk, index) => chunk === first[index])).toBe(true);
    const chunk = first[0]!;
    expect(chunk).toMatchObject({ codec: 'jpeg', keyframe: true, width: 800, height: 600 });
    expect([chunk.data[0], chunk.data[1]]).toEqual([0xff, 0xd8]); // JPEG start-of-image
    expect(new Set(first.map((frame) => Buffer.from(frame.data).toString('base64'))).size).toBeGreaterThan(
      first.length / 2,
    );
    expect(first.every((frame, index) => index === 0 || frame.timestamp > first[index - 1]!.timestamp)).toBe(
      true,
    );
    expect(session.video.latestKeyframe()).toBe(first.at(-1));

    // A thumbnail for the square is a separate small still, not a frame of the stream.
    const still = await session.snapshot(320);
    expect([still?.[0], still?.[1]]).toEqual([0xff, 0xd8]);
    expect(jpegSize(still!)).toEqual({ width: 320, height: 240 });

    await engine.stop(spec.roomId);
    const delivered = first.length;
    await sleep(500);
    expect(first.length).toBe(delivered);
    expect(engine.session(spec.roomId)).toBeUndefined();
    expect(changes.map((change) => change.state)).toEqual(['starting', 'running', 'stopping', 'stopped']);
    expect(engine.capacity()).toEqual({ running: 0, max: 2 });
  });

  it('applies a click at normalised coordinates, and later frames show the changed page', async () => {
    const spec = roomSpec({ startUrl: pages.url('/button') });
    const session = await running(spec);
    try {
      const before = await settledFrame(session);
      const after: TMediaChunk[] = [];
      session.video.subscribe((chunk) => after.push(chunk));

      await apply(session, press(0.5, 0.5));
      await pages.waitForEvent('clicked');
      await waitFor(
        () => after.some((chunk) => !Buffer.from(chunk.data).equals(before.data)),
        'a frame showing the pressed button',
      );
    } finally {
      await engine.stop(spec.roomId);
    }
  });

  it('types keys, pasted text and an IME composition into the focused input', async () => {
    const spec = roomSpec({ startUrl: pages.url('/form') });
    const session = await running(spec);
    try {
      await settledFrame(session);
      await apply(session, press(0.5, 0.05));
      await apply(session, [...key('h', 'KeyH'), ...key('i', 'KeyI')]);
      await apply(session, [input({ type: 'input/text', text: ' there ' })]);
      await apply(session, [
        input({ type: 'input/composition', text: 'ni', selectionStart: 2, selectionEnd: 2 }),
        input({ type: 'input/text', text: '你' }),
      ]);
      await apply(session, key('Enter', 'Enter'));
      expect(await pages.waitForEvent('submitted:')).toBe('submitted:hi there 你');
    } finally {
      await engine.stop(spec.roomId);
    }
  });

  it('lets the page’s editing keys through the browser-shortcut filter', async () => {
    const spec = roomSpec({ startUrl: pages.url('/form') });
    const session = await running(spec);
    try {
      await settledFrame(session);
      await apply(session, press(0.5, 0.05));
      const ctrl = (name: string, code: string, shift = false) => {
        const modifiers = shift ? 10 : 2;
        return [
          input({ type: 'input/key', action: 'down', key: name, code, modifiers }),
          input({ type: 'input/key', action: 'up', key: name, code, modifiers }),
        ];
      };
      // "abc", select all, cut, paste twice, undo the second paste, redo it, Home, Backspace at the start (no-op),
      // ArrowRight, Delete: "abcabc" with its second character removed.
      await apply(session, [...key('a', 'KeyA'), ...key('b', 'KeyB'), ...key('c', 'KeyC')]);
      await apply(session, [
        ...ctrl('a', 'KeyA'),
        ...ctrl('x', 'KeyX'),
        ...ctrl('v', 'KeyV'),
        ...ctrl('v', 'KeyV'),
      ]);
      await apply(session, [...ctrl('z', 'KeyZ'), ...ctrl('Z', 'KeyZ', true)]);
      await apply(session, [...key('Home', 'Home'), ...key('Backspace', 'Backspace')]);
      await apply(session, [...key('ArrowRight', 'ArrowRight'), ...key('Delete', 'Delete')]);
      await apply(session, key('Enter', 'Enter'));
      expect(await pages.waitForEvent('submitted:acabc')).toBe('submitted:acabc');
    } finally {
      await engine.stop(spec.roomId);
    }
  });

  it('turns a popup into the active tab, follows it and its title, and refuses non-web addresses', async () => {
    const spec = roomSpec({ startUrl: pages.url('/popup') });
    const session = await running(spec);
    const outside = await startTestPages();
    try {
      await settledFrame(session);
      const frames: TMediaChunk[] = [];
      session.video.subscribe((chunk) => frames.push(chunk));
      await apply(session, press(0.5, 0.5));

      // A new page, its CDP session and its first load: slow when the whole suite shares the machine.
      const tabs = await waitFor(
        () => {
          const list = session.tabs();
          return list.length === 2 && list[1]!.active && list[1]!.url.endsWith('/animated') && list;
        },
        'the popup as the active tab',
        25_000,
      );
      // The popup animates while the opener is static: frames keep coming only if the capture followed it.
      await waitFor(() => frames.length >= 5, 'frames from the popup');

      await session.closeTab(tabs[1]!.id);
      await waitFor(() => session.tabs().length === 1 && session.tabs()[0]!.active, 'back to one tab');

      await expect(session.navigate('file:///etc/passwd')).rejects.toMatchObject({ appCode: 'BAD_INPUT' });
      await expect(session.navigate('chrome://settings')).rejects.toMatchObject({ appCode: 'BAD_INPUT' });
      // Every request goes through the egress proxy, loopback included: another local port stays unreachable.
      await session.navigate(outside.url('/form'));
      await sleep(300);
      expect(outside.events).toEqual([]);
      // A page that cannot load keeps the address asked for in the address bar, not Chromium's error page.
      await session.navigate('https://unreachable.invalid/').catch(() => {});
      await waitFor(() => session.tabs()[0]!.url === 'https://unreachable.invalid/', 'the typed address');
      await session.navigate(pages.url('/form'));
      await waitFor(() => session.tabs()[0]!.url === pages.url('/form'), 'the address to open');
      // The tab's name follows the page's title also when it changes after loading.
      await session.navigate(pages.url('/retitle'));
      await waitFor(() => session.tabs()[0]!.title === 'renamed', 'the title the page gave itself');
    } finally {
      await outside.close();
      await engine.stop(spec.roomId);
    }
  });

  it('keeps cookies across stop/start with keep-data, and forgets them without', async () => {
    const cookieAfterRestart = async (keepData: boolean) => {
      const spec = roomSpec({ keepData, startUrl: pages.url(`/set-cookie?as=${keepData}`) });
      await engine.start(spec);
      await pages.waitForEvent(`set-cookie:${keepData}`);
      await engine.stop(spec.roomId);
      await engine.start({ ...spec, startUrl: pages.url(`/check-cookie?as=${keepData}`) });
      const seen = await pages.waitForEvent(`cookie:${keepData}:`);
      await engine.stop(spec.roomId);
      return { spec, seen };
    };
    const [kept, fresh] = await Promise.all([cookieAfterRestart(true), cookieAfterRestart(false)]);
    expect(kept.seen).toBe('cookie:true:room=kept');
    expect(fresh.seen).toBe('cookie:false:');

    const profile = join(dataDir, kept.spec.roomId);
    expect(existsSync(profile)).toBe(true);
    await engine.deleteData(kept.spec.roomId);
    expect(existsSync(profile)).toBe(false);
  });

  it('refuses a room beyond capacity at once with SERVER_FULL', async () => {
    const a = roomSpec();
    const b = roomSpec();
    // Starting the same room twice at once runs one browser.
    await Promise.all([engine.start(a), engine.start(a), engine.start(b)]);
    try {
      expect(engine.capacity()).toEqual({ running: 2, max: 2 });
      const refusal = await engine.start(roomSpec()).catch((error: AppError) => error);
      expect(refusal).toMatchObject({ appCode: 'SERVER_FULL' });
    } finally {
      await Promise.all([engine.stop(a.roomId), engine.stop(b.roomId)]);
    }
    expect(engine.capacity().running).toBe(0);
  });

  it('auto-closes a room nobody joined, and one whose last participant left', async () => {
    const spec = roomSpec({ autoCloseMs: 300 });
    const changes = recordChanges(spec.roomId);
    await engine.start(spec);
    await waitFor(() => engine.state(spec.roomId) === 'stopped', 'the unvisited room to close');
    expect(changes.at(-1)).toEqual({ roomId: spec.roomId, state: 'stopped', reason: 'auto-close' });

    engine.participantsChanged(spec.roomId, 1);
    await engine.start(spec);
    await sleep(700);
    expect(engine.state(spec.roomId)).toBe('running');
    engine.participantsChanged(spec.roomId, 0);
    await waitFor(() => engine.state(spec.roomId) === 'stopped', 'the empty room to close');
    expect(changes.at(-1)?.reason).toBe('auto-close');
  });

  it('reports a killed browser as crashed and starts the room again by itself, keep-data profile and all', async () => {
    const spec = roomSpec({ keepData: true });
    const changes = recordChanges(spec.roomId);
    await engine.start(spec);
    const pid = engine.browserPid(spec.roomId);
    expect(pid).toBeTypeOf('number');
    process.kill(pid!, 'SIGKILL');

    // The killed browser left its profile lock behind; the restart must not trip over it.
    await waitFor(
      () => engine.state(spec.roomId) === 'running' && engine.browserPid(spec.roomId) !== pid,
      'the room to run again',
      15_000,
    );
    expect(changes).toContainEqual({
      roomId: spec.roomId,
      state: 'crashed',
      reason: 'crashed',
      ending: { reason: 'restarting', by: null },
    });
    expect(engine.session(spec.roomId)).toBeDefined();
    expect(engine.capacity().running).toBe(1);
    await engine.stop(spec.roomId);
    await engine.deleteData(spec.roomId);
  });
});

describe('the server with rooms', () => {
  it('stops every room when the app closes, leaving no Chromium process', async () => {
    const roomsDir = await mkdtemp(join(tmpdir(), 'rooms-app-test-'));
    const server = await startTestServer({
      listen: false,
      env: { ROOMS_DATA_DIR: roomsDir, ROOM_EGRESS_ALLOW: pages.hostPort, CHROMIUM_PATH: CHROMIUM },
    });
    try {
      // On the agent's engine itself: a uuid, as real room ids are (the room-state sync stores the state by it).
      await server.app.roomEngine.start(roomSpec({ roomId: randomUUID(), startUrl: pages.url('/animated') }));
      expect((await processesUsingProfile(roomsDir)).length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
    expect(await processesUsingProfile(roomsDir)).toEqual([]);
    await rm(roomsDir, { recursive: true, force: true });
  });
});
