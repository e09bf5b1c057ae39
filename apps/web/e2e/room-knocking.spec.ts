// Knocking in real Chromium against the real server: the owner turns on the knock link in the share section, a
// guest opens it (no password), enters a nickname and waits on a page that says so; the owner sees "Kim wants to
// join" and lets them in (the guest is in the room); a second knocker is turned away and told so. An owner on the
// dashboard, outside the room, is told too ("Kim wants to join <room>") and goes into the room from that alert to
// answer. Then in Chinese; and once knocking is off, the old link no longer lets anyone knock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESS_ME_PAGE, startSharedRoom, type TSharedRoom } from './room-support';
import { type Page, screenshots } from './support';

let shared: TSharedRoom;
/** The knock link the owner turned on in the first journey. */
let link = '';
/** Each journey starts browsers and waits on people's pages: more than the project's two minutes under load. */
const JOURNEY_TIMEOUT_MS = 240_000;

beforeAll(async () => {
  shared = await startSharedRoom({ html: PRESS_ME_PAGE, name: 'knock' });
});

afterAll(async () => {
  await shared?.close();
});

/** The owner's share section, from the dashboard's room card. */
async function openShare(page: Page) {
  await page.goto('/dashboard');
  await page
    .locator(`[data-testid="room-card"][data-room-name="${shared.room.name}"]`)
    .getByTestId('room-info')
    .click();
  const dialog = page.getByTestId('room-info-dialog');
  await dialog.getByTestId('room-knock').waitFor();
  return dialog;
}

/** The alert an owner outside the room gets for `nickname`'s knock (components/knock-alerts.tsx). */
const knockAlert = (page: Page, text: string) => page.locator('[role="status"]').filter({ hasText: text });

/** A guest's browser on the knock link, through the nickname entry, to the waiting page. */
async function knock(link: string, nickname: string, language?: string) {
  const context = await shared.kit.newContext();
  if (language) await context.addCookies([{ name: 'language', value: language, url: shared.kit.server.url }]);
  const page = await context.newPage();
  await page.goto(link);
  const dialog = page.getByTestId('nickname-dialog');
  const waiting = page.getByTestId('knock-waiting');
  await dialog.or(waiting).first().waitFor({ timeout: 30_000 });
  if (await dialog.isVisible()) {
    await page.getByTestId('nickname-input').fill(nickname);
    await page.getByTestId('nickname-submit').click();
  }
  await waiting.waitFor({ timeout: 30_000 });
  return { context, page };
}

describe('knocking', () => {
  it(
    'lets the owner admit one knocker and turn another away',
    async () => {
      const { context: ownerContext, page: owner } = await shared.ownerInRoom();
      const settings = await ownerContext.newPage();
      const dialog = await openShare(settings);
      expect(await dialog.getByTestId('room-knock-link').count()).toBe(0);
      await dialog.getByTestId('room-knock-switch').click();
      const linkField = dialog.getByTestId('room-knock-link');
      await linkField.waitFor({ timeout: 15_000 });
      link = await linkField.inputValue();
      expect(link).toMatch(new RegExp(`/share/room/${shared.room.id}#knock=[\\w-]+$`));
      await screenshots(settings, 'room-knock-share');
      await settings.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // A guest knocks and waits; the owner sees who in the room, and on the dashboard an alert.
      const kim = await knock(link, 'Kim');
      expect(await kim.page.getByTestId('knock-waiting').textContent()).toContain(
        'You knocked. Please wait: someone in the room will let you in, or not.',
      );
      await screenshots(kim.page, 'room-knock-waiting');
      const request = owner.getByTestId('knock-request').filter({ hasText: 'Kim wants to join' });
      await request.waitFor({ timeout: 15_000 });
      await screenshots(owner, 'room-knock-request');
      const alert = knockAlert(settings, `Kim wants to join ${shared.room.name}`);
      await alert.waitFor({ timeout: 15_000 });
      expect(await alert.textContent()).toContain('Let them in or turn them away from inside the room.');
      await screenshots(settings, 'room-knock-alert');
      // From the alert into the room, where the owner lets Kim in.
      await alert.getByRole('button', { name: 'Open the room' }).click();
      await settings.waitForURL(`**/room/${shared.room.id}`);
      const fromAlert = settings.getByTestId('knock-request').filter({ hasText: 'Kim wants to join' });
      await fromAlert.waitFor({ timeout: 30_000 });
      await fromAlert.getByTestId('knock-admit').click();
      await kim.page.locator('[data-testid="room-page"][data-status="joined"]').waitFor({ timeout: 30_000 });
      await owner.getByTestId('knock-request').waitFor({ state: 'detached', timeout: 15_000 });

      // Another is turned away, and told so.
      const max = await knock(link, 'Max');
      const second = owner.getByTestId('knock-request').filter({ hasText: 'Max wants to join' });
      await second.waitFor({ timeout: 15_000 });
      await second.getByTestId('knock-refuse').click();
      const notice = max.page.getByTestId('room-notice-text');
      await notice.waitFor({ timeout: 15_000 });
      expect(await notice.getAttribute('data-code')).toBe('KNOCK_TURNED_AWAY');
      expect(await notice.textContent()).toBe('The room’s owner did not let you in');
      await max.context.close();
      await kim.context.close();
      await ownerContext.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'says so in Chinese, and lets nobody knock once knocking is off',
    async () => {
      expect(link).not.toBe('');
      const { context: ownerContext, page: owner } = await shared.ownerInRoom();
      await ownerContext.addCookies([{ name: 'language', value: 'zh-CN', url: shared.kit.server.url }]);
      await owner.reload();
      await owner.locator('[data-testid="room-page"][data-status="joined"]').waitFor({ timeout: 30_000 });
      const dashboard = await ownerContext.newPage();
      await dashboard.goto('/dashboard');
      const lin = await knock(link, 'Lin', 'zh-CN');
      expect(await lin.page.getByTestId('knock-waiting').textContent()).toContain(
        '你已敲门，请稍候：房间里的人会决定是否让你进入。',
      );
      const zhRequest = owner.getByTestId('knock-request').filter({ hasText: 'Lin 想要加入' });
      await zhRequest.waitFor({ timeout: 15_000 });
      expect(await zhRequest.getByTestId('knock-admit').textContent()).toBe('让其进入');
      await screenshots(owner, 'room-knock-request-zh');
      const zhAlert = knockAlert(dashboard, `Lin 想要加入 ${shared.room.name}`);
      await zhAlert.waitFor({ timeout: 15_000 });
      expect(await zhAlert.textContent()).toContain('请进入房间，让对方进来或拒绝。');
      await zhAlert.getByRole('button', { name: '进入房间' }).waitFor();
      await screenshots(dashboard, 'room-knock-alert-zh');
      await zhRequest.getByTestId('knock-refuse').click();
      const zhNotice = lin.page.getByTestId('room-notice-text');
      await zhNotice.waitFor({ timeout: 15_000 });
      expect(await zhNotice.textContent()).toBe('房主没有让你进入');
      // The knock answered in the room, its alert goes too.
      await zhAlert.waitFor({ state: 'detached', timeout: 15_000 });
      await lin.context.close();

      // Knocking off: the old link lets nobody knock (the room answers as a room shared with a password).
      const dialog = await openShare(dashboard);
      await dialog.getByTestId('room-knock-switch').click();
      await dialog.getByTestId('room-knock-link').waitFor({ state: 'detached', timeout: 15_000 });
      const late = await shared.kit.newContext();
      const latePage = await late.newPage();
      await latePage.goto(link);
      await latePage.getByTestId('share-password').waitFor({ timeout: 30_000 });
      await late.close();
      await ownerContext.close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
