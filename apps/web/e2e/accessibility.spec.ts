// Keyboard and screen-reader journeys, one per finding of the accessibility review (axe-core in Chromium, dark
// theme): focus never falls to <body>, the phone menu says it is open and takes the focus, a skip link leads to
// the page, controls are named by what they show, wide tables scroll by keyboard, and text reaches its contrast.
// Each is a focused assertion on what a user meets, not an axe run: it names the defect when it fails.
import { createAdmin, storedRoom, storedUser, type TStoredUser } from '@rooms/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Page, PHONE, signedIn, startJourneys, type TJourneyKit } from './support';

let kit: TJourneyKit;
let owner: TStoredUser;

beforeAll(async () => {
  kit = await startJourneys();
  owner = await storedUser(kit.server.app.orm, { prefix: 'a11y', plan: 'pro' });
});

afterAll(async () => {
  await kit?.close();
});

async function ownerPage(path: string, viewport = DESKTOP): Promise<Page> {
  const page = await (await signedIn(kit, owner, viewport)).newPage();
  await page.goto(path);
  return page;
}

/**
 * The WCAG contrast ratio of the element's text against what lies behind it: the backgrounds of the element and
 * its ancestors laid over one another (colours resolved by a canvas, so oklch() and alpha count as drawn).
 */
const contrastOf = (element: Element): number => {
  const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('no 2d canvas');
  const rgba = (color: string): number[] => {
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = color;
    context.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const over = (top: number[], bottom: number[]) =>
    [0, 1, 2].map((i) => (top[i] ?? 0) * (top[3] ?? 0) + (bottom[i] ?? 0) * (1 - (top[3] ?? 0))).concat(1);
  const layers: number[][] = [];
  for (let node: Element | null = element; node; node = node.parentElement) {
    layers.push(rgba(getComputedStyle(node).backgroundColor));
  }
  const background = layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1]);
  const text = over(rgba(getComputedStyle(element).color), background);
  const luminance = (color: number[]) => {
    const [r, g, b] = color.map((channel) => {
      const c = channel / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
};

const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element?.getAttribute('data-testid') ?? element?.tagName.toLowerCase() ?? null;
  });

/** Presses Tab until the element has the focus; false when it never gets it. */
async function tabTo(page: Page, selector: string, limit = 40): Promise<boolean> {
  for (let step = 0; step < limit; step += 1) {
    if (
      await page
        .locator(selector)
        .first()
        .evaluate((element) => element === document.activeElement)
    ) {
      return true;
    }
    await page.keyboard.press('Tab');
  }
  return false;
}

/** The dashboard with the information dialog of a new private room of the owner's open. */
async function roomInfo(): Promise<Page> {
  const room = await storedRoom(kit.server.app.orm, owner.id, { startUrl: 'http://127.0.0.1/' });
  const page = await ownerPage('/dashboard');
  await page.getByTestId('room-card').filter({ hasText: room.name }).getByTestId('room-info').click();
  return page;
}

describe('focus', () => {
  it('comes back to the public-square checkbox after its nested confirmation says yes', async () => {
    const page = await roomInfo();
    const checkbox = page.getByTestId('room-info-dialog').getByTestId('room-share-public');
    await checkbox.focus();
    await page.keyboard.press('Space');
    const confirm = page.getByTestId('room-public-confirm');
    const yes = confirm.getByTestId('confirm-yes');
    await yes.focus();
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    // 'Yes' comes with the server's answer.
    await expect
      .poll(() => page.getByTestId('room-info-public').textContent(), { timeout: 15_000 })
      .toBe('Yes');
    await expect.poll(() => focused(page)).toBe('room-share-public');
    await page.context().close();
  });

  it('gives the destructive confirmation button readable white-on-red text', async () => {
    const page = await roomInfo();
    await page.getByTestId('room-info-dialog').getByTestId('room-share-public').click();
    const yes = page.getByTestId('room-public-confirm').getByTestId('confirm-yes');
    await yes.waitFor();
    // It was white on the theme's light red, 2.9:1.
    expect(await yes.evaluate(contrastOf)).toBeGreaterThanOrEqual(4.5);
    await page.context().close();
  });

  it('opens the phone menu as an expanded disclosure and takes the focus into it', async () => {
    const page = await ownerPage('/dashboard', PHONE);
    const toggle = page.getByTestId('menu-toggle');
    const sidebar = page.getByTestId('sidebar');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const controls = await toggle.getAttribute('aria-controls');
    expect(controls).toBeTruthy();
    expect(await page.locator(`[id="${controls}"]`).locator('[data-testid="sidebar"]').count()).toBe(1);

    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => sidebar.getAttribute('data-visible')).toBe('true');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await expect
      .poll(() => sidebar.evaluate((element) => element.contains(document.activeElement)))
      .toBe(true);
    await page.context().close();
  });

  it('gives the focus back to the menu button when Escape closes the phone menu', async () => {
    const page = await ownerPage('/dashboard', PHONE);
    const sidebar = page.getByTestId('sidebar');
    await page.getByTestId('menu-toggle').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => sidebar.getAttribute('data-visible')).toBe('true');
    expect(await tabTo(page, '[data-testid="sidebar"] a[href]')).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => sidebar.getAttribute('data-visible')).toBe('false');
    await expect.poll(() => focused(page)).toBe('menu-toggle');
    await page.context().close();
  });

  it('takes the focus on to the chosen page when a page is chosen from the phone menu by keyboard', async () => {
    const page = await ownerPage('/dashboard', PHONE);
    const sidebar = page.getByTestId('sidebar');
    await page.getByTestId('menu-toggle').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => sidebar.getAttribute('data-visible')).toBe('true');
    expect(await tabTo(page, '[data-testid="sidebar"] a[href="/profile"]')).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/profile');
    await expect.poll(() => sidebar.getAttribute('data-visible')).toBe('false');
    // It dropped to <body> when the closing menu turned inert.
    expect(await focused(page)).toBe('main');
    await page.context().close();
  });

  it('offers "Skip to content" as the first tab stop, shown when focused, leading into the page', async () => {
    const page = await ownerPage('/dashboard');
    await page.getByTestId('create-room').waitFor();
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.count()).toBe(1);
    const inView = () => skip.evaluate((element) => element.getBoundingClientRect().bottom > 0);
    expect(await inView()).toBe(false);
    await page.keyboard.press('Tab');
    expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
    await expect.poll(inView).toBe(true);
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement))).toBe(
      true,
    );
    await page.context().close();
  });
});

describe('names', () => {
  it('names the top bar’s logo, language and user buttons by the text they show', async () => {
    const page = await ownerPage('/dashboard');
    await page.getByTestId('user-menu-button').waitFor();
    const bar = page.getByRole('banner');
    expect(await bar.getByRole('link', { name: /^Cloud-browser rooms/ }).count()).toBe(1);
    expect(await bar.getByRole('button', { name: /^English\b/ }).count()).toBe(1);
    expect(await bar.getByRole('button', { name: new RegExp(`^${owner.username}\\b`) }).count()).toBe(1);
    await page.context().close();
  });

  it('names the landing page’s logo link on a narrow phone, where only the picture shows', async () => {
    const context = await kit.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('language-select').waitFor();
    const logo = page.getByRole('banner').getByRole('link', { name: 'Cloud-browser rooms' });
    expect(await logo.count()).toBe(1);
    expect(await logo.isVisible()).toBe(true);
    await context.close();
  });

  it('names the password-strength meter and the server-state bars', async () => {
    const context = await kit.newContext();
    const visitor = await context.newPage();
    await visitor.goto('/auth/register');
    await visitor.locator('#password').fill('abc');
    const meter = visitor.getByRole('meter', { name: 'Password strength' });
    expect(await meter.count()).toBe(1);
    expect(await meter.getAttribute('aria-valuetext')).toBe('Weak');
    await context.close();

    // The host's CPU and memory are an administrator's to see; everyone sees the rooms.
    const page = await ownerPage('/serverstate');
    await page.getByRole('progressbar', { name: 'Rooms' }).first().waitFor({ timeout: 15_000 });
    await page.context().close();
    const admin = await createAdmin(kit.server.app);
    const adminPage = await (await signedIn(kit, admin)).newPage();
    await adminPage.goto('/serverstate');
    for (const name of ['Rooms', /^CPU/, 'Memory']) {
      await adminPage.getByRole('progressbar', { name }).first().waitFor({ timeout: 15_000 });
    }
    await adminPage.context().close();
  });
});

describe('keyboard', () => {
  it('scrolls a table too wide for a phone from the keyboard', async () => {
    const admin = await createAdmin(kit.server.app);
    const page = await (await signedIn(kit, admin, PHONE)).newPage();
    await page.goto('/admin/audit');
    const container = page.locator('[data-slot="table-container"]').first();
    await container.waitFor();
    expect(await container.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    // Focusable by its own tabindex: Chromium makes a scroller without focusable content a tab stop by itself,
    // other browsers (and axe) do not.
    await expect.poll(() => container.getAttribute('tabindex')).toBe('0');
    expect(await tabTo(page, '[data-slot="table-container"]')).toBe(true);
    expect(await container.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => container.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    await page.context().close();
  });

  it('shows where the focus is on the landing page’s language choice', async () => {
    const context = await kit.newContext();
    const page = await context.newPage();
    await page.goto('/');
    expect(await tabTo(page, '[data-testid="language-select"]')).toBe(true);
    const ring = await page
      .getByTestId('language-select')
      .evaluate((element) => [element, element.parentElement].map((node) => node && getComputedStyle(node)));
    expect(ring.some((style) => style && (style.boxShadow !== 'none' || style.outlineStyle !== 'none'))).toBe(
      true,
    );
    await context.close();
  });
});

describe('landing page', () => {
  it('keeps its header in view while the page scrolls', async () => {
    const context = await kit.newContext();
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('stats').waitFor();
    await page.mouse.wheel(0, 1500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    const top = await page.getByRole('banner').evaluate((element) => element.getBoundingClientRect().top);
    expect(top).toBe(0);
    await context.close();
  });
});

describe('contrast and underlines', () => {
  it('underlines the links inside the login text and keeps the big status code readable', async () => {
    const context = await kit.newContext();
    const page = await context.newPage();
    await page.goto('/auth/login');
    for (const name of ['Forgot password?', 'Register']) {
      const link = page.getByRole('link', { name, exact: true });
      expect(await link.evaluate((element) => getComputedStyle(element).textDecorationLine)).toContain(
        'underline',
      );
    }
    await page.goto('/pages/notfound');
    const code = page.getByTestId('status-page').getByText('404', { exact: true });
    expect(await code.evaluate(contrastOf)).toBeGreaterThanOrEqual(4.5);
    await context.close();
  });

  it('draws the share dialog’s brand glyphs with readable contrast', async () => {
    const page = await ownerPage('/dashboard');
    await page.getByTestId('share-button').click();
    for (const target of ['reddit', 'facebook', 'whatsapp', 'telegram', 'qzone', 'weibo', 'x', 'tumblr']) {
      const glyph = page.getByTestId(`share-social-${target}`).locator('span').first();
      expect(await glyph.evaluate(contrastOf), target).toBeGreaterThanOrEqual(4.5);
    }
    await page.context().close();
  });
});
