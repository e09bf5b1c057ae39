// The guard as a room user meets it: real Chromium behind the proxy with loopback not bypassed, so the
// allow-listed page loads and everything else of ours shows the block page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUIET_CHROMIUM_ARGS } from '../engine/room-browser';
import { startEgressProxy, type TEgressProxy } from './egress-proxy';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function startPage(text: string): Promise<{ server: Server; port: number; hits: () => number }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${text}</title><h1>${text}</h1>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits: () => hits };
}

describe('egress proxy in Chromium', () => {
  let allowed: Awaited<ReturnType<typeof startPage>>;
  let other: Awaited<ReturnType<typeof startPage>>;
  let proxy: TEgressProxy;
  let browser: Browser;
  /** The refusals' summed log lines: how many each counted, and the targets it named. */
  const logged: { blocked: number; targets: { target: string }[] }[] = [];

  beforeAll(async () => {
    allowed = await startPage('allowed page');
    other = await startPage('internal service');
    proxy = await startEgressProxy({
      allow: [`127.0.0.1:${allowed.port}`],
      logger: { warn: (obj) => logged.push(obj as (typeof logged)[number]) },
      // A line a minute in a room; here at once, so the test reads it.
      blockedLogMs: 1,
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ...QUIET_CHROMIUM_ARGS],
      proxy: { server: proxy.url, bypass: '<-loopback>' },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    allowed?.server.close();
    other?.server.close();
  });

  it('loads the allow-listed loopback page and shows the block page for the rest', async () => {
    const page = await browser.newPage();

    const ok = await page.goto(`http://127.0.0.1:${allowed.port}/`);
    expect(ok?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('allowed page');

    for (const url of [
      `http://127.0.0.1:${other.port}/`,
      `http://localhost:${other.port}/`,
      'http://169.254.169.254/',
    ]) {
      const refused = await page.goto(url);
      expect({ url, status: refused?.status() }).toEqual({ url, status: 403 });
      await expect(page.locator('section[lang="en"] h1').textContent()).resolves.toBe(
        'This address is blocked in rooms',
      );
    }
    expect(other.hits()).toBe(0);
    // Each refusal was counted and logged as a sum with the targets (Chromium also asks each blocked origin for
    // its favicon).
    await expect.poll(() => logged.reduce((sum, line) => sum + line.blocked, 0)).toBe(proxy.blocked);
    expect(logged.flatMap((line) => line.targets.map(({ target }) => target))).toEqual(
      expect.arrayContaining([`127.0.0.1:${other.port}`, `localhost:${other.port}`, '169.254.169.254:80']),
    );
  });
});
