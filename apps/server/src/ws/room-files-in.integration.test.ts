// Files into a real room: its Chromium opens a page with a file input (served on loopback, allowed through the
// egress proxy); the controller's press on it opens the page's file chooser, which the room intercepts and tells
// the controller alone; the file the controller sends in chunks reaches the page with its name, size and bytes.
// A file dropped on the picture reaches the page's drop zone. The files live in the run's own directory and go
// with the run.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILE_IN_MAX_BYTES_FREE } from '@rooms/api/room-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import { enterAsMember } from '../testing/room-member';
import { createOwner, uniqueRoomName } from '../testing/room-test-users';
import { uploadChecksum, uploadFile } from '../testing/rooms/file-upload';
import { startTestPages, type TTestPages, testFileBytes } from '../testing/rooms/test-pages';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let pages: TTestPages;
let roomsDataDir: string;

beforeAll(async () => {
  pages = await startTestPages();
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-files-in-'));
  server = await startTestServer({
    env: { ROOMS_DATA_DIR: roomsDataDir, ROOM_EGRESS_ALLOW: pages.hostPort },
  });
});

afterAll(async () => {
  await server?.close();
  await pages?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

async function runningRoom(startUrl: string) {
  const owner = await createOwner(server.app);
  const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
    token: owner.token,
    body: {
      name: uniqueRoomName('files-in'),
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

/** Files handed into rooms, in every run's directory: `in-*` directories of the run's own directory. */
async function filesHandedIn(): Promise<string[]> {
  const root = join(roomsDataDir, '.downloads');
  const found: string[] = [];
  for (const run of await readdir(root).catch(() => [] as string[])) {
    for (const dir of await readdir(join(root, run)).catch(() => [] as string[])) {
      if (!dir.startsWith('in-')) continue;
      for (const file of await readdir(join(root, run, dir)).catch(() => [] as string[])) found.push(file);
    }
  }
  return found;
}

describe('files from the controller into a room', () => {
  it('hands the controller’s file to the page’s file chooser, told to the controller alone', async () => {
    pages.events.length = 0;
    const room = await runningRoom(pages.url('/upload'));
    const olga = await enterAsMember(server, room.roomId, 'Olga', { token: room.owner.token });
    const gus = await enterAsMember(server, room.roomId, 'Gus', { password: 'sesame' });
    try {
      await pages.waitForEvent('ready:upload', 30_000);
      olga.client.click(0.5, 0.2);
      const requested = await olga.client.next('file/requested', undefined, 20_000);
      expect(requested).toMatchObject({ multiple: false, maxBytes: FILE_IN_MAX_BYTES_FREE });

      // Gus, who watches, hears of nothing.
      gus.client.send({ type: 'system/ping', t: 1 });
      await gus.client.next('system/pong');
      expect(gus.client.of('file/requested')).toEqual([]);

      const bytes = testFileBytes(300_000);
      const name = 'report 报告.pdf';
      const outcome = await uploadFile(olga.client, bytes, name, { requestId: requested.requestId });
      expect(outcome).toMatchObject({ type: 'file/delivered', name, size: bytes.length });
      expect(await pages.waitForEvent('chosen:', 20_000)).toBe(
        `chosen:${name}:${bytes.length}:${uploadChecksum(bytes)}`,
      );
      expect(await filesHandedIn()).toEqual([name]);
    } finally {
      olga.client.close();
      gus.client.close();
      await room.stop();
    }
    // The file goes with the run.
    expect(await filesHandedIn()).toEqual([]);
  });

  it('drops a file where the controller dropped it on the picture', async () => {
    pages.events.length = 0;
    const room = await runningRoom(pages.url('/upload'));
    const olga = await enterAsMember(server, room.roomId, 'Olga', { token: room.owner.token });
    try {
      await pages.waitForEvent('ready:upload', 30_000);
      const bytes = Buffer.from('Notes dropped into the room 笔记');
      const outcome = await uploadFile(olga.client, bytes, 'notes.txt', { x: 0.5, y: 0.62 });
      expect(outcome).toMatchObject({ type: 'file/delivered', name: 'notes.txt', size: bytes.length });
      expect(await pages.waitForEvent('dropped:', 20_000)).toBe(
        `dropped:notes.txt:${bytes.length}:${uploadChecksum(bytes)}`,
      );
    } finally {
      olga.client.close();
      await room.stop();
    }
  });
});
