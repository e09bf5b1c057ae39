// Account journeys in real Chromium against the real server: register with the e-mailed code, profile, change
// password, logout, login, reset password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  login,
  logout,
  register,
  screenshots,
  solveCaptcha,
  startJourneys,
  type TJourneyKit,
  toast,
  uniqueUser,
} from './support';

let kit: TJourneyKit;

beforeAll(async () => {
  kit = await startJourneys();
});

afterAll(async () => {
  await kit?.close();
});

describe('account', () => {
  it('registers with the code received by e-mail, shows the profile, changes the password, logs out and in', async () => {
    const context = await kit.newContext();
    const page = await context.newPage();
    const user = uniqueUser('reg');

    await register(page, kit.server, user);
    await toast(page, 'Registration successful');
    await screenshots(page, 'register-dashboard');
    const cookies = Object.fromEntries((await context.cookies()).map((cookie) => [cookie.name, cookie]));
    expect(cookies.token?.value).toBeTruthy();
    expect(cookies.username?.value).toBe(user.username);
    // The session cookie lives one day (give or take the seconds the journey took).
    const lifetime = (cookies.token?.expires ?? 0) - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(23.9 * 3600);
    expect(lifetime).toBeLessThanOrEqual(24 * 3600);

    await page.goto('/profile');
    // The profile comes from the server after the page has loaded.
    await expect
      .poll(() => page.getByTestId('profile-email').textContent(), { timeout: 15_000 })
      .toBe(user.email);
    expect(await page.getByTestId('profile-username').textContent()).toBe(user.username);
    expect(await page.getByTestId('profile-balance').textContent()).toBe('$0.00');
    await page.getByTestId('user-menu-button').click();
    expect(await page.getByTestId('user-menu-email').textContent()).toBe(user.email);
    await page.keyboard.press('Escape');
    await screenshots(page, 'profile');

    // Client-side rules first: mismatched entries never reach the server.
    await page.locator('#old-password').fill(user.password);
    await page.locator('#new-password').fill('NewSecret456');
    await page.locator('#confirm-password').fill('NewSecret457');
    await page.getByTestId('change-password-submit').click();
    await toast(page, 'The two passwords do not match');
    await page.locator('#confirm-password').fill('NewSecret456');
    // Changing the password needs the captcha, and says so in its own words.
    await page.getByTestId('change-password-submit').click();
    await toast(page, 'Verification data is invalid, please verify again');
    await solveCaptcha(page);
    await page.getByTestId('change-password-submit').click();
    await toast(page, 'Password changed');
    await screenshots(page, 'change-password');

    await logout(page);
    const cookieNames = async () => (await context.cookies()).map((cookie) => cookie.name);
    // The page's document.cookie writes reach the browser's cookie store a moment later.
    await expect.poll(cookieNames, { timeout: 5_000 }).not.toContain('token');
    const afterLogout = await cookieNames();
    expect(afterLogout).not.toContain('token');
    expect(afterLogout).not.toContain('username');
    await screenshots(page, 'logout');

    await login(page, user.email, user.password);
    await toast(page, 'Incorrect email or password');
    // The failed attempt spent its captcha; login() solves a fresh one.
    await login(page, user.email, 'NewSecret456');
    await page.waitForURL('**/dashboard');
    await page.goto('/profile');
    await expect
      .poll(() => page.getByTestId('profile-last-ip').textContent(), { timeout: 15_000 })
      .toMatch(/\d/);
    await screenshots(page, 'login-profile');
    await context.close();
  });

  it('asks for a valid e-mail address on the registration form, one the server would take too', async () => {
    const context = await kit.newContext();
    const page = await context.newPage();
    const user = uniqueUser('mail');
    await page.goto('/auth/register');
    await page.getByLabel('Username').fill(user.username);
    await page.locator('#password').fill(user.password);
    await page.locator('#confirm').fill(user.password);
    await solveCaptcha(page);
    // The spec's pattern, and an address longer than an account can keep, both refused with the registration form's text.
    for (const email of ['someone@example', `${'a'.repeat(250)}@example.com`]) {
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByTestId('send-code').click();
      await toast(page, 'Please enter a valid email address');
      // Gone before the next try, so the next toast is that try's own.
      await page
        .locator('[role="status"], [role="alert"]')
        .filter({ hasText: 'Please enter a valid email address' })
        .waitFor({ state: 'detached', timeout: 15_000 });
    }
    expect(await page.getByTestId('send-code').textContent()).toBe('Send code');
    await context.close();
  });

  it('resets a forgotten password with an e-mailed code, then goes to login after two seconds', async () => {
    const user = uniqueUser('reset');
    const setup = await kit.newContext();
    await register(await setup.newPage(), kit.server, user);
    await setup.close();

    const context = await kit.newContext();
    const page = await context.newPage();
    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/auth/reset-password');
    // The URL changes before the reset form replaces the login form, whose field is labelled Email too.
    await page.getByTestId('send-code').waitFor();

    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByTestId('send-code').click();
    await toast(page, 'Please complete the verification');
    await solveCaptcha(page);
    await page.getByTestId('send-code').click();
    const mail = await kit.server.smtp.nextMail(user.email);
    // The countdown starts with the server's answer, which can trail the mail.
    await expect
      .poll(() => page.getByTestId('send-code').textContent(), { timeout: 15_000 })
      .toMatch(/Resend in \d+s/);
    expect(await page.getByTestId('send-code').isDisabled()).toBe(true);

    await page.getByLabel('Email code').fill(mail.code ?? '');
    await page.locator('#password').fill('abc');
    expect(await page.getByTestId('password-meter').getAttribute('data-strength')).toBe('weak');
    await page.locator('#password').fill('abcde1');
    expect(await page.getByTestId('password-meter').getAttribute('data-strength')).toBe('medium');
    await page.locator('#password').fill('Reset789x');
    expect(await page.getByTestId('password-meter').getAttribute('data-strength')).toBe('strong');
    expect(await page.locator('#password').getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show password' }).first().click();
    expect(await page.locator('#password').getAttribute('type')).toBe('text');
    await page.locator('#confirm').fill('Reset789x');
    await solveCaptcha(page);
    await screenshots(page, 'reset-password');
    await page.getByTestId('reset-submit').click();
    await toast(page, 'Password reset successfully, please log in');
    expect(new URL(page.url()).pathname).toBe('/auth/reset-password');
    await page.waitForURL('**/auth/login', { timeout: 10_000 });

    await login(page, user.email, 'Reset789x');
    await page.waitForURL('**/dashboard');
    await screenshots(page, 'reset-then-login');
    await context.close();
  });
});
