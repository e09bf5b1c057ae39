// Files and text out of a real room: its Chromium downloads a file from a page served on loopback (allowed through
// the egress proxy), the controller is offered it and fetches exactly its bytes once over HTTP; a second member
// hears of nothing. A file announced beyond the limit is cancelled in the room and refused. Text the controller
// copies in the page reaches the controller alone.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOWNLOAD_MAX_BYTES, type TClientMessageInput } from '@rooms/api/room-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../rooms/engine/download-name';
import { rest } from '../testing/rest-client';
import { enterAsMember } from '../testing/room-member';
import { createOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestPages, type TTestPages, testFileBytes } from '../testing/rooms/test-pages';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let pages: TTestPages;
let roomsDataDir: string;

beforeAll(async () => {
  pages = await startTestPages();
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-files-out-'));
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

async function runningRoom(startUrl: string) {
  const owner = await createOwner(server.app);
  const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
    token: owner.token,
    body: {
      name: uniqueRoomName('files'),
      password: 'sesame',
      region: 'local',
      image: 'chromium-url',
      startUrl,
      maxFrameRate: 10,
    },
  });
  expect(created.msg, JSON.stringify(created.data)).toBe('success');
  const roomId = created.data.id;
  const started = await rest(server.app, 'POST', '/api/room/startRoom', {
    token: owner.token,
    query: { id: roomId },
  });
  expect(started).toMatchObject({ msg: 'success', data: { state: 'running' } });
  return {
    owner,
    roomId,
    stop: () => rest(server.app, 'POST', '/api/room/stopRoom', { token: owner.token, query: { id: roomId } }),
  };
}

/** Fetches an offered file as the controller's browser would: a plain GET of the offer's path on our host. */
const fetchOffer = (url: string) => fetch(new URL(url, server.url));

/** Files in the rooms' downloads directories (every run's). */
async function filesWaiting(): Promise<string[]> {
  const root = join(roomsDataDir, '.downloads');
  const runs = await readdir(root).catch(() => [] as string[]);
  const files = await Promise.all(runs.map((run) => readdir(join(root, run)).catch(() => [] as string[])));
  return files.flat();
}

const ctrl = (key: string, code: string): TClientMessageInput[] => [
  { type: 'input/key', action: 'down', key, code, modifiers: 2 },
  { type: 'input/key', action: 'up', key, code, modifiers: 2 },
];

describe('a room’s downloads and copies, for its controller', () => {
  it('offers a download to the controller alone, who fetches its exact bytes once', async () => {
    const room = await runningRoom(pages.url('/button'));
    const olga = await enter(room.roomId, 'Olga', { token: room.owner.token });
    const gus = await enter(room.roomId, 'Gus', { password: 'sesame' });
    try {
      const size = 300_000;
      // A name with a path and a bidi override in it: the offer shows only the clean last segment.
      const name = '../../etc/re\u202Eport 报告.csv';
      olga.client.send({
        type: 'browser/navigate',
        url: pages.url(`/file?size=${size}&type=text/html&name=${encodeURIComponent(name)}`),
      });
      const offer = await olga.client.next('download/offered', undefined, 30_000);
      expect(offer).toMatchObject({ size, mime: 'text/csv' });
      // Chromium cleans the name first (its own '_' for the separators and the override); ours is the second layer.
      expect(offer.name).toMatch(/^[^/\\\u202E]*报告\.csv$/);
      expect(offer.name).not.toMatch(/^\./);
      expect(offer.url.startsWith(`/ws/room/${room.roomId}/downloads/${offer.id}?key=`)).toBe(true);

      // Gus, who watches but does not control, hears of nothing.
      gus.client.send({ type: 'system/ping', t: 1 });
      await gus.client.next('system/pong');
      expect(gus.client.of('download/offered')).toEqual([]);

      const response = await fetchOffer(offer.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-disposition')).toBe(attachmentDisposition(offer.name));
      expect(Buffer.from(await response.arrayBuffer()).equals(testFileBytes(size))).toBe(true);

      // Once: a second fetch finds nothing, and the file is gone from the server.
      const again = await fetchOffer(offer.url);
      expect(again.status).toBe(404);
      expect(await again.json()).toEqual({
        msg: 'error',
        data: 'This download is no longer available: it was already saved, it expired, or you are no longer in control of the room',
      });
      await expect.poll(filesWaiting).toEqual([]);
    } finally {
      olga.client.close();
      gus.client.close();
      await room.stop();
    }
  });

  it('cancels and refuses a download announced beyond the limit', async () => {
    const room = await runningRoom(pages.url('/button'));
    const olga = await enter(room.roomId, 'Olga', { token: room.owner.token });
    try {
      olga.client.send({
        type: 'browser/navigate',
        url: pages.url(`/file?size=${DOWNLOAD_MAX_BYTES + 1}&name=huge.iso`),
      });
      expect(await olga.client.next('download/refused', undefined, 30_000)).toMatchObject({
        name: 'huge.iso',
        reason: 'too-large',
        maxBytes: DOWNLOAD_MAX_BYTES,
      });
      // A small one after it still arrives: the refusal cancelled the big one rather than wedging downloads.
      olga.client.send({ type: 'browser/navigate', url: pages.url('/file?size=10&name=small.txt') });
      expect(await olga.client.next('download/offered', undefined, 30_000)).toMatchObject({
        name: 'small.txt',
        size: 10,
      });
      expect(olga.client.of('download/offered').map((offer) => offer.name)).toEqual(['small.txt']);
      await expect.poll(filesWaiting).toEqual([expect.any(String)]);
    } finally {
      olga.client.close();
      await room.stop();
    }
  });

  it('hands text copied in the page to the controller alone', async () => {
    const room = await runningRoom(pages.url('/copy'));
    const olga = await enter(room.roomId, 'Olga', { token: room.owner.token });
    const gus = await enter(room.roomId, 'Gus', { password: 'sesame' });
    try {
      await pages.waitForEvent('ready:copy', 30_000);
      // Into the field, select all of it, copy: as a person does it.
      olga.client.click(0.3, 0.2);
      for (const message of [...ctrl('a', 'KeyA'), ...ctrl('c', 'KeyC')]) olga.client.send(message);
      expect(await olga.client.next('clipboard/copied', undefined, 20_000)).toEqual({
        type: 'clipboard/copied',
        text: 'Copied out of the room 房间里复制的文字',
        truncated: false,
      });
      // Gus's own Ctrl+C is refused (not in control) and copies nothing to anyone.
      for (const message of ctrl('c', 'KeyC')) gus.client.send(message);
      expect(await gus.client.next('system/error')).toMatchObject({ code: 'NOT_CONTROLLER' });
      olga.client.send({ type: 'system/ping', t: 2 });
      await olga.client.next('system/pong');
      expect(gus.client.of('clipboard/copied')).toEqual([]);
      expect(olga.client.of('clipboard/copied')).toHaveLength(1);
    } finally {
      olga.client.close();
      gus.client.close();
      await room.stop();
    }
  });
});
