// What a file handed into a room cannot be made to do, against a real room: it cannot be larger than the owner's
// plan allows, whether announced so or sent beyond what was announced (what arrived is deleted and the page gets
// nothing); its name cannot steer where it is written on the server (only a cleaned last segment is kept, inside
// the run's own directory); and nobody but the person in control can hand the room a file, slip bytes into the
// controller's, or decline the page's chooser for them.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILE_IN_MAX_BYTES_FREE, type TServerMessageOf } from '@rooms/api/room-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import type { RoomClient } from '../testing/room-client';
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
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-files-in-sec-'));
  server = await startTestServer({
    env: { ROOMS_DATA_DIR: roomsDataDir, ROOM_EGRESS_ALLOW: pages.hostPort },
  });
});

afterAll(async () => {
  await server?.close();
  await pages?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

/** One room on /upload for the whole file, with its owner (Olga, in control) and a guest (Gus) in it. */
let room: { roomId: string; olga: RoomClient; gus: RoomClient; stop(): Promise<unknown> };

beforeAll(async () => {
  const owner = await createOwner(server.app);
  const created = await rest<{ id: string }>(server.app, 'POST', '/api/room/createRoom', {
    token: owner.token,
    body: {
      name: uniqueRoomName('files-in-sec'),
      password: 'sesame',
      region: 'local',
      image: 'chromium-url',
      startUrl: pages.url('/upload'),
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
  const olga = await enterAsMember(server, roomId, 'Olga', { token: owner.token });
  const gus = await enterAsMember(server, roomId, 'Gus', { password: 'sesame' });
  await pages.waitForEvent('ready:upload', 30_000);
  room = {
    roomId,
    olga: olga.client,
    gus: gus.client,
    stop: async () => {
      olga.client.close();
      gus.client.close();
      await rest(server.app, 'POST', '/api/room/stopRoom', { token: owner.token, query: { id: roomId } });
    },
  };
}, 90_000);

afterAll(async () => {
  await room?.stop();
});

/** Every file under the rooms' data directory, by its path there. */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(roomsDataDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.parentPath.includes(`${join(roomsDataDir, '.downloads')}/`))
    .map((entry) => join(entry.parentPath, entry.name).slice(roomsDataDir.length + 1));
}

/** Olga presses the page's file input: the chooser it opens comes to her as a request. */
async function openChooser(): Promise<TServerMessageOf<'file/requested'>> {
  const before = room.olga.of('file/requested').length;
  room.olga.click(0.5, 0.2);
  await room.olga.until(() => room.olga.of('file/requested').length > before, 'file/requested', 20_000);
  return room.olga.of('file/requested').at(-1)!;
}

/** Waits for a round trip on a socket, so everything sent before has been handled. */
async function roundTrip(client: RoomClient): Promise<void> {
  const t = Math.random();
  client.send({ type: 'system/ping', t });
  await client.next('system/pong', (pong) => pong.t === t);
}

describe('files handed into a room', () => {
  it('refuses a file announced beyond the plan limit before storing a byte', async () => {
    const request = await openChooser();
    expect(request.maxBytes).toBe(FILE_IN_MAX_BYTES_FREE);
    const outcome = await uploadFile(room.olga, Buffer.alloc(0), 'huge.iso', request, {
      size: FILE_IN_MAX_BYTES_FREE + 1,
    });
    expect(outcome).toEqual({
      type: 'file/refused',
      uploadId: null,
      name: 'huge.iso',
      reason: 'too-large',
      maxBytes: FILE_IN_MAX_BYTES_FREE,
    });
    expect(await storedFiles()).toEqual([]);
  });

  it('breaks off a file sent beyond its announced size, deletes it, and gives the page nothing', async () => {
    const request = await openChooser();
    pages.events.length = 0;
    // Announced as 64 KiB, sent as 200 KB.
    const outcome = await uploadFile(room.olga, testFileBytes(200_000), 'sneaky.bin', request, {
      size: 64 * 1024,
    });
    expect(outcome).toMatchObject({ type: 'file/refused', reason: 'too-large', name: 'sneaky.bin' });
    await expect.poll(storedFiles).toEqual([]);
    await roundTrip(room.olga);
    expect(pages.events.filter((event) => event.startsWith('chosen:'))).toEqual([]);
  });

  it('keeps only the cleaned last segment of a name with path tricks, inside the run’s own directory', async () => {
    const marker = `owned-${process.pid}-${Date.now()}.txt`;
    for (const tricky of [`../../../../../tmp/${marker}`, `..\\..\\..\\tmp\\${marker}`, `/tmp/${marker}`]) {
      const request = await openChooser();
      pages.events.length = 0;
      const bytes = Buffer.from(`planted by ${tricky}`);
      const outcome = await uploadFile(room.olga, bytes, tricky, request);
      expect(outcome).toMatchObject({ type: 'file/delivered', name: marker, size: bytes.length });
      expect(await pages.waitForEvent('chosen:', 20_000)).toBe(
        `chosen:${marker}:${bytes.length}:${uploadChecksum(bytes)}`,
      );
      expect(existsSync(join('/tmp', marker))).toBe(false);
      expect(existsSync(join(roomsDataDir, marker))).toBe(false);
    }
    const stored = await storedFiles();
    expect(stored).toHaveLength(3);
    for (const path of stored) expect(path).toMatch(new RegExp(`^\\.downloads/d-[^/]+/in-[^/]+/${marker}$`));
    // A name that is nothing but dots and separators is not a way up either.
    const request = await openChooser();
    pages.events.length = 0;
    const outcome = await uploadFile(room.olga, Buffer.from('x'), '../..', request);
    expect(outcome).toMatchObject({ type: 'file/delivered', name: 'download' });
    // The page reports the file it was handed; wait for it here so it cannot land in the next test's log.
    expect(await pages.waitForEvent('chosen:', 20_000)).toMatch(/^chosen:download:1:/);
  });

  it('takes no file, no bytes and no answer from a member who does not control the room', async () => {
    const request = await openChooser();
    expect(room.gus.of('file/requested')).toEqual([]);
    pages.events.length = 0;

    // Gus tries to answer the page's chooser himself, then to decline it for Olga.
    const refused = await uploadFile(room.gus, Buffer.from('from gus'), 'gus.txt', request);
    expect(refused).toMatchObject({ type: 'file/refused', reason: 'not-controller', uploadId: null });
    room.gus.send({ type: 'file/cancel', requestId: request.requestId });
    await roundTrip(room.gus);

    // Olga's upload goes on, and Gus's chunks aimed at it are ignored.
    const bytes = testFileBytes(100_000);
    room.olga.send({
      type: 'file/begin',
      requestId: request.requestId,
      name: 'olga.bin',
      size: bytes.length,
    });
    const accepted = await room.olga.next('file/accepted', (message) => message.name === 'olga.bin');
    room.gus.send({
      type: 'file/chunk',
      uploadId: accepted.uploadId,
      offset: 0,
      data: Buffer.alloc(32 * 1024, 0xff).toString('base64'),
    });
    await roundTrip(room.gus);
    room.olga.send({ type: 'file/cancel', uploadId: accepted.uploadId });
    await roundTrip(room.olga);
    const outcome = await uploadFile(room.olga, bytes, 'olga.bin', request);
    expect(outcome).toMatchObject({ type: 'file/delivered', name: 'olga.bin', size: bytes.length });
    expect(await pages.waitForEvent('chosen:', 20_000)).toBe(
      `chosen:olga.bin:${bytes.length}:${uploadChecksum(bytes)}`,
    );
    expect(room.gus.of('file/accepted')).toEqual([]);
  });
});
