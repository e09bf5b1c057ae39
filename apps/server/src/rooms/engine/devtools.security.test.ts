// Finding 16 of the security review (issue 29): developer tools in a room would show the page's code and storage to
// whoever drives it, and run script in it. The policy that names them (DeveloperToolsAvailability) cannot be used:
// Chromium then refuses the server's own CDP sessions on every page (Target.attachToTarget answers "Not allowed",
// over --remote-debugging-pipe as over a port), so the room's browser never gets its first page. Developer tools
// stay shut by the layers this test goes through, on a real room of each media path (headful in kiosk mode on its
// display; headless for the CDP screencast): a right click and the context-menu keys through the room's input path
// (no menu, so no "Inspect"), the developer-tools shortcuts through it (the key filter) and past it, straight to the
// page over CDP as a hole in the filter would let them (the kiosk window refuses them; headless, the policy's
// devtools://* entry keeps the DevTools front end from opening), and devtools: addresses (refused by the room's
// address bar and by the policy). Every target the browser creates is watched: a DevTools window that opens and is
// closed at once by the room's tab guard still counts.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TRoomInput } from '@rooms/api/room-protocol';
import type { BrowserContext, CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply, input } from '../../testing/rooms/room-input';
import { startTestPages, type TTestPages } from '../../testing/rooms/test-pages';
import { startEgressProxy } from '../egress/egress-proxy';
import { ChromiumRoomEngine } from './chromium-room-engine';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DEVTOOLS = 'devtools://devtools/bundled/inspector.html';
const SHIFT = 8;
const CTRL = 2;

let pages: TTestPages;

beforeAll(async () => {
  pages = await startTestPages();
});

afterAll(async () => {
  await pages?.close();
});

const pointer = (action: 'move' | 'down' | 'up', button: 'none' | 'right', buttons: number) =>
  input({ type: 'input/pointer', action, x: 0.5, y: 0.5, button, buttons, clickCount: 1 });
const RIGHT_CLICK = [pointer('move', 'none', 0), pointer('down', 'right', 2), pointer('up', 'right', 0)];

/** A key as the web client sends it: down and up, with the modifier bits (the modifiers' own keys left out). */
const press = (key: string, code: string, modifiers = 0): TRoomInput[] => [
  input({ type: 'input/key', action: 'down', key, code, modifiers }),
  input({ type: 'input/key', action: 'up', key, code, modifiers }),
];

/** The keys that open developer tools in Chromium on Linux, with their Windows key codes. */
const DEVTOOLS_KEYS = [
  { key: 'F12', code: 'F12', keyCode: 123, modifiers: 0 },
  { key: 'I', code: 'KeyI', keyCode: 73, modifiers: CTRL | SHIFT },
  { key: 'J', code: 'KeyJ', keyCode: 74, modifiers: CTRL | SHIFT },
  { key: 'C', code: 'KeyC', keyCode: 67, modifiers: CTRL | SHIFT },
];

/** Every devtools: address any target of the browser had, from its creation on (closed ones included). */
async function watchDevtoolsTargets(
  context: BrowserContext,
): Promise<{ seen: string[]; stop(): Promise<void> }> {
  const session = await context.browser()!.newBrowserCDPSession();
  const seen: string[] = [];
  const note = (event: { targetInfo: { url: string } }) => {
    if (/^devtools:/i.test(event.targetInfo.url)) seen.push(event.targetInfo.url);
  };
  session.on('Target.targetCreated', note);
  session.on('Target.targetInfoChanged', note);
  await session.send('Target.setDiscoverTargets', { discover: true });
  return { seen, stop: () => session.detach().catch(() => {}) };
}

/** The room's display as a grey picture, taken by a program of the room (only the room reaches its display). */
async function picture(engine: ChromiumRoomEngine, roomId: string): Promise<Buffer> {
  const environ = await readFile(`/proc/${engine.browserPid(roomId)!}/environ`, 'utf8');
  const display = /(?:^|\0)DISPLAY=([^\0]*)/.exec(environ)![1]!;
  const sandbox = engine.sandbox(roomId)!;
  const grab = ['-loglevel', 'error', '-f', 'x11grab', '-draw_mouse', '0', '-i', display, '-frames:v', '1'];
  const { file, args } = sandbox.command('ffmpeg', [...grab, '-f', 'rawvideo', '-pix_fmt', 'gray', '-']);
  const { stdout } = await run(file, args, {
    env: sandbox.environment({ DISPLAY: display }),
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The share of pixels that changed visibly between two pictures. */
function changed(before: Buffer, after: Buffer): number {
  if (before.length !== after.length) return 1;
  let count = 0;
  for (let index = 0; index < before.length; index++) {
    if (Math.abs(before[index]! - after[index]!) > 32) count++;
  }
  return count / before.length;
}

describe.each([
  { path: 'h264' as const, label: 'a headful room in kiosk mode (H.264 path)' },
  { path: 'screencast' as const, label: 'a headless room (screencast path)' },
])('$label', ({ path }) => {
  const roomId = `devtools-${path}-${process.pid}`;
  const tag = `devtools-${path}`;
  const pageUrl = () => pages.url(`/keys?tag=${tag}`);
  let dataDir: string;
  let engine: ChromiumRoomEngine;
  let context: BrowserContext;
  let watcher: Awaited<ReturnType<typeof watchDevtoolsTargets>>;
  /** The room's page (not the omnibox popup a browser starting on a busy machine may list as a page too). */
  const roomPage = () => {
    const page = context.pages().find((candidate) => candidate.url() === pageUrl());
    if (!page) throw new Error(`the room's page is gone: ${context.pages().map((each) => each.url())}`);
    return page;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rooms-devtools-'));
    engine = new ChromiumRoomEngine({
      chromiumPath: CHROMIUM,
      roomsDataDir: dataDir,
      capacity: 1,
      media: path,
      // The browser's policy is written in the room's sandbox.
      sandbox: { mode: 'on' },
      egress: { start: startEgressProxy, allow: [pages.hostPort] },
    });
    await engine.start({
      roomId,
      width: 800,
      height: 600,
      maxFrameRate: 10,
      videoBitrateKbps: 1000,
      startUrl: pageUrl(),
      keepData: false,
      autoCloseMs: null,
    });
    await pages.waitForEvent(`ready:${tag}`, 15_000);
    context = engine.browserContext(roomId)!;
    watcher = await watchDevtoolsTargets(context);
    // The page reports the context menus it is asked for: the right click did arrive.
    await roomPage().evaluate((name) => {
      addEventListener('contextmenu', () => fetch(`/event/${encodeURIComponent(`contextmenu:${name}`)}`));
    }, tag);
  }, 120_000);

  afterAll(async () => {
    await watcher?.stop();
    await engine?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('a right click and the context-menu keys open no menu, and nothing in it can be reached', async () => {
    const session = engine.session(roomId)!;
    const before = path === 'h264' ? await picture(engine, roomId) : undefined;
    await apply(session, RIGHT_CLICK);
    await pages.waitForEvent(`contextmenu:${tag}`);
    await apply(session, [...press('F10', 'F10', SHIFT), ...press('ContextMenu', 'ContextMenu')]);
    // "Inspect" is the menu's last entry: up from the top, then Enter, would choose it.
    await apply(session, [...press('ArrowUp', 'ArrowUp'), ...press('Enter', 'Enter')]);
    // Long enough for a menu or a DevTools window to show: they take well under a second.
    await sleep(1500);
    expect(watcher.seen).toEqual([]);
    expect(session.tabs().map((tab) => tab.url)).toEqual([pageUrl()]);
    if (before) expect(changed(before, await picture(engine, roomId))).toBeLessThan(0.001);
  });

  it('the developer-tools keys open nothing, through the room’s input and past its key filter', async () => {
    const session = engine.session(roomId)!;
    for (const { key, code, modifiers } of DEVTOOLS_KEYS) await apply(session, press(key, code, modifiers));
    // Past the filter: the keys straight to the page over CDP, as a hole in the filter would let them through.
    const page = roomPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    for (const { key, code, keyCode, modifiers } of DEVTOOLS_KEYS) {
      for (const type of ['rawKeyDown', 'keyUp'] as const) {
        await cdp.send('Input.dispatchKeyEvent', {
          type,
          key,
          code,
          modifiers,
          windowsVirtualKeyCode: keyCode,
          nativeVirtualKeyCode: keyCode,
        });
      }
    }
    await cdp.detach();
    await sleep(1500);
    expect(watcher.seen).toEqual([]);
    expect(session.tabs().map((tab) => tab.url)).toEqual([pageUrl()]);
  });

  it('a devtools: address is refused by the room’s address bar and by the browser', async () => {
    const session = engine.session(roomId)!;
    await expect(session.navigate(DEVTOOLS)).rejects.toThrow(/Only http and https addresses/);
    // The browser's own refusal, for a navigation that got past every check of the room.
    const page = roomPage();
    const refused = await page.goto(DEVTOOLS).then(
      () => 'opened',
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/ERR_BLOCKED_BY_ADMINISTRATOR/);
  });
});
