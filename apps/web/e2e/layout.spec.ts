// Guard, session and layout journeys: redirect and return, 401, unknown paths, language switch, share dialog and
// the mobile menu, pages whose code cannot be fetched, in real Chromium against the real server.
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  login,
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
const user = uniqueUser('lay');
let session: Awaited<ReturnType<Awaited<ReturnType<TJourneyKit['newContext']>>['storageState']>>;

/** The operator's support address, which the About page gives. */
const SUPPORT_EMAIL = 'help@rooms.example';

beforeAll(async () => {
  kit = await startJourneys({ env: { SUPPORT_EMAIL } });
  const context = await kit.newContext();
  await register(await context.newPage(), kit.server, user);
  session = await context.storageState();
  await context.close();
});

afterAll(async () => {
  await kit?.close();
});

/** The stacking order a layer gets (for a popper, its positioned wrapper's, which radix copies from it). */
function zIndexOf(layer: ReturnType<Page['locator']>): Promise<number> {
  return layer.evaluate((element) => {
    const positioned = element.closest('[data-radix-popper-content-wrapper]') ?? element;
    return Number(getComputedStyle(positioned).zIndex);
  });
}

async function loggedInPage(viewport?: { width: number; height: number }) {
  const context = await kit.browser.newContext({
    baseURL: kit.server.url,
    storageState: session,
    viewport: viewport ?? { width: 1280, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>external</title>' }),
  );
  return { context, page: await context.newPage() };
}

describe('guard and session', () => {
  it('sends a logged-out visitor to login with the full path and returns there after login', async () => {
    const context = await kit.newContext();
    const page = await context.newPage();
    await page.goto('/profile?tab=security#password');
    await page.waitForURL((url) => url.pathname === '/auth/login');
    const url = new URL(page.url());
    expect(url.pathname).toBe('/auth/login');
    expect(url.searchParams.get('redirect')).toBe('/profile?tab=security#password');
    await screenshots(page, 'guard-login');

    await login(page, user.email, user.password);
    await page.waitForURL((url) => url.pathname === '/profile' && url.search === '?tab=security');
    expect(new URL(page.url()).hash).toBe('#password');
    await expect
      .poll(() => page.getByTestId('profile-email').textContent(), { timeout: 15_000 })
      .toBe(user.email);

    // Login and registration send a logged-in user to the dashboard.
    await page.goto('/auth/login');
    await page.waitForURL('**/dashboard');
    await page.goto('/auth/register');
    await page.waitForURL('**/dashboard');
    await screenshots(page, 'guard-dashboard');
    await context.close();
  });

  it('clears the session and goes to login when the server answers 401', async () => {
    const { context, page } = await loggedInPage();
    const expires = Date.now() / 1000 + 3600;
    await context.addCookies([{ name: 'token', value: 'not-a-real-token', url: kit.server.url, expires }]);
    await page.goto('/profile');
    await page.waitForURL(
      (url) => url.pathname === '/auth/login' && url.searchParams.get('redirect') === '/profile',
    );
    const cookieNames = async () => (await context.cookies()).map((cookie) => cookie.name);
    // The page's document.cookie writes reach the browser's cookie store a moment later.
    await expect.poll(cookieNames, { timeout: 5_000 }).not.toContain('token');
    const names = await cookieNames();
    expect(names).not.toContain('token');
    expect(names).not.toContain('username');
    expect(names).not.toContain('avatar');
    await screenshots(page, 'unauthorized');
    await context.close();
  });

  it('counts a token whose expiry has passed as logged out', async () => {
    const { context, page } = await loggedInPage();
    await context.addCookies([
      { name: 'token_expires', value: String(Date.now() - 1000), url: kit.server.url },
    ]);
    await page.goto('/dashboard');
    await page.waitForURL(
      (url) => url.pathname === '/auth/login' && url.searchParams.get('redirect') === '/dashboard',
    );
    // The page's document.cookie writes reach the browser's cookie store a moment later.
    await expect
      .poll(async () => (await context.cookies()).map((cookie) => cookie.name), { timeout: 5_000 })
      .not.toContain('token');
    await context.close();
  });

  it('redirects an unknown path to the not-found page', async () => {
    const context = await kit.newContext();
    const page = await context.newPage();
    await page.goto('/no/such/page');
    await page.waitForURL('**/pages/notfound');
    // The title is set once the page's code has loaded.
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Not found | Cloud-browser rooms');
    expect(await page.getByTestId('status-page').textContent()).toContain('Page not found');
    await screenshots(page, 'not-found');
    // Also under a layout page, signed out (not sent to log in for a page that does not exist) and signed in.
    await page.goto('/dashboard/no-such-page');
    await page.waitForURL('**/pages/notfound');
    await context.close();
    const { context: member, page: memberPage } = await loggedInPage();
    for (const path of ['/dashboard/no-such-page', '/profile/x', '/bill/pay/x']) {
      await memberPage.goto(path);
      await memberPage.waitForURL('**/pages/notfound');
      expect(await memberPage.getByTestId('status-page').textContent()).toContain('Page not found');
    }
    await member.close();
  });
});

describe('layout', () => {
  it('switches to zh-CN: stores the choice, reloads, and shows Chinese in the layout and the title', async () => {
    const { context, page } = await loggedInPage();
    await page.goto('/dashboard');
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Dashboard | Cloud-browser rooms');
    await page.getByTestId('language-button').click();
    await Promise.all([page.waitForEvent('load'), page.getByTestId('language-zh-CN').click()]);
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('仪表盘 | 云浏览器房间');
    expect(await page.getByTestId('sidebar').textContent()).toContain('公共房间');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    const language = (await context.cookies()).find((cookie) => cookie.name === 'language');
    expect(language?.value).toBe('zh-CN');
    expect((language?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
    await screenshots(page, 'zh-CN');
    await context.close();
  });

  it('shares the site: copies the address, shows the QR code and opens a share page', async () => {
    const { context, page } = await loggedInPage();
    await page.goto('/dashboard');
    // The stacking order: menus at 1000, tooltips and modals (the dialog and its mask) at 1100.
    await page.getByTestId('user-menu-button').click();
    expect(await zIndexOf(page.getByRole('menu'))).toBe(1000);
    await page.keyboard.press('Escape');
    await page.getByTestId('share-button').hover();
    expect(await zIndexOf(page.getByRole('tooltip'))).toBe(1100);
    await page.getByTestId('share-button').click();
    const dialog = page.getByTestId('share-dialog');
    await dialog.waitFor();
    expect(await zIndexOf(dialog)).toBe(1100);
    expect(await zIndexOf(page.locator('[data-slot="dialog-overlay"]'))).toBe(1100);
    expect(await dialog.getByRole('heading').first().textContent()).toBe('share apps');
    expect(await page.getByTestId('share-url').inputValue()).toBe(kit.server.url);

    await page.getByTestId('share-copy').click();
    await toast(page, 'share link copied to clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(kit.server.url);

    await page.getByTestId('share-qr').click();
    const qr = page.getByTestId('qr-image');
    await qr.waitFor();
    // An overlay (1000) opened from the dialog goes above the dialog, not behind it: what shows where the code is
    // drawn is the popup's own.
    expect(await zIndexOf(page.getByTestId('qr-popup'))).toBeGreaterThan(1100);
    const onTop = await qr.evaluate((image) => {
      const box = image.getBoundingClientRect();
      const shown = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return Boolean(shown && image.closest('[data-testid="qr-popup"]')?.contains(shown));
    });
    expect(onTop).toBe(true);
    // An image is decoded after it is attached: its size reads 0 until then.
    await expect
      .poll(() => qr.evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]), {
        timeout: 5_000,
      })
      .toEqual([100, 100]);
    // Escape hides the QR popup and leaves the dialog open.
    await page.keyboard.press('Escape');
    await page.getByTestId('qr-popup').waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    await page.getByTestId('share-social-qr').click();
    await page.getByTestId('qr-image').waitFor();
    await page.screenshot({ path: join(RESULTS, 'share-qr-1280x800.png') });
    await screenshots(page, 'share-dialog');
    // A resize hides it too.
    await page.setViewportSize(PHONE);
    await page.getByTestId('qr-popup').waitFor({ state: 'detached' });
    await page.setViewportSize(DESKTOP);

    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.getByTestId('share-social-x').click(),
    ]);
    await popup.waitForURL(/twitter\.com\/intent\/tweet/);
    expect(new URL(popup.url()).searchParams.get('url')).toBe(kit.server.url);
    await popup.close();

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });

  it('opens the menu on a phone, closes it after a choice, on a click outside, on Escape and on growing', async () => {
    const { context, page } = await loggedInPage(PHONE);
    await page.goto('/dashboard');
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.getAttribute('data-visible')).toBe('false');
    await page.getByTestId('menu-toggle').click();
    expect(await sidebar.getAttribute('data-visible')).toBe('true');
    // At the phone's size only: at desktop width the phone menu closes itself.
    await page.screenshot({ path: join(RESULTS, 'mobile-menu-390x844.png') });
    await sidebar.getByRole('link', { name: 'Help' }).click();
    await page.waitForURL('**/help');
    expect(await sidebar.getAttribute('data-visible')).toBe('false');

    await page.getByTestId('menu-toggle').click();
    expect(await sidebar.getAttribute('data-visible')).toBe('true');
    await page.mouse.click(370, 600);
    expect(await sidebar.getAttribute('data-visible')).toBe('false');

    await page.getByTestId('menu-toggle').click();
    expect(await sidebar.getAttribute('data-visible')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => sidebar.getAttribute('data-visible')).toBe('false');

    // Opened on a phone, then the window grows: no mask is left over the page, whose links answer clicks.
    await page.getByTestId('menu-toggle').click();
    expect(await sidebar.getAttribute('data-visible')).toBe('true');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => page.getByTestId('app-layout').getAttribute('data-sidebar-active')).toBe('false');
    await page.getByTestId('sidebar').getByRole('link', { name: 'Server state' }).click();
    await page.waitForURL('**/serverstate');
    await context.close();
  });
});

describe('pages loaded on demand', () => {
  it('stays in the app when the server is down, and opens the page once it is back', async () => {
    const { context, page } = await loggedInPage();
    await page.goto('/bill');
    await page.getByRole('heading', { name: 'Bill management', exact: true }).waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    // The server's port refuses every connection, the page's code and /healthz included.
    const refuse = (route: Route) => route.abort('connectionrefused');
    await context.route(`${kit.server.url}/**`, refuse);

    await page.getByTestId('sidebar').getByRole('link', { name: 'Subscription' }).click();
    const failure = page.getByTestId('route-load-failure');
    await failure.waitFor();
    expect(await failure.getByRole('alert').textContent()).toContain('Network request failed:');
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    // The next page fails too, once its code and the server's health check have both been refused (the failure
    // of the last page is on screen already: waiting for it alone would let the server come back in between).
    const healthRefused = page.waitForEvent('requestfailed', (request) => request.url().endsWith('/healthz'));
    await page.getByTestId('sidebar').getByRole('link', { name: 'Personal info' }).click();
    await healthRefused;
    await failure.waitFor();

    await context.unroute(`${kit.server.url}/**`, refuse);
    await page.getByTestId('sidebar').getByRole('link', { name: 'Subscription' }).click();
    await page.getByRole('heading', { name: 'Subscription', exact: true }).waitFor();
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    await context.close();
  });

  it('reloads into the new version when the server answers but the page’s code is gone', async () => {
    const { context, page } = await loggedInPage();
    await page.goto('/bill');
    await page.getByRole('heading', { name: 'Bill management', exact: true }).waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    let gone = 0;
    await context.route(/\/assets\/planlist-/, (route) => {
      gone += 1;
      return gone === 1 ? route.fulfill({ status: 404 }) : route.continue();
    });
    await page.getByTestId('sidebar').getByRole('link', { name: 'Subscription' }).click();
    await page.getByRole('heading', { name: 'Subscription', exact: true }).waitFor();
    expect(gone).toBeGreaterThan(1);
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(false);
    await context.close();
  });
});

describe('the app’s texts', () => {
  it('come in Chinese when a request for them is dropped, and in English rather than not at all', async () => {
    for (const [drops, heading, lang] of [
      [1, '订阅', 'zh-CN'],
      [Number.POSITIVE_INFINITY, 'Subscription', 'en-US'],
    ] as const) {
      const { context, page } = await loggedInPage();
      await context.addCookies([{ name: 'language', value: 'zh-CN', url: kit.server.url }]);
      // The Chinese catalogue's requests fail (a phone's connection dropping them): the whole app waits for it.
      // It is the file of that name with the Chinese texts (lib/messages.ts's code is a messages-*.js too).
      let dropped = 0;
      await context.route(/\/assets\/messages-[^/]*\.js$/, async (route) => {
        const response = await route.fetch();
        const body = await response.text();
        if (!body.includes('订阅') || dropped >= drops) return route.fulfill({ response, body });
        dropped += 1;
        return route.abort('connectionreset');
      });
      await page.goto('/planlist');
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      expect(dropped).toBeGreaterThan(0);
      await context.close();
    }
  });
});

describe('the About page', () => {
  it('gives the support address the operator configured', async () => {
    const { context, page } = await loggedInPage();
    await page.goto('/about');
    const support = page.getByTestId('about-support').getByRole('link', { name: SUPPORT_EMAIL });
    await support.waitFor();
    expect(await support.getAttribute('href')).toBe(`mailto:${SUPPORT_EMAIL}`);
    expect(await page.content()).not.toContain('support@rooms.example');
    await context.close();
  });
});

describe('a page that fails beyond repair', () => {
  it('goes to the error page, which loads the page afresh', async () => {
    const { context, page } = await loggedInPage();
    await page.goto('/bill');
    await page.getByRole('heading', { name: 'Bill management', exact: true }).waitFor();
    // A broken deploy: the About page's code arrives but throws as it runs.
    const broken = (route: Route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/javascript',
        body: 'throw new Error("a broken build of the about page");',
      });
    await context.route(/\/assets\/about-/, broken);
    await page
      .getByTestId('sidebar')
      .getByRole('link', { name: /© \d+ Cloud-browser rooms/ })
      .click();
    await page.waitForURL((url) => url.pathname === '/auth/error');
    expect(new URL(page.url()).searchParams.get('from')).toBe('/about');
    const shown = page.getByTestId('status-page');
    await expect
      .poll(() => shown.getByRole('heading').textContent(), { timeout: 15_000 })
      .toBe('Something went wrong');
    await expect.poll(() => page.title()).toBe('Error | Cloud-browser rooms');
    await screenshots(page, 'route-error');

    // Once the page's code is sound again, trying again opens it.
    await context.unroute(/\/assets\/about-/, broken);
    await page.getByTestId('error-retry').click();
    await page.waitForURL((url) => url.pathname === '/about');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByTestId('status-page').count()).toBe(0);
    await context.close();
  });
});

describe('server state', () => {
  it('shows each zone with this server’s rooms and start times, refreshed while open; its host only to admins', async () => {
    const { context, page } = await loggedInPage();
    await page.goto('/serverstate');
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Server state | Cloud-browser rooms');
    const node = page.getByTestId('region-local').getByTestId('server-node');
    await node.waitFor();
    expect(await node.getByTestId('node-rooms').textContent()).toMatch(/Rooms\s*\d+ \/ \d+/);
    // The host's CPU and memory tell an attacker about the machine: an administrator's to see.
    expect(await node.getByTestId('node-cpu').count()).toBe(0);
    expect(await node.getByTestId('node-memory').count()).toBe(0);
    expect(await node.getByTestId('node-start-latency').textContent()).toContain('last 60 minutes');

    // Live: the page asks again every few seconds without a reload.
    const updated = page.getByTestId('serverstate-updated');
    const first = await updated.textContent();
    await expect.poll(() => updated.textContent(), { timeout: 12_000 }).not.toBe(first);
    await screenshots(page, 'server-state');
    await context.close();
  });
});
