// The administrator's journey in real Chromium against the real server: find a user, open the one-time sign-in link
// in a second browser that sees the user's dashboard under the impersonation banner and goes back to its own
// account; then dismiss a report about the user's room and change a plan's price, which the plan list shows.
import { Plan, Room, RoomReport, User } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../server/src/admin/admin-testing';
import { createOwner, type TTestOwner, uniqueRoomName } from '../../server/src/rooms/room-test-users';
import { rest } from '../../server/src/testing/rest-client';
import { type Page, screenshots, startJourneys, type TJourneyKit } from './support';

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
    const userLink = page.locator(`a[href$="/admin/users/${user.userId}"]`).first();
    await userLink.click();
    await page.waitForURL(`**/admin/users/${user.userId}`);
    await page.getByRole('button', { name: 'Sign in as this user' }).click();
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
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.goto('/planlist');
    await expect
      .poll(() => page.getByTestId('plan-pro').getByTestId('plan-price').textContent(), { timeout: 15_000 })
      .toBe('$12.34');
    expect((await kit.server.app.orm.em.fork().findOneOrFail(Plan, pro.id)).priceCents).toBe(1234);
    await screenshots(page, 'admin-planlist-new-price');
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
