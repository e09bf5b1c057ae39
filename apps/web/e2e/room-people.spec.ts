// The people side of a room in real Chromium against the real server: a 300-character word and a 300-character
// URL in chat keep the layout (also after a rejoin), the URL is a link that opens in a new tab of the reader's own
// browser, the message box counts toward its limit and refuses a longer message instead of cutting it, a raised hand reaches the owner and the controller as a toast
// whose Give control hands the browser over (once per request), and on a 390 px wide phone the members, the chat
// and the control request all work, with long names cut to fit and the owner's actions in each row's menu; the
// owner on a laptop and a phone is one person with two devices, never offered for removal, and counted once. A guest
// points and reacts, and the owner sees the guest's labelled pointer over the picture and the reaction floating up,
// in English and in Chinese.
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

  it("shows one account on two devices as one person with a device count, and never offers the owner's other device for removal", async () => {
    const laptop = await ownerInRoom();
    const phone = await ownerInRoom(PHONE);
    const guest = await guestInRoom('Hana');
    const name = shared.owner.username;
    for (const page of [laptop.page, phone.page, guest.page]) {
      const panel = page.getByTestId('members-panel');
      await expect.poll(() => panel.getByTestId('member').count()).toBe(2);
      expect(await panel.getByTestId('members-count').getAttribute('data-count')).toBe('2');
      const owner = panel.getByTestId('member').filter({ hasText: name });
      expect(await owner.getByTestId('member-devices').textContent()).toBe('(2 devices)');
    }
    // The owner's own row (this device and the phone) has no Remove or Ban; the guest's has.
    const own = laptop.page.getByTestId('member').filter({ hasText: name });
    expect(await own.textContent()).toContain('(you)');
    expect(await own.getByTestId('member-actions').count()).toBe(0);
    await laptop.page.getByTestId('member').filter({ hasText: 'Hana' }).getByTestId('member-actions').click();
    await laptop.page.getByTestId('member-actions-menu').getByTestId('member-kick').waitFor();
    await laptop.page.keyboard.press('Escape');
    await screenshots(laptop.page, 'room-owner-two-devices');

    // The dashboard counts people too: stopping asks about 2 people inside, not 3 connections.
    const dashboard = await laptop.context.newPage();
    await dashboard.goto('/dashboard');
    await dashboard
      .locator(`[data-testid="room-card"][data-room-name="${shared.room.name}"]`)
      .getByTestId('room-stop')
      .click();
    const ask = dashboard.getByTestId('room-interrupt-dialog');
    await ask.waitFor();
    expect(await ask.textContent()).toContain('People inside now: 2');
    await ask.getByTestId('confirm-no').click();

    await guest.context.close();
    await phone.context.close();
    await laptop.context.close();
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

  it("shows a guest's pointer to the owner as a labelled ghost, and the guest's reactions, in English and Chinese", async () => {
    const { context: ownerContext, page: ownerPage } = await ownerInRoom();
    const guest = await guestInRoom('Pia');
    const { page } = guest;
    const ghosts = (on: Page) => on.getByTestId('room-pointer-ghost');
    // How the next reaction of this emoji moves on `on`, read as it appears (it lasts only a moment).
    const nextReactionAnimation = (on: Page, emoji: string) =>
      on.evaluate(
        (wanted) =>
          new Promise<string>((resolve) => {
            const observer = new MutationObserver(() => {
              const added = document.querySelector(`[data-testid="room-reaction"][data-emoji="${wanted}"]`);
              if (!added) return;
              observer.disconnect();
              resolve(getComputedStyle(added).animationName);
            });
            observer.observe(document.body, { childList: true, subtree: true });
          }),
        emoji,
      );

    // The owner drives: their mouse is the pointer, so pointing is off for them and says why.
    const ownerToggle = ownerPage.getByTestId('room-point-toggle');
    expect(await ownerToggle.isDisabled()).toBe(true);
    expect(await ownerToggle.getAttribute('aria-label')).toBe(
      'Pointing is off while you are in control: your mouse drives the browser',
    );

    // Pia turns pointing on and points at a quarter across, 40 % down the picture.
    const toggle = page.getByRole('button', {
      name: 'Point at the picture: the others see where your mouse is',
    });
    await toggle.click();
    expect(await page.getByTestId('room-point-toggle').getAttribute('aria-pressed')).toBe('true');
    const pointAt = async (on: Page, x: number, y: number) => {
      const box = await on.getByTestId('room-canvas').boundingBox();
      if (!box) throw new Error('no room canvas');
      await on.mouse.move(box.x + box.width * x, box.y + box.height * y, { steps: 4 });
    };
    await pointAt(page, 0.25, 0.4);
    const ghost = ghosts(ownerPage).filter({ hasText: 'Pia' });
    await ghost.waitFor({ timeout: 15_000 });
    // Where Pia points, on the owner's own picture, whatever its size there.
    const where = async () => {
      const canvas = (await ownerPage.getByTestId('room-canvas').boundingBox())!;
      const dot = (await ghost.locator('span').first().boundingBox())!;
      return {
        x: (dot.x + dot.width / 2 - canvas.x) / canvas.width,
        y: (dot.y + dot.height / 2 - canvas.y) / canvas.height,
      };
    };
    await expect.poll(async () => Math.abs((await where()).x - 0.25), { timeout: 5000 }).toBeLessThan(0.02);
    expect(Math.abs((await where()).y - 0.4)).toBeLessThan(0.02);
    // Pia sees her own mouse, not a ghost of it; pointing drove nothing in the room's browser.
    expect(await ghosts(page).count()).toBe(0);
    expect(await ownerPage.getByTestId('room-page').getAttribute('data-controlling')).toBe('true');

    // Pia reacts: it floats on her picture at once and on the owner's, with her name, read out there too.
    await page.getByRole('button', { name: 'Send a reaction' }).click();
    const celebrating = nextReactionAnimation(ownerPage, '🎉');
    await page.getByRole('button', { name: 'React: Celebrate' }).click();
    await page.locator('[data-testid="room-reaction"][data-emoji="🎉"]').waitFor();
    const reaction = ownerPage.locator('[data-testid="room-reaction"][data-emoji="🎉"]');
    await reaction.filter({ hasText: 'Pia' }).waitFor({ timeout: 15_000 });
    expect(await ownerPage.getByTestId('room-reaction-announcement').textContent()).toBe('Pia reacted 🎉');
    expect(await celebrating).toBe('room-reaction-float');
    // Beyond 5 in 5 seconds the page says so instead of showing a reaction the others would not get.
    for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'React: Applause' }).click();
    await toast(page, 'You are sending reactions too fast; wait a few seconds');
    expect(await page.locator('[data-testid="room-reaction"][data-emoji="👏"]').count()).toBeLessThanOrEqual(
      4,
    );
    await pointAt(page, 0.6, 0.3);
    await screenshots(ownerPage, 'room-pointing-owner');
    await screenshots(page, 'room-pointing-guest');

    // Left alone, the ghost fades and goes.
    await ghost.waitFor({ state: 'detached', timeout: 15_000 });

    // In Chinese, and for an owner who asks for reduced motion: the reaction does not rise, it only fades.
    for (const context of [guest.context, ownerContext]) {
      await context.addCookies([{ name: 'language', value: 'zh-CN', url: shared.kit.server.url }]);
    }
    await page.reload();
    await passEntry(page, 'Pia');
    await ownerPage.emulateMedia({ reducedMotion: 'reduce' });
    await ownerPage.reload();
    await passEntry(ownerPage, shared.owner.username);
    const zhToggle = page.getByTestId('room-point-toggle');
    await expect
      .poll(() => zhToggle.getAttribute('aria-label'), { timeout: 15_000 })
      .toBe('在画面上指点：其他人会看到你的鼠标位置');
    await zhToggle.click();
    await pointAt(page, 0.7, 0.6);
    await ghosts(ownerPage).filter({ hasText: 'Pia' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: '发送表情回应' }).click();
    const thumbsUp = nextReactionAnimation(ownerPage, '👍');
    await page.getByRole('button', { name: '回应：点赞' }).click();
    const thumbs = ownerPage.locator('[data-testid="room-reaction"][data-emoji="👍"]');
    await thumbs.filter({ hasText: 'Pia' }).waitFor({ timeout: 15_000 });
    expect(await ownerPage.getByTestId('room-reaction-announcement').textContent()).toBe('Pia 回应了 👍');
    expect(await thumbsUp).toBe('room-reaction-fade');
    await pointAt(page, 0.72, 0.62);
    await screenshots(ownerPage, 'room-pointing-owner-zh');
    await page.getByRole('button', { name: '停止指点' }).waitFor();

    await guest.context.close();
    await ownerContext.close();
  });
});
