// What a room's downloads cannot be made to do, against a real room: a site's file name cannot steer where the file
// is written on the server nor what the controller's browser saves it as; nobody but the person in control when
// it was offered can fetch it (not with a guessed or altered link, not after control moved on); a file sent without
// its size is still cut off at the limit.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOWNLOAD_MAX_BYTES, type TServerMessageOf } from '@rooms/api/room-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import { enterAsMember } from '../testing/room-member';
import { createOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestPages, type TTestPages } from '../testing/rooms/test-pages';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let pages: TTestPages;
let roomsDataDir: string;

beforeAll(async () => {
  pages = await startTestPages();
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-files-out-security-'));
  server = await startTestServer({
    env: { ROOMS_DATA_DIR: roomsDataDir, ROOM_EGRESS_ALLOW: pages.hostPort },
  });
});

afterAll(async () => {
  await server?.close();
  await pages?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

function enter(roomId: string, nickname: string, auth: { token?: string; password?: string }) {
  return enterAsMember(server, roomId, nickname, auth);
}

const get = (path: string) => server.app.inject({ method: 'GET', url: path });

/** Every file and directory under the rooms' downloads directories, relative to them. */
async function downloadsTree(): Promise<string[]> {
  const root = join(roomsDataDir, '.downloads');
  const entries = await readdir(root, { recursive: true }).catch(() => [] as string[]);
  return entries.map(String);
}

const NOT_AVAILABLE =
  'This download is no longer available: it was already saved, it expired, or you are no longer in control of the room';

describe('a room’s downloads', () => {
  it('cannot be steered by the file’s name, fetched by anyone else, or grown past the limit unannounced', async () => {
    const owner = await createOwner(server.app);
    const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
      token: owner.token,
      body: {
        name: uniqueRoomName('files-sec'),
        password: 'sesame',
        region: 'local',
        image: 'chromium-url',
        startUrl: pages.url('/button'),
        maxFrameRate: 10,
      },
    });
    const roomId = created.data.id;
    const started = await rest(server.app, 'POST', '/api/room/startRoom', {
      token: owner.token,
      query: { id: roomId },
    });
    expect(started).toMatchObject({ msg: 'success', data: { state: 'running' } });
    const olga = await enter(roomId, 'Olga', { token: owner.token });
    const gus = await enter(roomId, 'Gus', { password: 'sesame' });
    try {
      // A name that climbs out of the downloads directory, in both separators, with an .html extension.
      const outside = `pwned-${process.pid}-${Date.now()}`;
      const name = `..\\..\\../../../../../tmp/${outside}.html`;
      olga.client.send({
        type: 'browser/navigate',
        url: pages.url(`/file?size=64&type=text/html&name=${encodeURIComponent(name)}`),
      });
      const offer = await olga.client.next('download/offered', undefined, 30_000);
      expect(offer.name).not.toMatch(/[/\\]/);
      expect(offer.name.startsWith('.')).toBe(false);
      // Served as bytes, never as a page of ours.
      expect(offer.mime).toBe('application/octet-stream');
      expect(existsSync(join('/tmp', `${outside}.html`))).toBe(false);
      // On the server the file has Chromium's own name (a GUID) in the run's directory, whatever the site said.
      const tree = await downloadsTree();
      expect(tree.length).toBeGreaterThan(0);
      for (const entry of tree) expect(entry).toMatch(/^d-[^/]+(\/[0-9a-f-]{36})?$/);

      // Nobody else was told of it; a guessed, altered or missing key, or a tampered id, gets nothing.
      expect(gus.client.of('download/offered')).toEqual([]);
      const [path, query] = offer.url.split('?') as [string, string];
      const key = new URLSearchParams(query).get('key')!;
      const wrongKey = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
      for (const url of [
        `${path}?key=${wrongKey}`,
        `${path}?key=${key}x`,
        `/ws/room/${roomId}/downloads/${crypto.randomUUID()}?key=${key}`,
        `/ws/room/not-this-room/downloads/${offer.id}?key=${key}`,
      ]) {
        const refused = await get(url);
        expect(refused.statusCode, url).toBe(404);
        expect(refused.json()).toEqual({ msg: 'error', data: NOT_AVAILABLE });
      }
      for (const url of [path, `/ws/room/${roomId}/downloads/..%2F..%2Fetc%2Fpasswd?key=${key}`]) {
        const refused = await get(url);
        expect(refused.statusCode, url).toBe(400);
        expect(refused.json()).toEqual({ msg: 'error', data: 'This download link is not valid' });
      }

      // Control passes to Gus before Olga saves it: her link no longer works, and the file is gone.
      olga.client.send({ type: 'control/grant', memberId: gus.you });
      await gus.client.next('control/state', (state) => state.controllerId === gus.you);
      const late = await get(offer.url);
      expect(late.statusCode).toBe(404);
      await expect
        .poll(async () => (await downloadsTree()).filter((entry) => entry.includes('/')))
        .toEqual([]);

      // A file sent without its size is cut off at the limit all the same, and only the controller hears of it.
      gus.client.send({
        type: 'browser/navigate',
        url: pages.url(`/file?size=${DOWNLOAD_MAX_BYTES + 1024 * 1024}&length=0&name=endless.bin`),
      });
      const refused: TServerMessageOf<'download/refused'> = await gus.client.next(
        'download/refused',
        undefined,
        60_000,
      );
      expect(refused).toMatchObject({ name: 'endless.bin', reason: 'too-large' });
      olga.client.send({ type: 'system/ping', t: 1 });
      await olga.client.next('system/pong');
      expect(olga.client.of('download/refused')).toEqual([]);
      expect(gus.client.of('download/offered')).toEqual([]);
      await expect
        .poll(async () => (await downloadsTree()).filter((entry) => entry.includes('/')))
        .toEqual([]);
    } finally {
      olga.client.close();
      gus.client.close();
      await rest(server.app, 'POST', '/api/room/stopRoom', { token: owner.token, query: { id: roomId } });
    }
  });
});
