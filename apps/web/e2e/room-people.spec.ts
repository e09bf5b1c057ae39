// The people side of a room in real Chromium against the real server: a 300-character word and a 300-character
// URL in chat keep the layout (also after a rejoin), the URL is a link that opens in a new tab of the reader's own
// browser, the message box counts toward its limit and refuses a longer message instead of cutting it, a raised hand reaches the owner and the controller as a toast
// whose Give control hands the browser over (once per request), and on a 390 px wide phone the members, the chat
// and the control request all work, with long names cut to fit and the owner's actions in each row's menu.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESS_ME_PAGE, passEntry, startSharedRoom, type TSharedRoom } from './room-support';
import { DESKTOP, type Page, PHONE, screenshots, toast } from './support';

let shared: TSharedRoom;

beforeAll(async () => {
  shared = await startSharedRoom({ html: PRESS_ME_PAGE, name: 'people' });
});

afterAll(async () => {
  await shared?.close();
});

// A request to an empty seat would be granted without asking anyone: the owner holds it.
const ownerInRoom = (viewport = DESKTOP) => shared.ownerInRoom(viewport);
const guestInRoom = (nickname: string, viewport = DESKTOP, hasTouch = false) =>
  shared.guestInRoom(nickname, { viewport, hasTouch });

const controlling = (page: Page) => page.getByTestId('room-page').getAttribute('data-controlling');

/** The toast of `nickname`'s request for control (the name is its title). */
const requestToast = (page: Page, nickname: string) =>
  page
    .locator('[role="status"]')
    .filter({ hasText: nickname })
    .filter({ has: page.getByRole('button', { name: 'Give control' }) });

/** Widths that must not exceed their box: the chat panel, its list, the page, and the widest message. */
async function chatLayout(page: Page) {
  return page.getByTestId('chat-panel').evaluate((panel) => {
    const list = panel.querySelector('[data-testid="chat-messages"]') as HTMLElement;
    const messages = [...panel.querySelectorAll<HTMLElement>('[data-testid="chat-message"]')];
    return {
      panel: { scroll: panel.scrollWidth, client: panel.clientWidth },
      list: { scroll: list.scrollWidth, client: list.clientWidth },
      page: { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth },
      widestMessage: Math.max(...messages.map((message) => message.getBoundingClientRect().width)),
      messagesOverflowing: messages.filter((message) => message.scrollWidth > message.clientWidth).length,
      panelWidth: panel.getBoundingClientRect().width,
    };
  });
}

async function expectChatFits(page: Page) {
  const layout = await chatLayout(page);
  expect(layout.panel.scroll).toBeLessThanOrEqual(layout.panel.client);
  expect(layout.list.scroll).toBeLessThanOrEqual(layout.list.client);
  expect(layout.page.scroll).toBeLessThanOrEqual(layout.page.client);
  expect(layout.widestMessage).toBeLessThanOrEqual(layout.panelWidth);
  expect(layout.messagesOverflowing).toBe(0);
}

describe('people in a room', () => {
  it('keeps the chat inside its panel with a 300-character word and URL, also after a rejoin', async () => {
    const { context, page } = await ownerInRoom();
    const word = `${'Donaudampfschifffahrt'.repeat(15)}`.slice(0, 300);
    const url = `https://example.com/${'path-segment/'.repeat(30)}`.slice(0, 300);
    expect(word).toHaveLength(300);
    expect(url).toHaveLength(300);
    for (const text of [word, url]) {
      await page.getByTestId('chat-input').fill(text);
      await page.getByTestId('chat-send').click();
      await page.getByTestId('chat-message').filter({ hasText: text }).waitFor();
    }
    await expectChatFits(page);
    // The URL breaks only where the line ends: every character is still there, in order, over several lines.
    const link = page.getByTestId('chat-message').filter({ hasText: url });
    expect(await link.textContent()).toContain(url);
    const lines = await link.evaluate(
      (message) =>
        message.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(message).lineHeight),
    );
    expect(lines).toBeGreaterThan(2);
    await screenshots(page, 'room-chat-long-words');

    // The address is a link showing itself in full, opening in a new tab of this browser (not in the room's),
    // which learns neither this page nor where it came from.
    const anchor = link.getByTestId('chat-link');
    expect(await anchor.textContent()).toBe(url);
    expect(await anchor.getAttribute('href')).toBe(url);
    expect(await anchor.getAttribute('target')).toBe('_blank');
    expect(await anchor.getAttribute('rel')).toBe('noopener noreferrer');
    await context.route('https://example.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>linked</title>' }),
    );
    const [opened] = await Promise.all([context.waitForEvent('page'), anchor.click()]);
    await opened.waitForLoadState();
    expect(opened.url()).toBe(url);
    expect(await opened.evaluate(() => [window.opener, document.referrer])).toEqual([null, '']);
    await opened.close();
    expect(new URL(page.url()).pathname).toBe(`/room/${shared.room.id}`);
    // Anything but http(s) stays text.
    await page.getByTestId('chat-input').fill('javascript:alert(document.domain)');
    await page.getByTestId('chat-send').click();
    const script = page.getByTestId('chat-message').filter({ hasText: 'javascript:alert(document.domain)' });
    await script.waitFor();
    expect(await script.getByTestId('chat-link').count()).toBe(0);

    // Near the limit the box counts; over it, it says so and keeps the whole text instead of cutting it.
    const input = page.getByTestId('chat-input');
    await input.fill('a'.repeat(399));
    expect(await page.getByTestId('chat-count').count()).toBe(0);
    await input.fill('b'.repeat(420));
    expect(await page.getByTestId('chat-count').textContent()).toBe('420 / 500 characters');
    const tooLong = `${'c'.repeat(519)}!`;
    await input.fill(tooLong);
    const count = page.getByTestId('chat-count');
    expect(await count.textContent()).toBe('520 / 500 characters: 20 too many to send');
    expect(await count.getAttribute('data-over')).toBe('true');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('chat-send').click();
    await toast(page, 'A message has at most 500 characters; this one has 520. Please shorten it.');
    expect(await input.inputValue()).toBe(tooLong);
    await screenshots(page, 'room-chat-over-limit');
    expect(
      await page
        .getByTestId('chat-message')
        .filter({ hasText: 'c'.repeat(500) })
        .count(),
    ).toBe(0);
    await input.fill(tooLong.slice(20));
    await page.getByTestId('chat-send').click();
    await page
      .getByTestId('chat-message')
      .filter({ hasText: tooLong.slice(20) })
      .waitFor();
    expect(await input.inputValue()).toBe('');

    // A rejoin gets the same messages from the history, and they fit the same way.
    await page.reload();
    expect(await passEntry(page, shared.owner.username)).toBe('straight');
    await page.getByTestId('chat-message').filter({ hasText: url }).waitFor();
    await expectChatFits(page);
    await page.setViewportSize(PHONE);
    await expectChatFits(page);
    await context.close();
  });

  it("shows the owner and the controller a toast for each request, and the toast's Give control hands over", async () => {
    const { context: ownerContext, page: ownerPage } = await ownerInRoom();
    const first = await guestInRoom('Hana');
    const second = await guestInRoom('Ivo');

    await first.page.getByTestId('control-request').click();
    const hanaToast = requestToast(ownerPage, 'Hana');
    await hanaToast.waitFor({ timeout: 15_000 });
    await screenshots(ownerPage, 'room-control-request-toast');

    // More snapshots (someone joins, a second hand goes up) do not toast Hana's request again.
    await second.page.getByTestId('control-request').click();
    await requestToast(ownerPage, 'Ivo').waitFor({ timeout: 15_000 });
    expect(await hanaToast.count()).toBe(1);
    // Nobody else is told: a watcher cannot hand control over.
    expect(await requestToast(second.page, 'Hana').count()).toBe(0);

    await hanaToast.getByRole('button', { name: 'Give control' }).click();
    await expect.poll(() => controlling(first.page), { timeout: 15_000 }).toBe('true');
    // The owner's page hears of the hand-over on its own socket, maybe after Hana's.
    await expect.poll(() => controlling(ownerPage), { timeout: 15_000 }).toBe('false');
    await ownerPage
      .locator('[data-testid="member"][data-controller="true"]')
      .filter({ hasText: 'Hana' })
      .waitFor();
    await hanaToast.waitFor({ state: 'detached' });

    // Ivo still waits: the owner keeps that toast, and Hana, now in control, is told too and can dismiss it.
    expect(await requestToast(ownerPage, 'Ivo').count()).toBe(1);
    const ivoForHana = requestToast(first.page, 'Ivo');
    await ivoForHana.waitFor({ timeout: 15_000 });
    await ivoForHana.getByRole('button', { name: 'Dismiss' }).click();
    await ivoForHana.waitFor({ state: 'detached' });
    await second.page.getByTestId('control-cancel').waitFor();

    // Ivo gives up: the owner's toast goes with the request.
    await second.page.getByTestId('control-cancel').click();
    await requestToast(ownerPage, 'Ivo').waitFor({ state: 'detached', timeout: 15_000 });

    // The chime is on by default for those who can hand over; turning it off is remembered.
    const chime = ownerPage.getByTestId('control-request-sound');
    expect(await chime.getAttribute('aria-pressed')).toBe('true');
    expect(await first.page.getByTestId('control-request-sound').count()).toBe(1);
    expect(await second.page.getByTestId('control-request-sound').count()).toBe(0);
    await chime.click();
    await ownerPage.reload();
    await passEntry(ownerPage, shared.owner.username);
    expect(await ownerPage.getByTestId('control-request-sound').getAttribute('aria-pressed')).toBe('false');
    await ownerPage.getByTestId('control-request-sound').click();

    await first.context.close();
    await second.context.close();
    await ownerContext.close();
  });

  it('works on a 390 px wide phone: members, chat and asking for control', async () => {
    const { context: ownerContext, page: ownerPage } = await ownerInRoom();
    // The longest nickname the room accepts, with no space to break at.
    const nickname = 'Wolfeschlegelsteinhausen';
    const phone = await guestInRoom(nickname, PHONE, true);
    const { page } = phone;

    const panel = page.getByTestId('members-panel');
    const me = panel.getByTestId('member').filter({ hasText: nickname });
    await me.waitFor();
    expect(await panel.getByTestId('member').count()).toBe(2);
    await panel.getByTestId('member-in-control').waitFor();
    const fits = await panel.evaluate((element) => ({
      panel: element.scrollWidth <= element.clientWidth,
      page: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      // Every row's last item (the pill or the badge) ends inside the row.
      rows: [...element.querySelectorAll('[data-testid="member"]')].every((row) => {
        const last = row.lastElementChild?.getBoundingClientRect();
        return last !== undefined && last.right <= row.getBoundingClientRect().right + 0.5;
      }),
    }));
    expect(fits).toEqual({ panel: true, page: true, rows: true });

    // Chat: type, send, read it back.
    await page.getByTestId('chat-input').fill('hello from a phone');
    await page.getByTestId('chat-send').click();
    await page.getByTestId('chat-message').filter({ hasText: 'hello from a phone' }).waitFor();
    await expectChatFits(page);

    // Asking for control: the button turns into Cancel and the owner hears of it.
    await page.getByTestId('control-request').click();
    await page.getByTestId('control-cancel').waitFor();
    await requestToast(ownerPage, nickname).waitFor({ timeout: 15_000 });
    await screenshots(page, 'room-phone-waiting');

    // The owner hands over from the row's menu, where kick and ban also are.
    await ownerPage.setViewportSize(PHONE);
    const row = ownerPage.getByTestId('member').filter({ hasText: nickname });
    const name = row.getByTestId('member-name');
    // Cut to fit beside the badges and actions, with the whole name in a tooltip.
    expect(await name.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await name.hover();
    await ownerPage.getByRole('tooltip').filter({ hasText: nickname }).waitFor();
    await row.getByTestId('member-actions').click();
    const menu = ownerPage.getByTestId('member-actions-menu');
    await menu.getByTestId('member-kick').waitFor();
    await menu.getByTestId('member-ban').waitFor();
    await screenshots(ownerPage, 'room-phone-member-menu');
    await menu.getByTestId('member-grant').click();
    await expect.poll(() => controlling(page), { timeout: 15_000 }).toBe('true');
    await requestToast(ownerPage, nickname).waitFor({ state: 'detached' });
    await page.getByTestId('control-release').waitFor();
    await screenshots(page, 'room-phone-in-control');

    // The finger drives as it does on a phone: a tap on the button clicks it, a swipe up scrolls the page down.
    const clicks = () => shared.pages.events.filter((event) => event === '/event/clicked').length;
    const before = clicks();
    const canvas = await page.getByTestId('room-canvas').boundingBox();
    if (!canvas) throw new Error('no room canvas');
    const x = canvas.x + canvas.width / 2;
    await page.touchscreen.tap(x, canvas.y + canvas.height / 2);
    await expect.poll(clicks, { timeout: 10_000 }).toBe(before + 1);
    const touch = await phone.context.newCDPSession(page);
    const at = (share: number) => [{ x, y: canvas.y + canvas.height * share }];
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0.8) });
    for (let step = 1; step <= 8; step++) {
      await touch.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: at(0.8 - step * 0.075),
      });
      await page.waitForTimeout(16);
    }
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect
      .poll(() => shared.pages.events.includes('/event/scrolled-down'), { timeout: 10_000 })
      .toBe(true);
    // A swipe is no click.
    expect(clicks()).toBe(before + 1);

    await phone.context.close();
    await ownerContext.close();
  });
});
