// Steps the media journeys share: a loopback page for the room's browser to open, a running room made through
// the dashboard, entering it, reading the picture and the sound off the participant's page, and cleaning up.
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOwner, rest, type TTestOwner, uniqueRoomName } from '@rooms/server/testing';
import type { BrowserContext } from 'playwright-core';
import { expect } from 'vitest';
import { DESKTOP, type Page, signedIn, startJourneys, type TJourneyKit } from './support';

/**
 * A page for the room's browser that keeps moving (a colour-cycling canvas) with a big button: pressing it turns it
 * red, counts the presses on it and reports each one to /event/clicked on the page server. The canvas changes 12
 * times a second, not on every display frame: the shared rooms stream at 10 pictures a second, and a page redrawn
 * (and resized) 60 times a second cost the room's browser a fifth of a core for pictures nobody sees.
 */
export const PRESS_ME_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>journey page</title>
<style>html,body{margin:0;height:100%;overflow:hidden}
#b{position:fixed;left:30%;top:30%;width:40%;height:40%;font:48px sans-serif;background:#22aa66;border:0;color:#fff}</style>
</head><body><canvas id="c" style="display:block;width:100%;height:100%"></canvas><button id="b">Press me</button>
<script>
const c = document.getElementById('c'), ctx = c.getContext('2d');
let n = 0;
const fit = () => { c.width = innerWidth; c.height = innerHeight; };
fit();
addEventListener('resize', fit);
setInterval(() => {
  n++;
  ctx.fillStyle = 'hsl(' + (n * 9 % 360) + ',80%,50%)';
  ctx.fillRect(0, 0, c.width, c.height);
}, 83);
let presses = 0;
document.getElementById('b').addEventListener('pointerdown', (event) => {
  presses++;
  event.target.style.background = '#dd2222';
  event.target.textContent = 'Pressed ' + presses;
  fetch('/event/clicked');
});
let scrolled = false;
addEventListener('wheel', (event) => {
  if (scrolled || event.deltaY <= 0) return;
  scrolled = true;
  fetch('/event/scrolled-down');
});
</script></body></html>`;

export interface TPages {
  origin: string;
  server: Server;
  /** Paths under /event/ the page reported (e.g. `fetch('/event/clicked')`), in order. */
  events: string[];
}

/** Serves `html` on a loopback port the room's egress allow-list can name. */
export async function servePages(html: string): Promise<TPages> {
  const events: string[] = [];
  const server = createServer((request, response) => {
    response.setHeader('cache-control', 'no-store');
    if (request.url?.startsWith('/event/')) {
      events.push(request.url);
      response.end();
      return;
    }
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(html);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  return { origin: `http://127.0.0.1:${address.port}`, server, events };
}

/** Creates a room opening `startUrl` from the dashboard and starts it; resolves with its name. */
export async function createRunningRoom(
  page: Page,
  startUrl: string,
  resolution = '1280x720',
): Promise<string> {
  await page.getByTestId('topbar-create-room').click();
  const dialog = page.getByTestId('create-room-dialog');
  await dialog.getByTestId('room-name').waitFor();
  const name = `media-${Date.now().toString(36)}`;
  await dialog.getByTestId('room-name').fill(name);
  await dialog.getByTestId('room-region').selectOption('local');
  await dialog.getByTestId('room-image').selectOption('chromium-url');
  await dialog.getByTestId('room-start-url').fill(startUrl);
  await dialog.getByTestId('room-resolution').selectOption(resolution);
  await dialog.getByTestId('create-room-submit').click();
  await dialog.waitFor({ state: 'detached' });
  await roomCard(page, name).getByTestId('room-start').click();
  await page
    .locator(`[data-testid="room-card"][data-room-name="${name}"][data-state="running"]`)
    .waitFor({ timeout: 60_000 });
  return name;
}

export function roomCard(page: Page, name: string) {
  return page.locator(`[data-testid="room-card"][data-room-name="${name}"]`);
}

/** From the dashboard into the room: the owner goes straight in (the nickname is used if the room asks). */
export async function enterRoom(page: Page, name: string, nickname: string): Promise<void> {
  await roomCard(page, name).getByTestId('room-enter').click();
  await page.waitForURL('**/room/*');
  await passEntry(page, nickname);
}

/** Through the entry if the room asks for one (a nickname, and a confirmation with others inside), to joined. */
export async function passEntry(page: Page, nickname: string): Promise<'asked' | 'straight'> {
  const joined = page.locator('[data-testid="room-page"][data-status="joined"]');
  const dialog = page.getByTestId('nickname-dialog');
  await joined.or(dialog).first().waitFor({ timeout: 30_000 });
  if (!(await dialog.isVisible())) return 'straight';
  await page.getByTestId('nickname-input').fill(nickname);
  await page.getByTestId('nickname-submit').click();
  await joined.waitFor({ timeout: 30_000 });
  return 'asked';
}

export async function stopAndDeleteRoom(page: Page, name: string): Promise<void> {
  await page.goto('/dashboard');
  const card = roomCard(page, name);
  await card.getByTestId('room-stop').click();
  await page
    .locator(`[data-testid="room-card"][data-room-name="${name}"][data-state="stopped"]`)
    .waitFor({ timeout: 60_000 });
  await card.getByTestId('room-delete').click();
  await page.getByTestId('confirm-yes').click();
  await card.waitFor({ state: 'detached' });
}

/** A digest of the room canvas: a 4×4 grid of pixels, its size and the count of pictures drawn. */
export async function canvasSample(page: Page) {
  return page.getByTestId('room-canvas').evaluate((element) => {
    const canvas = element as HTMLCanvasElement;
    const ctx = canvas.getContext('2d');
    if (!ctx || canvas.width < 2) return null;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const grid: number[] = [];
    for (let gx = 0; gx < 4; gx += 1)
      for (let gy = 0; gy < 4; gy += 1) {
        const x = Math.floor((gx + 0.3) * (canvas.width / 4));
        const y = Math.floor((gy + 0.3) * (canvas.height / 4));
        const i = (y * canvas.width + x) * 4;
        grid.push(data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0);
      }
    return {
      grid: grid.join(','),
      width: canvas.width,
      height: canvas.height,
      frames: Number(canvas.dataset.frames ?? 0),
    };
  });
}

/**
 * The picture keeps changing: more pictures drawn, and different pixels, a moment later. Polled rather than taken
 * at a fixed gap: an animated test page's colour comes round every few dozen of its frames, so a sample one period
 * later can match the first exactly.
 */
export async function expectMovingPicture(page: Page): Promise<void> {
  await expect
    .poll(async () => (await canvasSample(page))?.frames ?? 0, { timeout: 30_000 })
    .toBeGreaterThan(10);
  const first = await canvasSample(page);
  // A loaded machine can hold the next picture back for seconds.
  await expect
    .poll(
      async () => {
        const later = await canvasSample(page);
        return (later?.frames ?? 0) > (first?.frames ?? 0) && later?.grid !== first?.grid;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

/** Loudness reaching the participant's speakers, as the room's level meter reads it (RMS, 0..1). */
export async function soundLevel(page: Page): Promise<number> {
  const level = await page.getByTestId('room-sound-level').getAttribute('data-level');
  return Number(level ?? 0);
}

/** Sound on: clicks the autoplay unmute button when the browser asks for it, then waits for audible sound. */
export async function expectSound(page: Page): Promise<void> {
  await page.locator('[data-testid="room-sound"], [data-testid="room-unmute"]').first().waitFor({
    timeout: 30_000,
  });
  if (await page.getByTestId('room-unmute').isVisible()) await page.getByTestId('room-unmute').click();
  await page.locator('[data-testid="room-sound"][data-status="playing"]').waitFor({ timeout: 15_000 });
  await expect.poll(() => soundLevel(page), { timeout: 15_000 }).toBeGreaterThan(0.02);
}

/**
 * A room made through the API, and started unless `start` is false: the rooms journey already covers making one
 * by hand in the dashboard.
 */
export async function roomThroughApi(
  kit: TJourneyKit,
  owner: { token: string },
  body: Record<string, unknown>,
  { start = true } = {},
): Promise<{ id: string; name: string }> {
  const created = await rest<{ id: string; name: string }>(kit.server.app, 'POST', '/api/room/createRoom', {
    token: owner.token,
    body,
  });
  if (created.msg !== 'success') throw new Error(`createRoom: ${JSON.stringify(created.data)}`);
  if (start) {
    const started = await rest(kit.server.app, 'POST', '/api/room/startRoom', {
      token: owner.token,
      body: { id: created.data.id },
    });
    if (started.msg !== 'success') throw new Error(`startRoom: ${JSON.stringify(started.data)}`);
  }
  return created.data;
}

/** The password of the shared room of startSharedRoom; guests' links carry it. */
/**
 * Ends with this page driving the room. The server gives an empty seat to the owner on joining, so the take button
 * can show for a moment and go before a click lands (a reloaded page); a seat someone left behind is taken back.
 */
export async function holdControl(page: Page): Promise<void> {
  const controlling = page.locator('[data-testid="room-page"][data-controlling="true"]');
  const take = page.getByTestId('control-take');
  await page.getByTestId('room-canvas').waitFor();
  await expect
    .poll(
      async () => {
        if ((await controlling.count()) > 0) return true;
        if (await take.isVisible()) await take.click({ timeout: 1_000 }).catch(() => undefined);
        return false;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

export const SHARED_ROOM_PASSWORD = 'sesame';

export interface TSharedRoom {
  kit: TJourneyKit;
  /** The page the room's browser opens, with what it reported. */
  pages: TPages;
  owner: TTestOwner;
  room: { id: string; name: string };
  /** The owner in the room, in control. */
  ownerInRoom(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }>;
  /** A guest without an account, in through the share link (the password in its fragment) under `nickname`. */
  guestInRoom(
    nickname: string,
    options?: { viewport?: { width: number; height: number }; hasTouch?: boolean },
  ): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/**
 * A server with one running room opening `html`, shared by link with a password, and its owner: what the journeys
 * of people in a room start from. The room is made through the API (the rooms journey makes one by hand).
 */
export async function startSharedRoom(options: {
  html: string;
  name: string;
  remark?: string;
  /** More of the journey browser's command line (startJourneys). */
  chromiumArgs?: string[];
}): Promise<TSharedRoom> {
  const pages = await servePages(options.html);
  const roomsDataDir = await mkdtemp(join(tmpdir(), `rooms-${options.name}-journey-`));
  const kit = await startJourneys({
    env: { ROOM_EGRESS_ALLOW: new URL(pages.origin).host, ROOMS_DATA_DIR: roomsDataDir },
    chromiumArgs: options.chromiumArgs,
  });
  const owner = await createOwner(kit.server.app);
  const room = await roomThroughApi(kit, owner, {
    name: uniqueRoomName(options.name),
    ...(options.remark ? { remark: options.remark } : {}),
    password: SHARED_ROOM_PASSWORD,
    region: 'local',
    image: 'chromium-url',
    startUrl: `${pages.origin}/`,
    // People's journeys need a moving picture, not a sharp or smooth one: at 640×360 and 10 frames a second the
    // room's encoder and each page's decoder leave the two cores to the browsers the journey drives (720p at 30
    // kept them ~93 % busy).
    width: 640,
    height: 360,
    maxFrameRate: 10,
  });
  return {
    kit,
    pages,
    owner,
    room,
    async ownerInRoom(viewport = DESKTOP) {
      const context = await signedIn(kit, owner, viewport);
      const page = await context.newPage();
      await page.goto(`/room/${room.id}`);
      await passEntry(page, owner.username);
      await holdControl(page);
      return { context, page };
    },
    async guestInRoom(nickname, { viewport = DESKTOP, hasTouch = false } = {}) {
      const context = await kit.newContext({ viewport, hasTouch });
      const page = await context.newPage();
      await page.goto(`/share/room/${room.id}#password=${SHARED_ROOM_PASSWORD}`);
      await passEntry(page, nickname);
      return { context, page };
    },
    async close() {
      await kit.close();
      pages.server.close();
      await rm(roomsDataDir, { recursive: true, force: true });
    },
  };
}
