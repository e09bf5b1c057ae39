// What a room shows, seen from outside the browser's own account of it: the X windows and pixels of its display
// (read by programs run inside the room's sandbox), and every page target of its browser over CDP. For the kiosk
// tests, which check that nothing but the room's page appears.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { BrowserContext } from 'playwright-core';
import type { ChromiumRoomEngine } from '../../rooms/engine/chromium-room-engine';
import { isBrowserUi, type TTargetInfo } from '../../rooms/engine/tabs';
import type { RoomSandbox } from '../../rooms/sandbox/room-sandbox';

const run = promisify(execFile);

/**
 * The room's display as a program of the room sees it: only the room's own processes can reach it (its X socket
 * is in the room's namespaces), so the test's viewers run inside the room's sandbox with the browser's DISPLAY.
 */
export interface TDisplay {
  sandbox: RoomSandbox;
  env: Record<string, string>;
}

export async function roomDisplay(engine: ChromiumRoomEngine, roomId: string): Promise<TDisplay> {
  const environ = await readFile(`/proc/${engine.browserPid(roomId)!}/environ`, 'utf8');
  const display = /(?:^|\0)DISPLAY=([^\0]*)/.exec(environ)?.[1];
  if (!display) throw new Error('the room browser has no DISPLAY: not on the H.264 path');
  return { sandbox: engine.sandbox(roomId)!, env: { DISPLAY: display } };
}

export function onDisplay(
  display: TDisplay,
  program: string,
  args: string[],
  options: { encoding?: 'buffer' } = {},
) {
  const { file, args: argv } = display.sandbox.command(program, args);
  return run(file, argv, {
    env: display.sandbox.environment(display.env),
    maxBuffer: 64 * 1024 * 1024,
    ...(options.encoding ? { encoding: options.encoding } : {}),
  });
}

/** The windows a viewer of the display can see: id and title of each viewable top-level window. */
export async function viewableWindows(display: TDisplay): Promise<string[]> {
  const { stdout } = await onDisplay(display, 'xwininfo', ['-root', '-children']);
  const windows: string[] = [];
  for (const line of String(stdout).split('\n')) {
    const match = /^\s+(0x[0-9a-f]+) (.*?):/.exec(line);
    if (!match) continue;
    const stats = await onDisplay(display, 'xwininfo', ['-id', match[1]!, '-stats']).catch(() => undefined);
    if (String(stats?.stdout).includes('Map State: IsViewable')) windows.push(`${match[1]} ${match[2]}`);
  }
  return windows;
}

/** The whole display as 8-bit grey pixels. */
export async function picture(display: TDisplay): Promise<Buffer> {
  const { stdout } = await onDisplay(
    display,
    'ffmpeg',
    [
      '-loglevel',
      'error',
      '-f',
      'x11grab',
      '-draw_mouse',
      '0',
      '-i',
      display.env.DISPLAY!,
      '-frames:v',
      '1',
    ].concat(['-f', 'rawvideo', '-pix_fmt', 'gray', '-']),
    { encoding: 'buffer' },
  );
  return stdout as unknown as Buffer;
}

/** The share of pixels that changed visibly between two pictures of the display. */
export function changed(before: Buffer, after: Buffer): number {
  if (before.length !== after.length) return 1;
  let count = 0;
  for (let index = 0; index < before.length; index++) {
    if (Math.abs(before[index]! - after[index]!) > 32) count++;
  }
  return count / before.length;
}

/**
 * Every page target of the browser (tabs, windows, incognito, devtools), whether Playwright reports it or not. The
 * omnibox popup is browser UI in no window of its own, but shows as a page when chrome:// is blocked by policy.
 */
export async function pageTargets(context: BrowserContext): Promise<string[]> {
  const session = await context.browser()!.newBrowserCDPSession();
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    return targetInfos
      .filter((target) => target.type === 'page' && !/^chrome:\/\/[^/]+\.top-chrome\//.test(target.url))
      .map((target) => target.url);
  } finally {
    await session.detach().catch(() => {});
  }
}

/**
 * Playwright's pages of the browser but for its own UI: a browser starting on a busy machine lists the omnibox
 * popup as a page (its document the error page of its blocked chrome:// address), which the room rightly neither
 * adopts nor closes (rooms/engine/tabs.ts isBrowserUi). Judged by the target's address, as the room judges it.
 */
export async function playwrightPages(context: BrowserContext): Promise<string[]> {
  const urls: string[] = [];
  for (const page of context.pages()) {
    const session = await context.newCDPSession(page).catch(() => undefined);
    const info = (await session?.send('Target.getTargetInfo').catch(() => undefined)) as
      | { targetInfo: TTargetInfo }
      | undefined;
    await session?.detach().catch(() => {});
    if (info && isBrowserUi(info.targetInfo)) continue;
    urls.push(page.url());
  }
  return urls;
}
