// The room page with the keyboard alone, in real Chromium against the real server: the driver's keys reach the
// room's page (Tab included) and Escape then Tab leaves the picture for the rest of the page, as the hint on the
// picture says; chat is a named live log; the tab strip holds only tabs; handing control over from a member's
// row keeps the focus in the row; the first key after getting control reaches the page, and a driver who loses
// control is told why; the phone's quality badge is named by what it shows.
import { readFile } from 'node:fs/promises';
import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { holdControl, startSharedRoom, type TSharedRoom } from './room-support';
import { DESKTOP, type Page, PHONE, screenshots, toast } from './support';

/** What the room's /files page offers to copy, and the name and text of the file it saves. */
const FILES_TEXT = 'Notes from the room 房间笔记';
const FILES_NAME = 'notes 笔记.txt';

/** A form for the room's browser that reports every key going down and up to /event/down/… and /event/up/…. */
const KEYS_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>keys page</title></head>
<body style="font:32px sans-serif"><input id="first" autofocus><input id="second">
<script>
for (const type of ['keydown', 'keyup'])
  addEventListener(type, (event) => fetch('/event/' + type.slice(3) + '/' + encodeURIComponent(event.key)), true);
// At /files: text to copy in the top half, a link saving a small file in the bottom half.
if (location.pathname === '/files') {
  document.body.innerHTML = '<textarea id="notes" style="position:fixed;left:5%;top:5%;width:90%;height:35%;font-size:32px">' +
    ${JSON.stringify(FILES_TEXT)} + '</textarea><a id="save" download=' + ${JSON.stringify(JSON.stringify(FILES_NAME))} +
    ' href="data:text/plain;charset=utf-8,' + encodeURIComponent(${JSON.stringify(FILES_TEXT)}) +
    '" style="position:fixed;left:5%;top:55%;width:90%;height:40%;background:#36c;color:#fff">Save the notes</a>';
  fetch('/event/files-ready');
}
</script></body></html>`;

let shared: TSharedRoom;

beforeAll(async () => {
  shared = await startSharedRoom({ html: KEYS_PAGE, name: 'keyboard' });
});

// Each test's people leave the room even when it fails, so the next test finds the room as open as before.
let opened: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(opened.map((context) => context.close()));
  opened = [];
});

afterAll(async () => {
  await shared?.close();
});

/** The owner in the room, in control. */
async function ownerInRoom(viewport = DESKTOP): Promise<Page> {
  const { context, page } = await shared.ownerInRoom(viewport);
  opened.push(context);
  return page;
}

async function guestInRoom(nickname: string): Promise<Page> {
  const { context, page } = await shared.guestInRoom(nickname);
  opened.push(context);
  return page;
}

/** The data-testid of the focused element, 'body' when nothing has the focus. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'body';
    return active.getAttribute('data-testid') ?? active.tagName.toLowerCase();
  });

/** Presses `key` until the element with this test id has the focus; false when `limit` presses did not get there. */
async function tabTo(page: Page, testId: string, key = 'Tab', limit = 40): Promise<boolean> {
  for (let press = 0; press < limit; press++) {
    if ((await focused(page)) === testId) return true;
    await page.keyboard.press(key);
  }
  return (await focused(page)) === testId;
}

const count = (path: string) => shared.pages.events.filter((event) => event === path).length;

describe('the room with the keyboard', () => {
  it('sends Tab to the page while driving, and Escape then Tab leaves the picture for the chat', async () => {
    const page = await ownerInRoom();
    // A click on the picture puts the page's first field in focus; typed keys reach it once the page is up.
    await page.getByTestId('room-canvas').click();
    await expect
      .poll(
        async () => {
          await page.keyboard.press('x');
          return count('/event/down/x');
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);

    // From the chat back into the picture with Shift+Tab: the keyboard reaches it.
    await page.getByTestId('chat-input').focus();
    expect(await tabTo(page, 'room-keys', 'Shift+Tab')).toBe(true);

    // Tab alone is the page's: it moves between the page's fields and the picture keeps the focus.
    const tabs = count('/event/down/Tab');
    await page.keyboard.press('Tab');
    // A key reaches the test through the server, the room's browser and its page's fetch.
    await expect.poll(() => count('/event/down/Tab'), { timeout: 10_000 }).toBe(tabs + 1);
    expect(await focused(page)).toBe('room-keys');

    // Escape reaches the page too, and the Tab after it leaves the picture instead.
    const escapes = count('/event/down/Escape');
    await page.keyboard.press('Escape');
    await expect.poll(() => count('/event/down/Escape'), { timeout: 10_000 }).toBe(escapes + 1);
    await page.keyboard.press('Tab');
    expect(await focused(page)).not.toBe('room-keys');
    expect(await tabTo(page, 'chat-input')).toBe(true);
    await page.waitForTimeout(500);
    expect(count('/event/down/Tab')).toBe(tabs + 1);

    // Coming back by keyboard, the picture says how to leave, on screen and as its description.
    expect(await tabTo(page, 'room-keys', 'Shift+Tab')).toBe(true);
    const hint = page.getByTestId('room-keys-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toBe('Press Esc, then Tab, to leave the picture');
    const describedBy = await page.getByTestId('room-keys').getAttribute('aria-describedby');
    expect(describedBy).toBeTruthy();
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain('Esc, then Tab');
    await screenshots(page, 'room-keyboard-hint');

    // Backwards works the same way, and the Shift that went to the page with it is let go of there.
    await page.keyboard.press('Escape');
    const shiftsUp = count('/event/up/Shift');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).not.toBe('room-keys');
    await expect.poll(() => count('/event/up/Shift'), { timeout: 10_000 }).toBe(shiftsUp + 1);
    expect(count('/event/down/Tab')).toBe(tabs + 1);

    // A key between Escape and Tab disarms it: that Tab is the page's again.
    await page.getByTestId('room-canvas').click();
    await page.keyboard.press('Escape');
    await page.keyboard.press('y');
    await page.keyboard.press('Tab');
    await expect.poll(() => count('/event/down/Tab'), { timeout: 10_000 }).toBe(tabs + 2);
    expect(await focused(page)).toBe('room-keys');
  });

  it('reads chat out as a named, polite log', async () => {
    const page = await ownerInRoom();
    const log = page.getByRole('log', { name: 'Chat messages' });
    expect(await log.count()).toBe(1);
    expect(await log.getAttribute('aria-live')).toBe('polite');
    await page.getByTestId('chat-input').fill('hello, log');
    await page.getByTestId('chat-send').click();
    await log.getByTestId('chat-message').filter({ hasText: 'hello, log' }).waitFor();
  });

  it('keeps only tabs in the tab strip, with opening and closing beside it', async () => {
    const page = await ownerInRoom();
    const strip = page.getByRole('tablist', { name: 'Tabs' });
    await strip.getByRole('tab').first().waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'New tab' }).click();
    await expect.poll(() => strip.getByRole('tab').count(), { timeout: 15_000 }).toBe(2);
    // Every element in the strip that a user can reach or that has a role of its own is a tab.
    const others = await strip.evaluate((list) =>
      [...list.querySelectorAll('button, a, input, [role], [tabindex]')]
        .filter((element) => element.getAttribute('role') !== 'tab')
        .map((element) => element.outerHTML),
    );
    expect(others).toEqual([]);
    await screenshots(page, 'room-tab-strip');

    // Delete closes the focused tab, as the tab says; the toolbar's Close tab closes the one shown.
    const last = strip.getByRole('tab').last();
    expect(await last.getAttribute('aria-keyshortcuts')).toBe('Delete');
    await last.focus();
    await page.keyboard.press('Delete');
    await expect.poll(() => strip.getByRole('tab').count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole('button', { name: 'New tab' }).click();
    await expect.poll(() => strip.getByRole('tab').count(), { timeout: 15_000 }).toBe(2);
    await page.getByRole('button', { name: 'Close tab' }).click();
    await expect.poll(() => strip.getByRole('tab').count(), { timeout: 15_000 }).toBe(1);
  });

  it("keeps the focus in the member's row after Give control from the keyboard", async () => {
    const page = await ownerInRoom();
    const guest = await guestInRoom('Kim');
    await guest.getByTestId('control-request').click();
    const row = page.getByTestId('member').filter({ hasText: 'Kim' });
    const give = row.getByTestId('control-grant');
    await give.waitFor({ timeout: 15_000 });
    await give.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => guest.getByTestId('room-page').getAttribute('data-controlling'), { timeout: 15_000 })
      .toBe('true');
    await give.waitFor({ state: 'detached' });
    // The owner can still kick or ban Kim: the focus is on that row's menu button.
    expect(await focused(page)).toBe('member-actions');
    expect(
      await row.getByTestId('member-actions').evaluate((button) => button === document.activeElement),
    ).toBe(true);
  });

  it('sends the first key of a guest who just got control to the page, and tells each driver who loses it why', async () => {
    const page = await ownerInRoom();
    const guest = await guestInRoom('Lee');
    await guest.getByTestId('control-request').click();
    const give = page.getByTestId('member').filter({ hasText: 'Lee' }).getByTestId('control-grant');
    await give.click({ timeout: 15_000 });
    await toast(page, 'You gave control to Lee.');
    await guest.locator('[data-testid="room-page"][data-controlling="true"]').waitFor({ timeout: 15_000 });
    // No click on the picture first: the keyboard is the picture's as soon as control arrives.
    const before = count('/event/down/q');
    await guest.keyboard.press('q');
    await expect.poll(() => count('/event/down/q'), { timeout: 10_000 }).toBe(before + 1);
    expect(await focused(guest)).toBe('room-keys');
    // The owner takes it back: the guest is told by whom, not left wondering why the picture stopped answering.
    await page.getByTestId('control-take').click();
    await toast(guest, `${shared.owner.username} took control back.`);
  });

  it('hands the driver a file the room saved and the text copied in it, in English and in Chinese', async () => {
    const texts = {
      'en-US': { offered: 'The room downloaded a file', save: 'Download', copied: 'Copied from the room' },
      'zh-CN': { offered: '房间下载了一个文件', save: '下载', copied: '已从房间复制' },
    } as const;
    for (const language of ['en-US', 'zh-CN'] as const) {
      const { context, page } = await shared.ownerInRoom();
      opened.push(context);
      const origin = new URL(shared.kit.server.url).origin;
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      if (language === 'zh-CN') {
        await context.addCookies([{ name: 'language', value: 'zh-CN', url: shared.kit.server.url }]);
        await page.reload();
        await holdControl(page);
      }
      const said = texts[language];

      // The room's browser goes to the page with the notes and the link that saves them.
      const ready = count('/event/files-ready');
      await page.getByTestId('browser-address').fill(`${shared.pages.origin}/files`);
      await page.getByTestId('browser-address').press('Enter');
      await expect.poll(() => count('/event/files-ready'), { timeout: 20_000 }).toBe(ready + 1);

      // A click on the link in the picture: the room saves the file, and this browser is offered it by name.
      const canvas = page.getByTestId('room-canvas');
      const box = (await canvas.boundingBox())!;
      await canvas.click({ position: { x: box.width / 2, y: box.height * 0.75 } });
      await toast(page, said.offered);
      await toast(page, FILES_NAME);
      await screenshots(page, `room-download-offered-${language}`);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: said.save, exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(FILES_NAME);
      expect(await readFile((await download.path())!, 'utf8')).toBe(FILES_TEXT);

      // Select the notes in the room and copy them: they arrive on this computer's clipboard.
      await page.evaluate(() => navigator.clipboard.writeText('before'));
      await canvas.click({ position: { x: box.width / 2, y: box.height * 0.2 } });
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Control+C');
      await toast(page, said.copied);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(FILES_TEXT);
      await context.close();
      opened = opened.filter((open) => open !== context);
    }
  });

  it("names the phone's quality badge by the figure it shows", async () => {
    const page = await ownerInRoom(PHONE);
    const badge = page.getByTestId('quality-badge');
    await badge.waitFor();
    // The figure changes twice a second: read the text and the name until they are of the same moment.
    await expect
      .poll(
        async () => {
          const shown = (await badge.textContent())?.trim() ?? '';
          return /ms|—/.test(shown) && (await badge.ariaSnapshot()).includes(`Picture quality: ${shown}`);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  });
});
