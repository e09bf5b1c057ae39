// The money journey in real Chromium against the real server: recharge through the sandbox checkout page, the
// bill turns paid, the balance shows, buy Pro, the account shows VIP, and a 1080p 60 fps room the Free plan did
// not offer can be created. The flow once, in English; in Chinese each of its screens shows its texts translated.
import { Room } from '@rooms/db';
import { createOwner } from '@rooms/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Page, screenshots, startJourneys, type TJourneyKit, toast } from './support';

let kit: TJourneyKit;

beforeAll(async () => {
  kit = await startJourneys();
});

afterAll(async () => {
  await kit?.close();
});

const TEXTS = {
  'en-US': {
    pay: 'Pay',
    subscription: 'Subscription',
    paid: 'Paid',
    bought: /You now hold Pro monthly/,
    free: 'Free',
    pro: 'Pro monthly',
    // The seeded Pro plan's 30 days read in the page's time units (minutes to years).
    term: 'for 1 month',
    claim: 'Claim 2 h of room time',
  },
  // The seeded plans' names in the page's language too.
  'zh-CN': {
    pay: '支付',
    subscription: '订阅',
    paid: '已支付',
    bought: /你已开通 专业版（月付）/,
    free: '免费',
    pro: '专业版（月付）',
    term: '1 个月',
    claim: '领取 2 小时 房间时长',
  },
} as const;

type TLocale = keyof typeof TEXTS;

/** A fresh account, signed in through its session cookies (registration has its own journey). */
async function signedInPage(locale: TLocale): Promise<{ page: Page; userId: string }> {
  const owner = await createOwner(kit.server.app);
  const context = await kit.newContext({ locale });
  const expires = Date.now() + 23 * 3600 * 1000;
  await context.addCookies(
    [
      { name: 'token', value: owner.token },
      { name: 'token_expires', value: String(expires) },
      { name: 'username', value: owner.username },
      { name: 'avatar', value: '' },
      { name: 'language', value: locale },
    ].map((cookie) => ({ ...cookie, url: kit.server.url })),
  );
  return { page: await context.newPage(), userId: owner.userId };
}

async function resolutionOptions(page: Page): Promise<string[]> {
  return page
    .getByTestId('create-room-dialog')
    .getByTestId('room-resolution')
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
}

async function journey(locale: TLocale) {
  const texts = TEXTS[locale];
  const shot = (name: string) => screenshots(page, `billing-${name}-${locale}`);
  const { page, userId } = await signedInPage(locale);

  // On Free, the create dialog offers neither 1080p nor 60 fps, and its hint leads to the plans.
  await page.goto('/dashboard');
  await page.getByTestId('create-room').click();
  await page.getByTestId('room-name').waitFor();
  await page.getByTestId('upgrade-hint').waitFor();
  expect(await resolutionOptions(page)).not.toContain('1920x1080');
  await page.getByTestId('upgrade-hint').getByRole('link').click();
  await page.waitForURL('**/planlist');
  await page.getByRole('heading', { name: texts.subscription, exact: true }).waitFor();
  await page.getByTestId('plan-pro').waitFor();
  expect(await page.getByTestId('current-plan-name').textContent()).toBe(texts.free);
  // The free plan is theirs already: the page says what claiming it adds, not that it is "not claimed".
  await page.getByTestId('free-plan-claim-hint').waitFor();
  expect(await page.getByTestId('claim-free').textContent()).toBe(texts.claim);
  expect(await page.getByTestId('plan-pro').textContent()).toContain(texts.term);
  await shot('planlist-free');

  // Recharge $10 through the sandbox checkout page.
  await page.goto('/bill/pay');
  await page.getByTestId('method-sandbox').check();
  await page.getByTestId('preset-10').click();
  await shot('recharge');
  await page.getByTestId('recharge-submit').click();
  await page.waitForURL('**/api/pay/sandbox/checkout**');
  await shot('sandbox-checkout');
  await page.getByRole('button', { name: texts.pay, exact: true }).click();

  // Back on the bill: paid, with the balance credited.
  await page.waitForURL('**/bill**');
  const details = page.getByTestId('payment-details');
  await details.locator('[data-testid="payment-status"][data-status="paid"]').waitFor({ timeout: 15_000 });
  expect(await details.getByTestId('payment-status').textContent()).toBe(texts.paid);
  await shot('bill-paid');
  await page.keyboard.press('Escape');
  await page.locator('[data-testid="bill-row"] [data-status="paid"]').waitFor();
  // The balances come with the server's answers after the payment.
  await expect
    .poll(() => page.getByTestId('bill-balance').textContent(), { timeout: 15_000 })
    .toMatch(/10\.00/);
  await page.getByTestId('user-menu-button').click();
  await expect
    .poll(() => page.getByTestId('user-menu-balance').textContent(), { timeout: 15_000 })
    .toMatch(/10\.00/);
  await page.keyboard.press('Escape');

  // Buy Pro with the balance; the confirmation shows the balance left.
  await page.goto('/planlist');
  await page.getByTestId('buy-pro').click();
  const confirm = page.getByTestId('buy-confirm');
  await confirm.waitFor();
  // The dialog can open before the user's plan (with the balance) has arrived; until then it counts $0.00.
  await expect
    .poll(() => confirm.getByTestId('buy-confirm-balance').textContent(), { timeout: 15_000 })
    .toMatch(/0\.01/);
  await confirm.getByTestId('confirm-yes').click();
  await toast(page, texts.bought);
  await expect
    .poll(() => page.getByTestId('current-plan-name').textContent(), { timeout: 15_000 })
    .toBe(texts.pro);
  await page.getByTestId('current-plan-vip').waitFor();
  await page.locator('[data-testid="user-menu-button"][data-vip="true"]').waitFor({ timeout: 15_000 });
  await shot('planlist-pro');

  // Now the dialog offers 1080p at 60 fps, and the room is created with them.
  await page.goto('/dashboard');
  await page.getByTestId('create-room').click();
  const dialog = page.getByTestId('create-room-dialog');
  await dialog.getByTestId('room-name').waitFor();
  await expect.poll(() => resolutionOptions(page), { timeout: 15_000 }).toContain('1920x1080');
  const name = `pro-${locale.slice(0, 2)}-${Date.now().toString(36)}`;
  await dialog.getByTestId('room-name').fill(name);
  // Zone and image come preselected: the dialog works with its defaults.
  await expect.poll(() => dialog.getByTestId('room-region').inputValue(), { timeout: 15_000 }).toBe('local');
  await expect
    .poll(() => dialog.getByTestId('room-image').inputValue(), { timeout: 15_000 })
    .toBe('chromium-blank');
  // It starts from sensible settings, not the plan's maximum: 720p at 30 fps and 3 Mbit/s.
  await expect
    .poll(() => dialog.getByTestId('room-resolution').inputValue(), { timeout: 15_000 })
    .toBe('1280x720');
  expect(await dialog.getByTestId('room-fps').inputValue()).toBe('30');
  expect(await dialog.getByTestId('room-bitrate').inputValue()).toBe('3000');
  expect(await dialog.getByTestId('room-connections').inputValue()).toBe('10');
  await dialog.getByTestId('room-resolution').selectOption('1920x1080');
  await dialog.getByTestId('room-fps').selectOption('60');
  await dialog.getByTestId('create-room-submit').click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator(`[data-testid="room-card"][data-room-name="${name}"]`).waitFor();
  const room = await kit.server.app.orm.em.fork().findOneOrFail(Room, { name, owner: userId });
  expect(room).toMatchObject({ width: 1920, height: 1080, maxFrameRate: 60 });
  await shot('dashboard-pro');
  await page.context().close();
}

/**
 * The journey's screens in another language, each with its texts translated: the plans on Free, the recharge, the
 * sandbox checkout, the paid bill, and the plans once Pro is bought. The flow is the English journey's; this goes
 * through it only as far as each screen needs (a payment to see it paid, Pro to see it held).
 */
async function translatedScreens(locale: TLocale) {
  const texts = TEXTS[locale];
  const shot = (name: string) => screenshots(page, `billing-${name}-${locale}`);
  const { page } = await signedInPage(locale);

  await page.goto('/planlist');
  await page.getByRole('heading', { name: texts.subscription, exact: true }).waitFor();
  await page.getByTestId('plan-pro').waitFor();
  await expect
    .poll(() => page.getByTestId('current-plan-name').textContent(), { timeout: 15_000 })
    .toBe(texts.free);
  await page.getByTestId('free-plan-claim-hint').waitFor();
  expect(await page.getByTestId('claim-free').textContent()).toBe(texts.claim);
  expect(await page.getByTestId('plan-pro').textContent()).toContain(texts.term);
  await shot('planlist-free');

  await page.goto('/bill/pay');
  await page.getByTestId('method-sandbox').check();
  await page.getByTestId('preset-10').click();
  await shot('recharge');
  await page.getByTestId('recharge-submit').click();
  await page.waitForURL('**/api/pay/sandbox/checkout**');
  await shot('sandbox-checkout');
  await page.getByRole('button', { name: texts.pay, exact: true }).click();
  await page.waitForURL('**/bill**');
  const details = page.getByTestId('payment-details');
  await details.locator('[data-testid="payment-status"][data-status="paid"]').waitFor({ timeout: 15_000 });
  expect(await details.getByTestId('payment-status').textContent()).toBe(texts.paid);
  await shot('bill-paid');

  await page.goto('/planlist');
  await page.getByTestId('buy-pro').click();
  const confirm = page.getByTestId('buy-confirm');
  await confirm.waitFor();
  await expect
    .poll(() => confirm.getByTestId('buy-confirm-balance').textContent(), { timeout: 15_000 })
    .toMatch(/0\.01/);
  await confirm.getByTestId('confirm-yes').click();
  await toast(page, texts.bought);
  await expect
    .poll(() => page.getByTestId('current-plan-name').textContent(), { timeout: 15_000 })
    .toBe(texts.pro);
  await shot('planlist-pro');
  await page.context().close();
}

describe('billing', () => {
  it('recharges through the sandbox, buys Pro, shows VIP and creates a 1080p 60 fps room', async () => {
    await journey('en-US');
  });

  it('shows each screen of the journey in Chinese', async () => {
    await translatedScreens('zh-CN');
  });

  it('with too little balance, recharges what is missing and comes back to the purchase; auto-renew and switching plans say what they cost', async () => {
    const { page } = await signedInPage('en-US');
    await page.goto('/planlist');
    await page.getByTestId('buy-pro').click();
    const confirm = page.getByTestId('buy-confirm');
    await confirm.waitFor();
    await expect
      .poll(() => confirm.getByTestId('buy-confirm-balance').textContent())
      .toContain('You need $9.99 more');
    expect(await confirm.getByTestId('buy-confirm-balance').textContent()).not.toContain('-');
    expect(await confirm.getByTestId('confirm-yes').isDisabled()).toBe(true);

    // The recharge carries the missing amount, and the payment goes back to the purchase.
    await confirm.getByTestId('buy-confirm-recharge').click();
    await page.waitForURL('**/bill/pay?**');
    await expect.poll(() => page.getByTestId('recharge-amount').inputValue()).toBe('9.99');
    await page.getByTestId('recharge-for-purchase').waitFor();
    await page.getByTestId('recharge-submit').click();
    await page.waitForURL('**/api/pay/sandbox/checkout**');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL('**/planlist');
    await confirm.waitFor();
    await expect
      .poll(() => confirm.getByTestId('buy-confirm-balance').textContent())
      .toContain('Balance after purchase: $0.00');
    await confirm.getByTestId('confirm-yes').click();
    await toast(page, /You now hold Pro monthly/);
    await expect.poll(() => page.getByTestId('current-plan-name').textContent()).toBe('Pro monthly');

    // Auto-renew with $0.00 asks first, with what the renewal needs, and keeps saying it once on.
    await page.getByTestId('auto-renew').click();
    const renew = page.getByTestId('auto-renew-confirm');
    await renew.waitFor();
    expect(await renew.getByTestId('auto-renew-confirm-short').textContent()).toContain(
      'You need $9.99 more',
    );
    await screenshots(page, 'billing-auto-renew-short');
    await renew.getByTestId('confirm-yes').click();
    await page.getByTestId('auto-renew-short').waitFor();
    expect(await page.getByTestId('auto-renew').getAttribute('data-state')).toBe('checked');

    // Going yearly credits the month just bought, shown before paying.
    await page.getByTestId('buy-pro-yearly').click();
    await confirm.getByTestId('buy-confirm-credit').waitFor();
    expect(await confirm.getByTestId('buy-confirm-credit').textContent()).toMatch(
      /Credit for the unused part of your current plan: −\$9\.9[89]/,
    );
    await screenshots(page, 'billing-switch-credit');
    await page.context().close();
  });

  it('offers Buy only once the balance it counts from has arrived', async () => {
    const { page } = await signedInPage('en-US');
    // The user's plan (with the balance) held back, as on a slow connection; the plan list comes at once.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/trpc/pay.getUserPlan**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/planlist');
    const buy = page.getByTestId('buy-pro');
    await buy.waitFor();
    // It opened a confirmation counting from $0.00 ("You need $9.99 more") whatever the balance was.
    expect(await buy.isDisabled()).toBe(true);
    // And it looks disabled: dimmed, the not-allowed cursor, and no change under the pointer.
    const look = () =>
      buy.evaluate((element) => {
        const style = getComputedStyle(element);
        return { opacity: Number(style.opacity), cursor: style.cursor, background: style.backgroundColor };
      });
    const still = await look();
    expect(still.opacity).toBeLessThanOrEqual(0.5);
    expect(still.cursor).toBe('not-allowed');
    // Without its colour transition, a hover style would show at once.
    await buy.evaluate((element) => {
      (element as HTMLElement).style.transition = 'none';
    });
    await buy.scrollIntoViewIfNeeded();
    const box = await buy.boundingBox();
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    expect(await buy.evaluate((element) => element.matches(':hover'))).toBe(true);
    expect(await look()).toEqual(still);
    await screenshots(page, 'billing-buy-disabled');
    release();
    await expect.poll(() => buy.isEnabled()).toBe(true);
    await page.context().close();
  });
});
