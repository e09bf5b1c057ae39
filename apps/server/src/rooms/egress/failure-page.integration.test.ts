// An address the room cannot open shows the room's own page saying what happened, in a real room behind the real
// egress proxy: for https:// (a refused tunnel, where Chromium alone says only "tunnel connection failed") and for
// http:// (where it said "HTTP ERROR 502"), with the typed address kept in the room's tab.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../../testing/rest-client';
import { createOwner, uniqueRoomName } from '../../testing/room-test-users';
import { startTestPages, type TTestPages } from '../../testing/rooms/test-pages';
import { startTestServer, type TTestServer } from '../../testing/test-server';

let server: TTestServer;
let pages: TTestPages;
let roomsDataDir: string;
/** A loopback port the room may reach (allow-listed) where nothing listens: connections are refused. */
let closedPort: number;
let roomId: string;

beforeAll(async () => {
  pages = await startTestPages();
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-failure-page-'));
  server = await startTestServer({
    listen: false,
    env: {
      ROOMS_DATA_DIR: roomsDataDir,
      ROOM_EGRESS_ALLOW: `${pages.hostPort},127.0.0.1:${closedPort}`,
      ROOM_MEDIA: 'screencast',
    },
  });
  const owner = await createOwner(server.app);
  const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
    token: owner.token,
    body: {
      name: uniqueRoomName('failures'),
      region: 'local',
      image: 'chromium-url',
      startUrl: pages.url('/animated'),
    },
  });
  roomId = created.data.id;
  const started = await rest(server.app, 'POST', '/api/room/startRoom', {
    token: owner.token,
    query: { id: roomId },
  });
  expect(started).toMatchObject({ data: { state: 'running' } });
});

afterAll(async () => {
  await server?.close();
  await pages?.close();
  if (roomsDataDir) await rm(roomsDataDir, { recursive: true, force: true });
});

/** Opens the address in the room as the address bar does; answers what the room's page and tab then show. */
async function open(address: string) {
  const session = server.app.roomEngine.session(roomId);
  if (!session) throw new Error('the room is not running');
  await session.navigate(address).catch(() => {});
  const page = () => server.app.roomEngine.browserContext(roomId)?.pages().at(-1);
  // An evaluation begun while the error page's document is replaced may never answer: each try gets a second.
  const failure = () =>
    Promise.race([
      page()
        ?.evaluate(() => document.body?.dataset.egressFailure)
        .catch(() => undefined),
      new Promise<undefined>((resolve) => setTimeout(resolve, 1_000)),
    ]);
  await expect.poll(failure).toBeTruthy();
  return {
    failure: await page()?.evaluate(() => document.body.dataset.egressFailure),
    heading: await page()?.evaluate(() => document.querySelector('section[lang="en"] h1')?.textContent),
    text: await page()?.evaluate(() => document.body.textContent),
    tab: session.tabs().find((tab) => tab.active)?.url,
  };
}

describe('an address the room cannot open', () => {
  it('shows that the name was not found, for https and http, keeping the typed address', async () => {
    for (const address of ['https://nowhere.invalid/path', 'http://nowhere.invalid/']) {
      const shown = await open(address);
      expect(shown).toMatchObject({
        failure: 'name-not-found',
        heading: 'This site can’t be found',
        tab: address,
      });
      expect(shown.text).toContain('nowhere.invalid');
      expect(shown.text).toContain('找不到该网站');
    }
  });

  it('shows that the site refused the connection', async () => {
    for (const address of [`https://127.0.0.1:${closedPort}/`, `http://127.0.0.1:${closedPort}/`]) {
      expect(await open(address)).toMatchObject({
        failure: 'refused',
        heading: 'This site refused to connect',
        tab: address,
      });
    }
  });

  it('shows that the address is blocked by the room’s policy', async () => {
    for (const address of ['https://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/']) {
      expect(await open(address)).toMatchObject({
        failure: 'blocked',
        heading: 'This address is blocked in rooms',
        tab: address,
      });
    }
  });

  it('escapes the address it shows', async () => {
    const shown = await open('http://nowhere.invalid/<img src=x onerror=alert(1)>');
    expect(shown.failure).toBe('name-not-found');
    const images = await server.app.roomEngine
      .browserContext(roomId)
      ?.pages()
      .at(-1)
      ?.evaluate(() => document.images.length);
    expect(images).toBe(0);
  });
});
