// The rooms journey in real Chromium against the real server: log in, create a room whose start page is served
// here on loopback (an animated canvas behind a button), start it, enter, watch the picture move on our canvas,
// click the button through the canvas and see the page react in later frames, then stop and delete the room.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rest } from '@rooms/server/testing';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectMovingPicture, PRESS_ME_PAGE, passEntry, servePages, type TPages } from './room-support';
import {
  DESKTOP,
  login,
  type Page,
  PHONE,
  RESULTS,
  register,
  screenshots,
  startJourneys,
  type TJourneyKit,
  toast,
  uniqueUser,
} from './support';

let kit: TJourneyKit;
let pages: TPages;
let roomsDataDir: string;
const user = uniqueUser('room');

beforeAll(async () => {
  pages = await servePages(PRESS_ME_PAGE);
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-journey-'));
  kit = await startJourneys({
    env: { ROOM_EGRESS_ALLOW: new URL(pages.origin).host, ROOMS_DATA_DIR: roomsDataDir },
  });
});

afterAll(async () => {
  await kit?.close();
  pages?.server.close();
  if (roomsDataDir) await rm(roomsDataDir, { recursive: true, force: true });
});

/** A small digest of the canvas: mean colour of a 4×4 grid of pixels, plus the centre pixel. */
async function canvasSample(page: Page) {
  return page.getByTestId('room-canvas').evaluate((element) => {
    const canvas = element as HTMLCanvasElement;
    const ctx = canvas.getContext('2d');
    if (!ctx || canvas.width < 2) return null;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const at = (x: number, y: number) => {
      const i = (Math.floor(y) * canvas.width + Math.floor(x)) * 4;
      return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
    };
    const grid: number[] = [];
    for (let gx = 0; gx < 4; gx += 1)
      for (let gy = 0; gy < 4; gy += 1)
        grid.push(...at((gx + 0.1) * (canvas.width / 4), (gy + 0.1) * (canvas.height / 4)));
    return {
      grid: grid.join(','),
      centre: at(canvas.width / 2, canvas.height / 2),
      frames: Number(canvas.dataset.frames ?? 0),
    };
  });
}

/** The room's controls a toast lies on: its bar's buttons, the address bar, control and chat. */
async function controlsUnder(page: Page, toast: Locator): Promise<string[]> {
  const box = await toast.boundingBox();
  if (!box) throw new Error('no toast box');
  return page
    .getByTestId('room-page')
    .locator(
      'header :is(button, a), [data-testid^="browser-"], [data-testid^="control-"], [data-testid="chat-input"], [data-testid="chat-send"]',
    )
    .evaluateAll(
      (elements, toastBox) =>
        elements
          .filter((element) => {
            const r = element.getBoundingClientRect();
            return (
              r.width > 0 &&
              r.x < toastBox.x + toastBox.width &&
              toastBox.x < r.x + r.width &&
              r.y < toastBox.y + toastBox.height &&
              toastBox.y < r.y + r.height
            );
          })
          .map((element) => element.getAttribute('data-testid') ?? element.getAttribute('aria-label') ?? ''),
      box,
    );
}

describe('rooms', () => {
  it('creates, starts, enters, watches, clicks and stops a room', async () => {
    const context = await kit.newContext();
    const page = await context.newPage();
    await register(page, kit.server, user);
    await page.waitForURL('**/dashboard');
    await page.getByTestId('rooms-empty').waitFor();
    await screenshots(page, 'dashboard-empty');

    // The top bar's create button opens the dialog on the dashboard.
    await page.getByTestId('topbar-create-room').click();
    const dialog = page.getByTestId('create-room-dialog');
    await dialog.getByTestId('room-name').waitFor();
    const name = `journey-${Date.now().toString(36)}`;
    await dialog.getByTestId('room-name').fill(name);
    await dialog.getByTestId('room-remark').fill('A loopback page');
    await dialog.getByTestId('room-password').fill('sesame');
    // The dialog preselects the first zone and image this user may use; without them it refuses (a room needs both).
    // The choice is made just after the zones arrive.
    await expect
      .poll(() => dialog.getByTestId('room-region').inputValue(), { timeout: 15_000 })
      .toBe('local');
    await dialog.getByTestId('room-region').selectOption('');
    await dialog.getByTestId('create-room-submit').click();
    await toast(page, 'An image and a zone must be chosen');
    await dialog.getByTestId('room-region').selectOption('local');
    await dialog.getByTestId('room-image').selectOption('chromium-url');
    await dialog.getByTestId('room-start-url').fill(`${pages.origin}/`);
    await dialog.getByTestId('room-resolution').selectOption('1280x720');
    await screenshots(page, 'dashboard-create');
    await dialog.getByTestId('create-room-submit').click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.locator(`[data-testid="room-card"][data-room-name="${name}"]`);
    await card.waitFor();
    expect(await card.getAttribute('data-state')).toBe('stopped');

    // The info dialog shows the owner the password.
    await card.getByTestId('room-info').click();
    await expect
      .poll(() => page.getByTestId('room-info-password').textContent(), { timeout: 15_000 })
      .toBe('sesame');
    await page.keyboard.press('Escape');

    await card.getByTestId('room-start').click();
    page.on('response', async (response) => {
      if (response.url().includes('/trpc/room.'))
        console.log(response.url(), response.status(), (await response.text()).slice(0, 300));
    });
    try {
      // A loaded machine has taken 45 s to start a room.
      await page
        .locator(`[data-testid="room-card"][data-room-name="${name}"][data-state="running"]`)
        .waitFor({
          timeout: 60_000,
        });
    } catch (error) {
      console.log('CARD', await card.evaluate((e) => e.outerHTML.slice(0, 600)));
      await page.screenshot({ path: 'apps/web/test-results/debug.png' });
      throw error;
    }
    await screenshots(page, 'dashboard-running');

    // The owner goes straight into their own room: no confirmation, no nickname (their account name).
    await card.getByTestId('room-enter').click();
    await page.waitForURL('**/room/*');
    expect(await passEntry(page, 'unused')).toBe('straight');

    // Joined as the owner, who starts in control.
    await page.locator('[data-testid="room-page"][data-status="joined"][data-controlling="true"]').waitFor({
      timeout: 30_000,
    });
    // The picture moves.
    await expectMovingPicture(page);
    // The frame rate is counted over a second of pictures.
    await expect
      .poll(() => page.getByTestId('quality-indicator').getAttribute('data-fps'), { timeout: 15_000 })
      .not.toBe('0');

    // Before the click the button (centre of the picture) is green; a click through our canvas presses it.
    const before = await canvasSample(page);
    expect(before?.centre[1]).toBeGreaterThan(before?.centre[0] ?? 0);
    const box = await page.getByTestId('room-canvas').boundingBox();
    if (!box) throw new Error('no canvas box');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => pages.events.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect
      .poll(
        async () => {
          const sample = await canvasSample(page);
          return sample ? (sample.centre[0] ?? 0) - (sample.centre[1] ?? 0) : 0;
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(80);

    // Ctrl+F opens the room's own find bar (Chromium's would never get the typing); it finds in the room's page.
    await page.keyboard.press('Control+f');
    const find = page.getByTestId('room-find-input');
    await find.fill('press');
    await find.press('Enter');
    await page.locator('[data-testid="room-find-bar"][data-found="true"]').waitFor();
    await find.fill('no such words here');
    await find.press('Enter');
    await page.getByTestId('room-find-missing').waitFor();
    await find.fill('press');
    await find.press('Shift+Enter');
    await page.locator('[data-testid="room-find-bar"][data-found="true"]').waitFor();
    await screenshots(page, 'room-find');
    await find.press('Escape');
    await page.getByTestId('room-find-bar').waitFor({ state: 'detached' });

    // Fullscreen shows the picture alone, not the whole page; the way out is on the picture.
    await page.getByTestId('room-fullscreen').click();
    // The browser enters and leaves fullscreen asynchronously (the window is resized first).
    await expect
      .poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid') ?? null), {
        timeout: 10_000,
      })
      .toBe('room-stage-box');
    await page.getByTestId('room-exit-fullscreen').click();
    await expect
      .poll(() => page.evaluate(() => document.fullscreenElement === null), { timeout: 10_000 })
      .toBe(true);

    // Chat reaches the room and comes back.
    await page.getByTestId('chat-input').fill('hello room');
    await page.getByTestId('chat-send').click();
    await page.getByTestId('chat-message').filter({ hasText: 'hello room' }).waitFor();
    await expect.poll(() => page.getByTestId('member').count()).toBe(1);
    await screenshots(page, 'room-live');

    // A toast (an empty message's warning) lies on none of the room's controls, on a computer or a phone.
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.getByTestId('chat-send').click();
      const warning = page.locator('[role="status"]').filter({ hasText: 'Please enter a message' }).first();
      await warning.waitFor();
      expect(await controlsUnder(page, warning)).toEqual([]);
      await page.screenshot({ path: join(RESULTS, `room-toast-${viewport.width}x${viewport.height}.png`) });
      await warning.getByRole('button', { name: 'Close' }).click();
      await warning.waitFor({ state: 'detached' });
    }
    await page.setViewportSize(DESKTOP);

    // The room stopped with someone inside is a normal state: the page says so and waits for the room without an
    // error in the console (it asked for a ticket every few seconds, each refused with a 409).
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const roomId = new URL(page.url()).pathname.split('/').pop() ?? '';
    const token = (await context.cookies()).find((cookie) => cookie.name === 'token')?.value ?? '';
    expect(
      (await rest(kit.server.app, 'POST', '/api/room/stopRoom', { token, body: { id: roomId } })).msg,
    ).toBe('success');
    await page.getByTestId('room-away').waitFor({ timeout: 30_000 });
    // The page has asked twice more whether the room runs: the first answer's console line is in by the second's.
    for (let ask = 0; ask < 2; ask += 1) {
      await page.waitForResponse(
        (response) => /\/ws\/ticket|\/trpc\/room\.getRoomEntry/.test(response.url()),
        {
          timeout: 30_000,
        },
      );
    }
    expect(consoleErrors).toEqual([]);
    await screenshots(page, 'room-stopped-owner');

    await page.getByTestId('room-page').getByRole('link').first().click();
    await page.waitForURL('**/dashboard');
    // The list the dashboard kept from before (its rooms' states are fetched again on Refresh).
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator(`[data-testid="room-card"][data-room-name="${name}"][data-state="stopped"]`).waitFor({
      timeout: 60_000,
    });

    await card.getByTestId('room-delete').click();
    await page.getByTestId('delete-room-dialog').waitFor();
    await page.getByTestId('confirm-yes').click();
    await toast(page, `Room ${name} deleted`);
    await page.getByTestId('rooms-empty').waitFor();
    await context.close();
  });

  it('shows the dashboard and the create dialog in Chinese', async () => {
    const context = await kit.newContext();
    const page = await context.newPage();
    await page.goto('/auth/login');
    await login(page, user.email, user.password);
    await page.waitForURL('**/dashboard');
    await context.addCookies([{ name: 'language', value: 'zh-CN', url: kit.server.url }]);
    await page.reload();
    await page.getByTestId('create-room').click();
    const dialog = page.getByTestId('create-room-dialog');
    await dialog.getByTestId('room-name').waitFor();
    await screenshots(page, 'dashboard-create-zh');
    const name = `zh-${Date.now().toString(36)}`;
    await dialog.getByTestId('room-name').fill(name);
    await dialog.getByTestId('room-region').selectOption('local');
    await dialog.getByTestId('room-image').selectOption('chromium-url');
    await dialog.getByTestId('room-start-url').fill(`${pages.origin}/`);
    await dialog.getByTestId('create-room-submit').click();
    await dialog.waitFor({ state: 'detached' });
    const card = page.locator(`[data-testid="room-card"][data-room-name="${name}"]`);
    await card.getByTestId('room-start').click();
    await page.locator(`[data-testid="room-card"][data-room-name="${name}"][data-state="running"]`).waitFor({
      timeout: 60_000,
    });
    await screenshots(page, 'dashboard-running-zh');
    await card.getByTestId('room-enter').click();
    await passEntry(page, 'unused');
    await expect
      .poll(async () => (await canvasSample(page))?.frames ?? 0, { timeout: 30_000 })
      .toBeGreaterThan(2);
    await screenshots(page, 'room-live-zh');
    await page.goto('/dashboard');
    await card.getByTestId('room-stop').click();
    await page.locator(`[data-testid="room-card"][data-room-name="${name}"][data-state="stopped"]`).waitFor({
      timeout: 60_000,
    });
    await context.close();
  });
});
