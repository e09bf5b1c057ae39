// The administrator's journey in real Chromium against the real server: find a user, say why and open the one-time
// sign-in link in a second browser that sees the user's dashboard under the impersonation banner (which leaves the
// sidebar's footer in view, on a desktop and on a phone, and the room's Delete button off) and goes back to its own
// account; then dismiss a report about the user's room and change a plan's price, which the plan list shows, each
// with a reason the audit log shows.
import { AuditEntry, Plan, Room, RoomReport, User } from '@rooms/db';
import { createAdmin, createOwner, rest, type TTestOwner, uniqueRoomName } from '@rooms/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Page, PHONE, RESULTS, screenshots, startJourneys, type TJourneyKit } from './support';

let kit: TJourneyKit;

beforeAll(async () => {
  kit = await startJourneys();
});

afterAll(async () => {
  await kit?.close();
});

/** A browser already signed in as the account, through its session cookies (login has its own journey). */
async function signedInPage(account: TTestOwner): Promise<Page> {
  const context = await kit.newContext();
  const expires = Date.now() + 23 * 3600 * 1000;
  await context.addCookies(
    [
      { name: 'token', value: account.token },
      { name: 'token_expires', value: String(expires) },
      { name: 'username', value: account.username },
      { name: 'avatar', value: '' },
      { name: 'language', value: 'en-US' },
    ].map((cookie) => ({ ...cookie, url: kit.server.url })),
  );
  return context.newPage();
}

/** A user with a room, and a visitor's report about that room waiting in the moderation queue. */
async function userWithReportedRoom() {
  const user = await createOwner(kit.server.app);
  const name = uniqueRoomName('reported');
  const created = await rest<{ id: string }>(kit.server.app, 'POST', '/api/room/createRoom', {
    token: user.token,
    body: { name, region: 'local', image: 'chromium-blank' },
  });
  expect(created.msg, JSON.stringify(created.data)).toBe('success');
  const em = kit.server.app.orm.em.fork();
  const room = await em.findOneOrFail(Room, created.data.id);
  const report = em.create(RoomReport, {
    room,
    roomName: room.name,
    reporter: null,
    reporterIp: '192.0.2.7',
    reason: `Spam in ${name}`,
    resolvedAt: null,
    resolution: null,
    resolvedBy: null,
  });
  await em.flush();
  const { email } = await em.findOneOrFail(User, user.userId);
  return { user: { ...user, email }, room: { id: room.id, name }, reportId: report.id };
}

/** The reason the dialog asks for: refused empty and too short, with the server's texts, then accepted. */
async function giveReason(page: Page, submit: string, reason: string) {
  const dialog = page.getByRole('dialog');
  const field = dialog.getByLabel('Reason');
  const error = dialog.getByTestId('form-error');
  await dialog.getByRole('button', { name: submit }).click();
  await error.waitFor();
  expect(await error.textContent()).toBe('Please give a reason');
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  await field.fill(' ab ');
  await dialog.getByRole('button', { name: submit }).click();
  await expect.poll(() => error.textContent()).toBe('The reason must be at least 3 characters');
  await field.fill(`  ${reason}  `);
  await dialog.getByRole('button', { name: submit }).click();
}

type TBox = { x: number; y: number; width: number; height: number };

function overlaps(a: TBox, b: TBox): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The sidebar's footer (copyright, link to About) is in view, whole, and not under the impersonation banner. */
async function expectFooterClearOfBanner(page: Page) {
  const sidebar = page.getByTestId('sidebar');
  // The sidebar slides in (a transform transition) once shown or when the window grows: measured where it stops.
  await expect.poll(async () => (await sidebar.boundingBox())?.x).toBe(0);
  const footer = await sidebar.locator('footer').boundingBox();
  const banner = await page.getByTestId('impersonation-banner').boundingBox();
  const viewport = page.viewportSize();
  if (!footer || !banner || !viewport) throw new Error('the sidebar footer or the banner is not shown');
  expect(overlaps(footer, banner), JSON.stringify({ footer, banner })).toBe(false);
  expect(footer.y + footer.height).toBeLessThanOrEqual(banner.y);
  expect(banner.y + banner.height).toBeLessThanOrEqual(viewport.height + 0.5);
  // What the page shows at that spot is the footer's link itself, not something laid over it.
  const hit = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('footer')?.textContent ?? null,
    { x: footer.x + footer.width / 2, y: footer.y + footer.height / 2 },
  );
  expect(hit).toContain('Cloud-browser rooms');
  // Toasts stack from where the toaster's CSS puts their bottom edge: above the banner, not over it.
  const toastBottom = await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.cssText = 'position:fixed;bottom:var(--toaster-bottom,1rem);height:1px;width:1px';
    document.body.append(probe);
    const bottom = probe.getBoundingClientRect().bottom;
    probe.remove();
    return bottom;
  });
  expect(toastBottom).toBeLessThanOrEqual(banner.y);
}

describe('admin', () => {
  it('signs in as a user from a second browser and back, dismisses a report and changes a plan’s price', async () => {
    const admin = await createAdmin(kit.server.app);
    const { user, room, reportId } = await userWithReportedRoom();
    const page = await signedInPage(admin);

    // Find the user and create a sign-in link.
    await page.goto('/admin/users');
    await page
      .getByRole('searchbox')
      .or(page.getByPlaceholder(/search/i))
      .first()
      .fill(user.email);
    // The new user heads the list before the search settles: the row is opened at once, while the user page's code
    // takes longer to load than the search takes to settle (slowed here), and the settled search must not take the
    // administrator back to the list.
    const userLink = page.locator(`a[href$="/admin/users/${user.userId}"]`).first();
    const slowScripts = /\.js(\?|$)/;
    await page.route(slowScripts, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await userLink.click();
    await page.waitForURL(`**/admin/users/${user.userId}`);
    await page.getByTestId('user-actions').waitFor();
    await page.unroute(slowScripts);
    expect(new URL(page.url()).pathname).toBe(`/admin/users/${user.userId}`);
    await page.getByRole('button', { name: 'Sign in as this user' }).click();
    await giveReason(page, 'Create the link', 'Ticket 4711: the dashboard looks empty to them');
    const shown = page.getByTestId('login-link');
    await shown.waitFor();
    // The link may be shown as text or in a read-only field to copy from.
    const linkText = await shown.evaluate((element) =>
      element instanceof HTMLInputElement ? element.value : (element.textContent ?? ''),
    );
    const linkPath = /\/admintologinuser\/[\w-]+/.exec(linkText)?.[0];
    expect(linkPath, linkText).toBeTruthy();
    await screenshots(page, 'admin-login-link');

    // The second browser is the administrator's too: after the visit it is signed back in as the administrator.
    const second = await signedInPage(admin);
    await second.goto('/dashboard');
    // The client keeps the role it read from userinfo: the way back leads an administrator to the admin area.
    const data = async () =>
      (await second.context().cookies()).find((cookie) => cookie.name === 'data')?.value;
    // The dashboard's userinfo call writes it; a busy machine takes longer than the poll's default second.
    await expect.poll(data, { timeout: 15_000 }).toContain('admin');
    await second.goto(linkPath!);
    await second.waitForURL('**/dashboard');
    const banner = second.getByTestId('impersonation-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain(
      `You are signed in as ${user.username} (${user.email}) by administrator ${admin.email}`,
    );
    await second.locator(`[data-testid="room-card"][data-room-name="${room.name}"]`).waitFor();
    // The name comes with the userinfo answer for the new session.
    await expect
      .poll(() => second.getByTestId('user-menu-button').textContent(), { timeout: 15_000 })
      .toContain(user.username);
    await screenshots(second, 'admin-impersonating-dashboard');

    // The banner leaves the sidebar's footer in view: on a desktop, where the sidebar stays open, and on a phone
    // with the menu opened, where the banner wraps to more lines.
    await expectFooterClearOfBanner(second);
    await second.setViewportSize(PHONE);
    await second.getByTestId('menu-toggle').click();
    await expect.poll(() => second.getByTestId('sidebar').getAttribute('data-visible')).toBe('true');
    await expectFooterClearOfBanner(second);
    await second.screenshot({ path: `${RESULTS}/admin-impersonating-menu-phone.png` });
    await second.keyboard.press('Escape');
    await second.setViewportSize(DESKTOP);

    // Deleting the user's room is theirs to do, not the administrator's: the button is off and the page says why.
    const card = second.locator(`[data-testid="room-card"][data-room-name="${room.name}"]`);
    expect(await card.getByTestId('room-delete').isDisabled()).toBe(true);
    expect(await second.getByTestId('impersonation-note').textContent()).toContain(
      'Rooms cannot be deleted while an administrator is signed in as this user',
    );

    // The link's token is not left in the history.
    await second.goBack();
    expect(second.url()).not.toContain('/admintologinuser/');
    await second.goForward();
    await banner.waitFor();

    // While impersonating, the password cannot be changed and nothing can be bought.
    await second.goto('/profile');
    await second.getByTestId('impersonation-note').waitFor();
    expect(await second.getByTestId('change-password-submit').count()).toBe(0);
    await second.goto('/planlist');
    await second.getByTestId('impersonation-note').waitFor();
    expect(await second.getByTestId('buy-pro').isDisabled()).toBe(true);

    // Back to the administrator's own account.
    await banner.getByRole('button', { name: 'Back to my account' }).click();
    await second.waitForURL('**/admin/users');
    await banner.waitFor({ state: 'detached' });
    // The queries are fetched again as the administrator.
    await expect
      .poll(() => second.getByTestId('user-menu-button').textContent(), { timeout: 15_000 })
      .toContain(admin.username);

    // The link worked once.
    await second.goto(linkPath!);
    const refused = second.getByTestId('admin-login-error');
    await refused.waitFor();
    expect(await refused.textContent()).toBe('This sign-in link is invalid or has expired');
    await second.context().close();

    // Dismiss the report about the user's room.
    await page.goto('/admin/reports');
    // The innermost element holding both the room's name and a Dismiss button is the report's row.
    const dismiss = page.getByRole('button', { name: 'Dismiss' });
    const report = page.locator('*').filter({ hasText: room.name }).filter({ has: dismiss }).last();
    await report.getByRole('button', { name: 'Dismiss' }).click();
    await giveReason(page, 'Dismiss', 'Checked the room: nothing wrong');
    await expect
      .poll(async () => (await kit.server.app.orm.em.fork().findOneOrFail(RoomReport, reportId)).resolution, {
        timeout: 15_000,
      })
      .toBe('dismiss');
    await screenshots(page, 'admin-reports');

    // Change the Pro plan's price; the plan list shows it.
    const pro = await kit.server.app.orm.em.fork().findOneOrFail(Plan, { code: 'pro' });
    await page.goto('/admin/plans');
    const edit = page.getByRole('button', { name: 'Edit' });
    const row = page.locator('*').filter({ hasText: pro.name }).filter({ has: edit }).last();
    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Price (USD)').fill('12.34');
    await dialog.getByLabel('Reason').fill('Spring pricing');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.goto('/planlist');
    await expect
      .poll(() => page.getByTestId('plan-pro').getByTestId('plan-price').textContent(), { timeout: 15_000 })
      .toBe('$12.34');
    expect((await kit.server.app.orm.em.fork().findOneOrFail(Plan, pro.id)).priceCents).toBe(1234);
    await screenshots(page, 'admin-planlist-new-price');

    // The audit log shows each reason, trimmed, beside its action.
    await page.goto('/admin/audit');
    for (const [action, reason] of [
      ['loginLink.create', 'Ticket 4711: the dashboard looks empty to them'],
      ['report.dismiss', 'Checked the room: nothing wrong'],
      ['plan.update', 'Spring pricing'],
    ]) {
      const row = page.getByRole('row').filter({ hasText: action }).filter({ hasText: reason });
      await row.first().waitFor();
    }
    const stored = await kit.server.app.orm.em
      .fork()
      .find(AuditEntry, { targetId: user.userId, action: 'loginLink.create' });
    expect(stored.map((entry) => entry.reason)).toEqual(['Ticket 4711: the dashboard looks empty to them']);
    await screenshots(page, 'admin-audit-reasons');
    await page.context().close();
  });

  it('shows a signed-in user who is not an administrator the access-denied page, in either language', async () => {
    const page = await signedInPage(await createOwner(kit.server.app));
    await page.goto('/admin/users');
    await page.waitForURL((url) => url.pathname === '/auth/access');
    const denied = page.getByTestId('status-page');
    await expect
      .poll(() => denied.getByRole('heading').textContent(), { timeout: 15_000 })
      .toBe('Access denied');
    expect(await denied.textContent()).toContain('You do not have the permission to view this page.');
    await expect.poll(() => page.title()).toBe('Access denied | Cloud-browser rooms');
    await screenshots(page, 'admin-access-denied');

    await page.context().addCookies([{ name: 'language', value: 'zh-CN', url: kit.server.url }]);
    await page.goto('/admin/audit');
    await page.waitForURL((url) => url.pathname === '/auth/access');
    await expect.poll(() => denied.getByRole('heading').textContent(), { timeout: 15_000 }).toBe('拒绝访问');
    expect(await denied.textContent()).toContain('您没有查看此页面的权限。');
    // The way out leads to the user's own pages.
    await denied.getByRole('link', { name: '前往仪表盘' }).click();
    await page.waitForURL('**/dashboard');
    await page.context().close();
  });

  it('takes no longer search than the server does, and marks the plan field the server refuses', async () => {
    const page = await signedInPage(await createAdmin(kit.server.app));
    // The lengths of packages/api admin.types.ts: a longer text would only be refused.
    await page.goto('/admin/users');
    expect(await page.getByTestId('user-search').getAttribute('maxlength')).toBe('254');
    await page.goto('/admin/payments');
    expect(await page.getByTestId('payment-search').getAttribute('maxlength')).toBe('254');
    await page.goto('/admin/audit');
    expect(await page.getByLabel('Action').getAttribute('maxlength')).toBe('64');
    expect(await page.getByLabel('Administrator e-mail').getAttribute('maxlength')).toBe('254');
    expect(await page.getByLabel('Target id').getAttribute('maxlength')).toBe('64');

    await page.goto('/admin/plans');
    await page.locator('[data-testid="admin-plan-row"][data-plan-code="free"]').getByRole('button').click();
    const dialog = page.getByRole('dialog');
    const price = dialog.getByLabel('Price (USD)');
    await price.fill('5');
    await dialog.getByLabel('Reason').fill('Trying a price');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const error = dialog.getByTestId('form-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('The free plan is claimed, not bought: its price stays 0');
    expect(await price.getAttribute('aria-invalid')).toBe('true');
    expect(await price.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
    expect(await dialog.getByLabel('Name').getAttribute('aria-invalid')).toBeNull();
    await page.context().close();
  });
});
