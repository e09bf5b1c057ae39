// One server on the Internet: a participant on another machine (a network namespace, reaching the server at an
// address that is not loopback) opens a room served over HTTPS by the server itself, and gets the H.264 picture
// and the sound (a secure context, so WebCodecs and AudioWorklet); the same server over plain HTTP gives the page
// no secure context, and the page says what is lost and how to fix it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@rooms/db';
import { COOKIES } from '@rooms/i18n';
import {
  canOpenViewerNamespace,
  createOwner,
  makeTestCertificate,
  openViewerNamespace,
  QUIET_CHROMIUM_ARGS,
  rest,
  startTestPages,
  startTestServer,
  type TTestOwner,
  type TTestPages,
  type TTestServer,
  type TViewerNamespace,
  uniqueRoomName,
} from '@rooms/server/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectMovingPicture, expectSound, passEntry } from './room-support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Opens `path` on the viewer's page. Rooms starting on this machine add network links (their sandboxes'), which
 * the viewer's Chromium, on an address that is not loopback, reports to a navigation under way as
 * ERR_NETWORK_CHANGED; a person would load the page again, and so does this (twice at most).
 */
async function open(page: Page, path: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.goto(path);
      return;
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('ERR_NETWORK_CHANGED')) throw error;
    }
  }
}

describe.runIf(await canOpenViewerNamespace())('a room over HTTPS on an address that is not loopback', () => {
  let viewer: TViewerNamespace;
  let pages: TTestPages;
  let dir: string;
  let secure: TTestServer;
  let plain: TTestServer;
  let browser: Browser;
  let owner: TTestOwner;

  beforeAll(async () => {
    [viewer, pages, dir] = await Promise.all([
      openViewerNamespace(CHROMIUM),
      startTestPages(),
      mkdtemp(join(tmpdir(), 'rooms-https-journey-')),
    ]);
    const certificate = await makeTestCertificate([viewer.hostAddress]);
    await writeFile(join(dir, 'cert.pem'), certificate.cert);
    await writeFile(join(dir, 'key.pem'), certificate.key);
    // The page's origin is the server's public one: room sockets accept no other (a non-loopback address must be
    // named by PUBLIC_URL).
    const securePort = await freePort();
    [secure, plain, browser] = await Promise.all([
      startTestServer({
        host: viewer.hostAddress,
        env: {
          PORT: String(securePort),
          PUBLIC_URL: `https://${viewer.hostAddress}:${securePort}`,
          TLS_CERT_FILE: join(dir, 'cert.pem'),
          TLS_KEY_FILE: join(dir, 'key.pem'),
          ROOM_EGRESS_ALLOW: pages.hostPort,
          ROOM_MEDIA: 'h264',
        },
      }),
      startTestServer({ host: viewer.hostAddress }),
      chromium.launch({ executablePath: viewer.chromium, args: ['--no-sandbox', ...QUIET_CHROMIUM_ARGS] }),
    ]);
    owner = await createOwner(secure.app);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([secure?.close(), plain?.close(), pages?.close()]);
    await viewer?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('streams H.264 with sound to a participant on HTTPS, with no notice', async () => {
    expect(secure.url).toMatch(/^https:\/\/10\.233\./);
    const created = await rest<{ id: string }>(secure.app, 'POST', '/api/room/createRoom', {
      token: owner.token,
      body: {
        name: uniqueRoomName('https'),
        region: 'local',
        image: 'chromium-url',
        startUrl: pages.url('/tone'),
      },
    });
    expect(created.msg).toBe('success');
    const started = await rest(secure.app, 'POST', '/api/room/startRoom', {
      token: owner.token,
      body: { id: created.data.id },
    });
    expect(started.msg).toBe('success');
    // The room's page plays before the viewer comes: the room's sandbox has added its network links by then, and
    // a link added under the viewer's page as it loads has failed its requests (ERR_NETWORK_CHANGED) after the
    // navigation itself had succeeded.
    await pages.waitForEvent('tone:', 30_000);

    // The test's certificate is trusted the way a browser trusts a real one: its errors are not shown.
    const context = await browser.newContext({
      baseURL: secure.url,
      ignoreHTTPSErrors: true,
      locale: 'en-US',
    });
    const expires = Date.now() + 60 * 60 * 1000;
    await context.addCookies(
      [
        [COOKIES.token, owner.token],
        [COOKIES.tokenExpires, String(expires)],
        [COOKIES.username, owner.username],
      ].map(([name, value]) => ({ name: name!, value: value!, url: secure.url, expires: expires / 1000 })),
    );
    const page = await context.newPage();
    await open(page, `/room/${created.data.id}`);
    await passEntry(page, owner.username);
    expect(
      await page.evaluate(() => ({
        secure: window.isSecureContext,
        webCodecs: typeof VideoDecoder,
        worklet: typeof AudioWorkletNode,
      })),
    ).toEqual({ secure: true, webCodecs: 'function', worklet: 'function' });
    const indicator = page.getByTestId('quality-indicator');
    await expect.poll(() => indicator.getAttribute('data-path'), { timeout: 30_000 }).toBe('h264');
    await expectMovingPicture(page);
    await expectSound(page);
    expect(await page.getByTestId('insecure-context-notice').count()).toBe(0);
    await context.close();
  });

  it('tells a visitor over plain HTTP what is lost and how to fix it', async () => {
    expect(plain.url).toMatch(/^http:\/\/10\.233\./);
    const context = await browser.newContext({ baseURL: plain.url, locale: 'en-US' });
    const page = await context.newPage();
    await open(page, '/auth/login');
    const notice = page.getByTestId('insecure-context-notice');
    await notice.waitFor();
    expect(await notice.getAttribute('data-missing')).toBe('insecure');
    expect(await notice.textContent()).toContain('still pictures without sound');
    expect(await notice.textContent()).toContain(`https://${new URL(plain.url).host}/auth/login`);
    expect(await page.evaluate(() => [window.isSecureContext, typeof VideoDecoder])).toEqual([
      false,
      'undefined',
    ]);
    // Hidden for the rest of the visit once read.
    await page.getByTestId('insecure-context-notice-hide').click();
    await notice.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByLabel('Email', { exact: true }).waitFor();
    expect(await notice.count()).toBe(0);

    const zh = await browser.newContext({ baseURL: plain.url, locale: 'zh-CN' });
    const zhPage = await zh.newPage();
    await open(zhPage, '/auth/login');
    await expect.poll(() => zhPage.getByTestId('insecure-context-notice').textContent()).toContain('HTTPS');
    expect(await zhPage.getByTestId('insecure-context-notice').textContent()).toContain('静态画面');
    await Promise.all([context.close(), zh.close()]);
  });
});
