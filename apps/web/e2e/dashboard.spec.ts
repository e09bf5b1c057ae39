// The dashboard's dialogs and cards as a user meets them: a toast raised while the create dialog is open shows above
// it and can be closed, the name field says its rule, "Create and start" takes the owner into the new running room
// (and, with no room time left, keeps the room and says why), a dialog closed with Escape gives focus back to the
// control that opened it, the auto-close times read '1 hour', a long remark stays inside its card on a phone, and a
// phone visitor on the landing page can log in.
import { UsageMonth, User } from '@rooms/db';
import { storedRoom, storedUser, type TStoredUser } from '@rooms/server/testing';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Page, PHONE, screenshots, signedIn, startJourneys, type TJourneyKit } from './support';

let kit: TJourneyKit;
let owner: TStoredUser;
const LONG_WORD = 'Pneumonoultramicroscopicsilicovolcanoconiosis_and_more_text';
const LONG_NAME = `long_${Date.now().toString(36)}_name_without_breaks`.slice(0, 32);

beforeAll(async () => {
  kit = await startJourneys();
  owner = await storedUser(kit.server.app.orm, { prefix: 'dash', plan: 'pro' });
  await storedRoom(kit.server.app.orm, owner.id, {
    startUrl: 'http://127.0.0.1/',
    name: LONG_NAME,
    remark: `Remark with a very long unbroken word ${LONG_WORD} https://example.com/${LONG_WORD}`,
  });
});

afterAll(async () => {
  await kit?.close();
});

async function dashboard(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await signedIn(kit, owner, viewport);
  const page = await context.newPage();
  await page.goto('/dashboard');
  await page.getByTestId('room-card').first().waitFor();
  return page;
}

/** Which of `controls` (named by test id, label or text) the toast lies on. */
async function coveredBy(toast: Locator, controls: Locator): Promise<string[]> {
  const box = await toast.boundingBox();
  if (!box) throw new Error('no toast box');
  return controls.evaluateAll(
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
        .map(
          (element) =>
            element.getAttribute('data-testid') ??
            element.getAttribute('aria-label') ??
            element.textContent?.trim() ??
            '',
        ),
    box,
  );
}

/** Whether the element's centre is hit by a pointer there, i.e. nothing (an overlay, a dialog) lies on top. */
const onTop = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const box = element.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return hit !== null && element.contains(hit);
    });

describe('dashboard', () => {
  it('shows a toast above the create dialog, closes it by its button and tells the name rule in the field', async () => {
    const page = await dashboard();
    await page.getByTestId('create-room').click();
    const dialog = page.getByTestId('create-room-dialog');
    const name = dialog.getByTestId('room-name');
    await name.waitFor();

    await dialog.getByTestId('create-room-submit').click();
    const warning = page.locator('[role="status"]').filter({ hasText: 'Please enter a room name' });
    await warning.waitFor();
    await screenshots(page, 'dashboard-toast-over-dialog');
    expect(await onTop(page, '[role="status"] button[aria-label="Close"]')).toBe(true);
    await warning.getByRole('button', { name: 'Close' }).click({ timeout: 3_000 });
    await warning.waitFor({ state: 'detached' });
    // Closing the toast is not a click outside the dialog: the dialog stays open.
    expect(await dialog.isVisible()).toBe(true);

    // The field itself says the rule, and marks a name that breaks it.
    expect(await dialog.getByText('Letters, digits, - and _', { exact: false }).isVisible()).toBe(true);
    expect(await name.getAttribute('aria-invalid')).toBe('true');

    await name.fill('Movie night');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await dialog.getByText('may only contain letters, digits, - and _', { exact: false }).waitFor();
    await name.fill('movie-night');
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    await page.context().close();
  });

  it('creates and starts a room in one step and takes the owner into it', async () => {
    const page = await dashboard();
    await page.getByTestId('create-room').click();
    const dialog = page.getByTestId('create-room-dialog');
    const name = `go_${Date.now().toString(36)}`;
    await dialog.getByTestId('room-name').fill(name);
    // Zone and image come preselected (a blank page needs nothing more); the default button starts the room too.
    await expect.poll(() => dialog.getByTestId('room-image').inputValue(), { timeout: 15_000 }).not.toBe('');
    expect(await dialog.getByTestId('create-room-start').getAttribute('type')).toBe('submit');
    await dialog.getByTestId('create-room-start').click();
    // A browser's start takes a while on a loaded machine.
    await page.waitForURL('**/room/*', { timeout: 60_000 });
    await page.locator('[data-testid="room-page"][data-status="joined"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('room-title').textContent()).toBe(name);
    await page.goto('/dashboard');
    await page.locator(`[data-testid="room-card"][data-room-name="${name}"][data-state="running"]`).waitFor();
    await page.context().close();
  });

  it('keeps a room it could not start for lack of room time, and says why', async () => {
    // A free account whose month of free time is spent.
    const spent = await storedUser(kit.server.app.orm, { prefix: 'spent', plan: null });
    const em = kit.server.app.orm.em.fork();
    em.create(UsageMonth, {
      user: em.getReference(User, spent.id),
      month: new Date().toISOString().slice(0, 7),
      freeUsedSeconds: 1_000_000,
    });
    await em.flush();
    const page = await (await signedIn(kit, spent)).newPage();
    await page.goto('/dashboard');
    await page.getByTestId('rooms-empty').waitFor();
    await page.getByTestId('create-room').first().click();
    const dialog = page.getByTestId('create-room-dialog');
    const name = `wait_${Date.now().toString(36)}`;
    await dialog.getByTestId('room-name').fill(name);
    await expect.poll(() => dialog.getByTestId('room-image').inputValue(), { timeout: 15_000 }).not.toBe('');
    await dialog.getByTestId('room-name').press('Enter');
    const notStarted = dialog.getByTestId('create-room-not-started');
    await notStarted.waitFor({ timeout: 30_000 });
    expect(await notStarted.textContent()).toContain(`The room ${name} was created, but it could not start.`);
    expect(await dialog.getByTestId('create-room-not-started-reason').textContent()).toBe(
      'Your room time is used up; buy a plan or wait for next month’s free time',
    );
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await screenshots(page, 'dashboard-create-no-time');
    await dialog.getByTestId('create-room-not-started-close').click();
    await page.locator(`[data-testid="room-card"][data-room-name="${name}"][data-state="stopped"]`).waitFor();
    await page.context().close();
  });

  it('keeps toasts off the buttons: the top bar’s and the page’s, and a dialog’s on a phone', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      // No dialog open: a room deleted. The toast keeps clear of the top bar and of the page's own buttons.
      const doomed = await storedRoom(kit.server.app.orm, owner.id, { startUrl: 'http://127.0.0.1/' });
      const page = await dashboard(viewport);
      const card = page.locator(`[data-testid="room-card"][data-room-name="${doomed.name}"]`);
      await card.getByTestId('room-delete').click();
      await page.getByTestId('confirm-yes').click();
      const deleted = page.locator('[role="status"]').filter({ hasText: `Room ${doomed.name} deleted` });
      await deleted.waitFor();
      const pageButtons = page.locator('header :is(button, a), [data-testid="create-room"]');
      expect(await coveredBy(deleted, pageButtons)).toEqual([]);
      await screenshots(page, 'dashboard-toast');
      await deleted.getByRole('button', { name: 'Close' }).click();

      // A dialog open: the toast goes to the top, clear of the dialog's buttons at its foot.
      await page.getByTestId('create-room').click();
      const dialog = page.getByTestId('create-room-dialog');
      await dialog.getByTestId('room-name').waitFor();
      const create = dialog.locator('button[type="submit"]').first();
      await create.scrollIntoViewIfNeeded();
      await create.click();
      const warning = page.locator('[role="status"]').filter({ hasText: 'Please enter a room name' });
      await warning.waitFor();
      expect(
        await coveredBy(warning, dialog.locator('button[type="submit"], [data-testid^="create-room-"]')),
      ).toEqual([]);
      await screenshots(page, 'dashboard-toast-dialog');
      await page.context().close();
    }
  });

  it('names the auto-close times with the right plural', async () => {
    const page = await dashboard();
    await page.getByTestId('create-room').click();
    const select = page.getByTestId('create-room-dialog').getByLabel('Auto-close time');
    await select.waitFor();
    const options = await select.locator('option').allTextContents();
    expect(options).toContain('5 minutes');
    expect(options).toContain('1 hour');
    expect(options).toContain('2 hours');
    expect(options).not.toContain('1 hours');
    await page.context().close();
  });

  it('gives focus back to the control that opened a dialog when Escape closes it', async () => {
    const page = await dashboard();
    const card = page.locator(`[data-testid="room-card"][data-room-name="${LONG_NAME}"]`);
    for (const opener of [
      card.getByTestId('room-info'),
      card.getByTestId('room-delete'),
      page.getByTestId('create-room'),
    ]) {
      await opener.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      // The dialog gives focus back as it unmounts, a task after it has left the page.
      await expect
        .poll(() => opener.evaluate((element) => element === document.activeElement), { timeout: 2_000 })
        .toBe(true);
    }
    await page.context().close();
  });

  it('keeps a long name and remark inside the card on a phone', async () => {
    const page = await dashboard(PHONE);
    await screenshots(page, 'dashboard-long-remark');
    const card = page.locator(`[data-testid="room-card"][data-room-name="${LONG_NAME}"]`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const cardBox = await card.boundingBox();
    expect(cardBox!.x + cardBox!.width).toBeLessThanOrEqual(PHONE.width);
    for (const part of [card.getByTestId('room-state'), card.getByTestId('room-info')]) {
      const box = await part.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width);
    }
    await page.context().close();
  });

  it('offers Log in next to Sign up on the landing page on a phone', async () => {
    const context = await kit.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/');
    const header = page.locator('header');
    await header.getByRole('link', { name: 'Sign up' }).waitFor();
    expect(await header.getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);
    await context.close();
  });
});
