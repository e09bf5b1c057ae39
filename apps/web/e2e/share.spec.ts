// Sharing journeys in real Chromium against the real server: the owner shares a password room and a guest without
// an account comes in through the link (password, nickname, live picture, chat, control, a click), stays a guest
// through a restart, and is removed (asked first), kept out and let back in by the owner; then the room goes public
// and a logged-in user finds it in the square, thumbnail and all, and joins it.
import { COOKIES } from '@rooms/i18n';
import { createOwner } from '@rooms/server/testing';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PRESS_ME_PAGE,
  passEntry,
  SHARED_ROOM_PASSWORD,
  startSharedRoom,
  type TSharedRoom,
} from './room-support';
import { type Page, screenshots, signedIn, toast } from './support';

let shared: TSharedRoom;

beforeAll(async () => {
  shared = await startSharedRoom({
    html: PRESS_ME_PAGE,
    name: 'shared',
    remark: 'Press the button together',
  });
});

afterAll(async () => {
  await shared?.close();
});

async function frames(page: Page): Promise<number> {
  return page
    .getByTestId('room-canvas')
    .evaluate((canvas) => Number((canvas as HTMLCanvasElement).dataset.frames ?? 0));
}

/** The entry when the room asks for one, then the joined room with a moving picture. */
async function enterRoom(page: Page, nickname: string) {
  await passEntry(page, nickname);
  await expect.poll(() => frames(page), { timeout: 30_000 }).toBeGreaterThan(2);
}

/** Keeps every text the away cover shows (a restart's can be gone in a second). */
async function recordAwayTexts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { awayTexts: string[] }).awayTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="room-away-text"]')?.textContent;
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const awayTexts = (page: Page) =>
  page.evaluate(() => (window as unknown as { awayTexts: string[] }).awayTexts);

const controlling = (page: Page) => page.getByTestId('room-page').getAttribute('data-controlling');

/** Signs this browser in (as a login in another of its tabs would), leaving its open pages as they are. */
async function signInElsewhere(context: BrowserContext, user: { token: string; username: string }) {
  const expires = Date.now() + 24 * 60 * 60 * 1000;
  await context.addCookies(
    [
      [COOKIES.token, user.token],
      [COOKIES.tokenExpires, String(expires)],
      [COOKIES.username, user.username],
    ].map(([name, value]) => ({
      name: name!,
      value: value!,
      url: shared.kit.server.url,
      expires: expires / 1000,
    })),
  );
}

const guestTag = (page: Page, nickname: string) =>
  page.getByTestId('member').filter({ hasText: nickname }).locator('text=Guest').count();

describe('sharing', () => {
  it('lets a guest in by the share link and password, to watch, chat, take control and click', async () => {
    const ownerContext = await signedIn(shared.kit, shared.owner);
    const ownerPage = await ownerContext.newPage();
    await ownerPage.goto('/dashboard');
    const card = ownerPage.locator(`[data-testid="room-card"][data-room-name="${shared.room.name}"]`);
    await card.getByTestId('room-info').click();
    const share = ownerPage.getByTestId('room-share');
    await share.waitFor();
    await expect
      .poll(() => share.getByTestId('room-share-password').inputValue(), { timeout: 15_000 })
      .toBe(SHARED_ROOM_PASSWORD);
    await share.getByTestId('room-share-qr').waitFor();
    // An image is decoded after it is attached: its size reads 0 until then.
    await expect
      .poll(
        () =>
          share.getByTestId('room-share-qr').evaluate((image) => (image as HTMLImageElement).naturalWidth),
        { timeout: 5_000 },
      )
      .toBe(300);
    // The link carries the password in its fragment; without it, the guest is asked for it.
    expect(await share.getByTestId('room-share-link').inputValue()).toMatch(
      new RegExp(`/share/room/${shared.room.id}#password=${SHARED_ROOM_PASSWORD}$`),
    );
    await share.getByTestId('room-share-with-password').click();
    const link = await share.getByTestId('room-share-link').inputValue();
    expect(link).toMatch(new RegExp(`/share/room/${shared.room.id}$`));
    await share.getByTestId('room-share-copy').click();
    await toast(ownerPage, 'share link copied to clipboard');
    expect(await ownerPage.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await screenshots(ownerPage, 'room-share-dialog');
    await ownerPage.keyboard.press('Escape');

    await card.getByTestId('room-enter').click();
    await enterRoom(ownerPage, 'Olga');
    expect(await controlling(ownerPage)).toBe('true');

    // The guest: no account, the link (on this server: the test server's public URL is not its listening port).
    const guestContext = await shared.kit.newContext();
    const guest = await guestContext.newPage();
    const requested: string[] = [];
    guest.on('request', (request) => requested.push(request.url()));
    await guest.goto(new URL(link).pathname);
    await guest.getByTestId('share-password').waitFor();
    await guest.getByTestId('share-password-input').fill('wrong');
    await guest.getByTestId('share-password-submit').click();
    await guest
      .getByTestId('share-password-error')
      .filter({ hasText: 'The room password is incorrect' })
      .waitFor();
    await guest.getByTestId('share-password-input').fill(SHARED_ROOM_PASSWORD);
    await guest.getByTestId('share-password-submit').click();
    // One step: who invites and who is inside, the nickname, and the warning that the owner is inside.
    await guest.getByTestId('share-lobby').waitFor();
    expect(await guest.getByTestId('entry-room-name').textContent()).toBe(shared.room.name);
    await guest.getByTestId('enter-confirm').waitFor();
    await screenshots(guest, 'share-lobby');
    // The password never travels in a URL: not in the address bar, not in any request the page made.
    expect(guest.url()).not.toContain(SHARED_ROOM_PASSWORD);
    // An empty nickname is refused with the spec's words.
    await guest.getByTestId('nickname-input').fill('');
    await guest.getByTestId('nickname-submit').click();
    await toast(guest, 'Please enter your nickname');
    await enterRoom(guest, 'Gus');
    await screenshots(guest, 'share-guest-live');

    // The picture moves for the guest too, and the guest sees no owner action.
    const before = await frames(guest);
    await expect.poll(() => frames(guest), { timeout: 15_000 }).toBeGreaterThan(before + 2);
    expect(await guest.getByTestId('control-take').count()).toBe(0);
    expect(await guest.getByTestId('member-kick').count()).toBe(0);
    expect(await guest.getByTestId('member-ban').count()).toBe(0);

    // Chat both ways.
    await guest.getByTestId('chat-input').fill('hello from the guest');
    await guest.getByTestId('chat-send').click();
    await ownerPage.getByTestId('chat-message').filter({ hasText: 'hello from the guest' }).waitFor();

    // The guest asks for control; the owner hands it over; the guest clicks the page's button.
    await guest.getByTestId('control-request').click();
    const gusRow = ownerPage.getByTestId('member').filter({ hasText: 'Gus' });
    await gusRow.getByTestId('control-grant').click();
    await expect.poll(() => controlling(guest), { timeout: 15_000 }).toBe('true');
    // The owner's page hears of the hand-over on its own socket, maybe after the guest's.
    await expect.poll(() => controlling(ownerPage), { timeout: 15_000 }).toBe('false');
    const box = await guest.getByTestId('room-canvas').boundingBox();
    if (!box) throw new Error('no canvas box');
    const clicked = shared.pages.events.length;
    await guest.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => shared.pages.events.length, { timeout: 15_000 }).toBeGreaterThan(clicked);

    // The owner takes control back.
    await ownerPage.getByTestId('control-take').click();
    await expect.poll(() => controlling(ownerPage), { timeout: 15_000 }).toBe('true');
    await expect.poll(() => controlling(guest), { timeout: 15_000 }).toBe('false');

    // A reload brings the guest straight back: no password, no nickname, no confirmation.
    await guest.reload();
    expect(await passEntry(guest, 'unused')).toBe('straight');
    expect(requested.filter((url) => url.includes(SHARED_ROOM_PASSWORD))).toEqual([]);

    // The guest signs in to an account in another tab of the same browser. The room's page entered as a guest and
    // stays one: the owner keeps seeing a guest, through the restart below too.
    await signInElsewhere(guestContext, await createOwner(shared.kit.server.app));

    // The owner restarts the room from the dashboard with both inside: asked first, then both pages say who is
    // restarting it and show the picture again by themselves.
    const people = [ownerPage, guest];
    for (const page of people) await recordAwayTexts(page);
    const dashboard = await ownerContext.newPage();
    await dashboard.goto('/dashboard');
    const liveCard = dashboard.locator(`[data-testid="room-card"][data-room-name="${shared.room.name}"]`);
    await liveCard.getByTestId('room-restart').click();
    const ask = dashboard.getByTestId('room-interrupt-dialog');
    await ask.waitFor();
    expect(await ask.textContent()).toContain('People inside now: 2');
    await screenshots(dashboard, 'room-restart-confirm');
    const clickedAt = Date.now();
    await dashboard.getByTestId('confirm-yes').click();
    await liveCard.and(dashboard.locator('[data-state="starting"]')).waitFor();
    await liveCard.and(dashboard.locator('[data-state="running"]')).waitFor({ timeout: 60_000 });
    const runningAt = Date.now();
    // Back in and a new picture: each page asks again every 700 ms, then waits for the room's page to draw.
    for (const page of people) {
      await page.locator('[data-testid="room-page"][data-status="joined"]').waitFor({ timeout: 30_000 });
      const shown = await frames(page);
      await expect.poll(() => frames(page), { timeout: 30_000 }).toBeGreaterThan(shown);
    }
    // Back after the restart, the guest is still shown as one, to the owner and to themselves.
    await ownerPage.getByTestId('member').filter({ hasText: 'Gus' }).waitFor();
    expect(await guestTag(ownerPage, 'Gus')).toBe(1);
    expect(await guestTag(guest, 'Gus')).toBe(1);
    expect(await awayTexts(guest)).toContain(`${shared.owner.username} is restarting the room…`);
    expect(await awayTexts(ownerPage)).toContain('You are restarting the room…');
    console.log(
      `[restart] picture back for both ${Date.now() - runningAt} ms after the room ran again ` +
        `(${Date.now() - clickedAt} ms after the click)`,
    );

    // Stopping says who stopped it; the owner starts it again from the room page and both are back.
    await liveCard.getByTestId('room-stop').click();
    await ask.waitFor();
    await dashboard.getByTestId('confirm-yes').click();
    await guest
      .getByTestId('room-away-text')
      .filter({ hasText: `${shared.owner.username} stopped the room.` })
      .waitFor({ timeout: 30_000 });
    await ownerPage.getByTestId('room-away-text').filter({ hasText: 'You stopped the room.' }).waitFor();
    expect(await guest.getByTestId('room-away-start').count()).toBe(0);
    // While the room is away nothing pretends to work: chat is closed (what was typed stays), control is not offered.
    for (const page of people) {
      expect(await page.getByTestId('chat-input').isDisabled()).toBe(true);
      expect(await page.getByTestId('chat-input').getAttribute('placeholder')).toBe(
        'Chat is back when the room is',
      );
      expect(await page.locator('[data-testid^="control-"]').count()).toBe(0);
    }
    await screenshots(guest, 'room-stopped-guest');
    await ownerPage.getByTestId('room-away-start').click();
    for (const page of people) {
      await page.locator('[data-testid="room-page"][data-status="joined"]').waitFor({ timeout: 30_000 });
      const shown = await frames(page);
      await expect.poll(() => frames(page), { timeout: 15_000 }).toBeGreaterThan(shown);
    }

    await guestContext.close();
    await ownerContext.close();
  });

  it('asks before removing a guest, keeps them out of that browser, and lets them back in at the owner’s word', async () => {
    const { context: ownerContext, page: ownerPage } = await shared.ownerInRoom();
    const { context: guestContext, page: guest } = await shared.guestInRoom('Gus');
    await ownerPage.getByTestId('member').filter({ hasText: 'Gus' }).waitFor();

    // Removing Gus asks first, naming him; saying no changes nothing.
    const removeGus = async () => {
      await ownerPage.getByTestId('member').filter({ hasText: 'Gus' }).getByTestId('member-actions').click();
      await ownerPage.getByTestId('member-actions-menu').getByTestId('member-kick').click();
      const ask = ownerPage.getByTestId('member-kick-dialog');
      await ask.waitFor();
      expect(await ask.textContent()).toContain('Remove Gus from the room?');
      return ask;
    };
    const asked = await removeGus();
    await screenshots(ownerPage, 'room-remove-confirm');
    await asked.getByTestId('confirm-no').click();
    await ownerPage.getByTestId('member-kick-dialog').waitFor({ state: 'detached' });
    expect(await guest.getByTestId('room-page').getAttribute('data-status')).toBe('joined');
    await (await removeGus()).getByTestId('confirm-yes').click();
    await guest
      .getByTestId('room-notice-text')
      .filter({ hasText: 'You were removed from the room by its owner' })
      .waitFor({ timeout: 15_000 });
    // The owner sees whom they removed, and the people inside are counted without him.
    const removed = ownerPage.getByTestId('removed-member').filter({ hasText: 'Gus' });
    await removed.waitFor();
    expect(await removed.locator('text=Guest').count()).toBe(1);
    await expect.poll(() => ownerPage.getByTestId('members-count').getAttribute('data-count')).toBe('1');
    await screenshots(ownerPage, 'room-removed-list');

    // Reopening the link in another tab of the same browser does not bring him back, under another name either.
    const again = await guestContext.newPage();
    await again.goto(`/share/room/${shared.room.id}#password=${SHARED_ROOM_PASSWORD}`);
    await again.getByTestId('nickname-input').fill('Not Gus');
    await again.getByTestId('nickname-submit').click();
    await again
      .getByTestId('room-notice-text')
      .filter({ hasText: 'You were removed from the room by its owner' })
      .waitFor({ timeout: 15_000 });

    // The owner lets him back in: the same tab comes in again, still a guest.
    await removed.getByTestId('member-readmit').click();
    await removed.waitFor({ state: 'detached' });
    await again.reload();
    await enterRoom(again, 'Gus');
    await ownerPage.getByTestId('member').filter({ hasText: 'Gus' }).waitFor();
    expect(await guestTag(ownerPage, 'Gus')).toBe(1);

    await guestContext.close();
    await ownerContext.close();
  });

  it('shows a public room in the square with its thumbnail, and a logged-in user joins it', async () => {
    const ownerContext = await signedIn(shared.kit, shared.owner);
    const ownerPage = await ownerContext.newPage();
    await ownerPage.goto('/dashboard');
    const card = ownerPage.locator(`[data-testid="room-card"][data-room-name="${shared.room.name}"]`);
    await card.getByTestId('room-info').click();
    // Making it public asks first, with the danger warning.
    await ownerPage.getByTestId('room-share-public').click();
    const confirm = ownerPage.getByTestId('room-public-confirm');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('open to anyone');
    await ownerPage.getByTestId('confirm-yes').click();
    await toast(ownerPage, 'The room is now public');
    await ownerContext.close();

    const visitor = await createOwner(shared.kit.server.app);
    const context = await signedIn(shared.kit, visitor);
    const page = await context.newPage();
    await page.goto('/publicrooms');
    const listed = page.locator(`[data-testid="public-room"][data-room-name="${shared.room.name}"]`);
    await listed.waitFor({ timeout: 15_000 });
    expect(await listed.textContent()).toContain(shared.owner.username);
    expect(await listed.textContent()).toContain('Press the button together');
    const thumbnail = listed.getByTestId('public-room-thumbnail');
    await expect
      .poll(() => thumbnail.evaluate((image) => (image as HTMLImageElement).naturalWidth), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    expect(await thumbnail.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeLessThanOrEqual(
      320,
    );
    await screenshots(page, 'public-rooms');

    await listed.getByTestId('public-room-join').click();
    await page.waitForURL(`**/room/${shared.room.id}`);
    await enterRoom(page, 'Vera');
    const me = page.getByTestId('member').filter({ hasText: 'Vera' });
    // The members arrive on the socket: a count before the row is there would say nothing.
    await me.waitFor();
    expect(await me.locator('text=Guest').count()).toBe(0);

    // A logged-in user who follows a share link joins as themselves, not as a guest.
    const second = await context.newPage();
    await second.goto(`/share/room/${shared.room.id}`);
    await enterRoom(second, 'Vera too');
    const row = second.getByTestId('member').filter({ hasText: 'Vera too' });
    await row.waitFor();
    expect(await row.locator('text=Guest').count()).toBe(0);
    await context.close();
  });
});
