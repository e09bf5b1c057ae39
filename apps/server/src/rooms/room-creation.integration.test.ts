// Creating rooms over the REST API: the stored room and its defaults, the fields it needs, names, start addresses,
// and the plan's limits (each one named when broken, the room count even under creates at once).
// None of these start a browser.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner, uniqueRoomName } from '../testing/room-test-users';
import { roomApi, type TApiRoom as TRoom } from '../testing/rooms/room-api';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let roomsDataDir: string;
const { call, createRoom, createdRoom } = roomApi(() => server.app);

beforeAll(async () => {
  roomsDataDir = await mkdtemp(join(tmpdir(), 'room-creation-'));
  server = await startTestServer({ listen: false, env: { ROOMS_DATA_DIR: roomsDataDir } });
});

afterAll(async () => {
  await server?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

describe('creating a room', () => {
  it('stores a stopped private room with the plan’s limits and the room defaults (auto-close after 20 minutes, no kept data)', async () => {
    const owner = await createOwner(server.app);
    const name = uniqueRoomName('Movie');
    const room = await createdRoom(owner, { name, remark: 'Friday film', password: 'open-sesame' });
    expect(room).toMatchObject({
      name,
      remark: 'Friday film',
      password: 'open-sesame',
      hasPassword: true,
      state: 'stopped',
      isPublic: false,
      region: { code: 'local', name: 'Local' },
      image: { code: 'chromium-blank', kind: 'blank' },
      startUrl: null,
      maxConnections: 4,
      width: 1280,
      height: 720,
      maxFrameRate: 30,
      videoBitrateKbps: 2500,
      keepData: false,
      autoClose: true,
      autoCloseMinutes: 20,
      owner: owner.username,
      lastStartedAt: null,
    });
    expect(room.id).toMatch(/^[0-9a-f-]{36}$/);

    const list = await call<TRoom[]>(owner, 'GET', 'getRoomList');
    expect(list.msg).toBe('success');
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ id: room.id, name, hasPassword: true, state: 'stopped' });
    // The list never carries the share password or the knock link's token; only getRoomInfo does, for the owner.
    expect(list.data[0]).not.toHaveProperty('password');
    expect(list.data[0]).not.toHaveProperty('knockToken');

    const info = await call<TRoom>(owner, 'GET', 'getRoomInfo', { query: { name } });
    expect(info).toMatchObject({
      status: 200,
      msg: 'success',
      data: { id: room.id, password: 'open-sesame' },
    });
    // The dashboard's lean list read shows every other field exactly as the room's own view does.
    const { password: _password, knockToken: _knockToken, ...infoWithoutSecrets } = info.data;
    expect(list.data[0]).toEqual(infoWithoutSecrets);
  });

  it('asks for an image and a zone when either is missing', async () => {
    const owner = await createOwner(server.app);
    for (const body of [
      { name: uniqueRoomName() },
      { name: uniqueRoomName(), region: 'local' },
      { name: uniqueRoomName(), image: 'chromium-blank' },
      { name: uniqueRoomName(), region: '', image: 'chromium-blank' },
    ]) {
      expect(await call(owner, 'POST', 'createRoom', { body })).toMatchObject({
        status: 400,
        msg: 'error',
        data: 'An image and a zone must be chosen',
      });
    }
  });

  it('refuses zones and images that do not exist', async () => {
    const owner = await createOwner(server.app);
    expect(await createRoom(owner, { region: 'mars' })).toMatchObject({
      status: 400,
      data: 'This zone is not available',
    });
    expect(await createRoom(owner, { image: 'netscape' })).toMatchObject({
      status: 400,
      data: 'This image is not available',
    });
  });

  it('takes names of letters, digits, - and _ and CJK, unique regardless of case', async () => {
    const owner = await createOwner(server.app, { plan: 'pro' });
    const other = await createOwner(server.app, { plan: 'pro' });
    const cjk = `电影之夜${Date.now().toString(36).slice(-6)}`;
    expect((await createdRoom(owner, { name: cjk })).name).toBe(cjk);
    const kana = `カラオケ_${Date.now().toString(36).slice(-6)}`;
    expect((await createdRoom(owner, { name: kana })).name).toBe(kana);

    const name = uniqueRoomName('Movie');
    await createdRoom(owner, { name });
    expect(await createRoom(other, { name: name.toUpperCase() })).toMatchObject({
      status: 409,
      msg: 'error',
      data: 'This room name is already taken',
    });

    const rejected =
      'The room name may only contain letters, digits, - and _ (Chinese, Japanese and Korean included)';
    // 'rооm' below is spelt with Cyrillic o's: look-alike names are refused.
    for (const bad of ['my room', 'a/b', 'r\u043e\u043em', '<b>x</b>']) {
      expect(await createRoom(owner, { name: bad })).toMatchObject({ status: 400, data: rejected });
    }
    expect(await createRoom(owner, { name: 'x'.repeat(33) })).toMatchObject({
      status: 400,
      data: 'The room name cannot be longer than 32 characters',
    });
    expect(await createRoom(owner, { name: '  ' })).toMatchObject({
      status: 400,
      data: 'Please enter a room name',
    });
    expect(await createRoom(owner, { remark: 'r'.repeat(201) })).toMatchObject({
      status: 400,
      data: 'The remark cannot be longer than 200 characters',
    });
    expect(await createRoom(owner, { password: 'p'.repeat(33) })).toMatchObject({
      status: 400,
      data: 'The room password cannot be longer than 32 characters',
    });
  });

  it('needs an http(s) start address for the start-URL image, and keeps none for the others', async () => {
    const owner = await createOwner(server.app, { plan: 'pro' });
    const needsUrl = 'This image needs a start address beginning with http:// or https://';
    expect(await createRoom(owner, { image: 'chromium-url' })).toMatchObject({ status: 400, data: needsUrl });
    for (const startUrl of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url', 'http://']) {
      expect(await createRoom(owner, { image: 'chromium-url', startUrl })).toMatchObject({
        status: 400,
        data: needsUrl,
      });
    }
    const withUrl = await createdRoom(owner, {
      image: 'chromium-url',
      startUrl: 'https://example.org/start',
    });
    expect(withUrl).toMatchObject({ image: { kind: 'url' }, startUrl: 'https://example.org/start' });
    const blank = await createdRoom(owner, {
      image: 'chromium-blank',
      startUrl: 'https://example.org/ignored',
    });
    expect(blank.startUrl).toBeNull();
  });

  it('holds a Free owner to every limit of the Free plan, naming the limit', async () => {
    const owner = await createOwner(server.app);
    const cases: [Record<string, unknown>, string][] = [
      [{ width: 1920, height: 1080 }, 'Your plan allows at most 720p (1280×720)'],
      [{ width: 1280, height: 721 }, 'Your plan allows at most 720p (1280×720)'],
      [{ maxConnections: 5 }, 'Your plan allows at most 4 connections per room'],
      [{ maxFrameRate: 60 }, 'Your plan allows at most 30 fps'],
      [{ videoBitrateKbps: 2501 }, 'Your plan allows a video bitrate of at most 2500 kbps'],
      [{ autoClose: false }, 'Your plan does not allow changing the auto-close settings'],
      [{ autoCloseMinutes: 60 }, 'Your plan does not allow changing the auto-close settings'],
      [{ keepData: true }, 'Your plan does not include keeping browser data'],
    ];
    for (const [body, message] of cases) {
      expect(await createRoom(owner, body), JSON.stringify(body)).toMatchObject({
        status: 403,
        msg: 'error',
        data: message,
      });
    }
    // Within the limits, and the defaults restated, is fine.
    const small = await createdRoom(owner, {
      width: 854,
      height: 480,
      maxConnections: 2,
      maxFrameRate: 15,
      videoBitrateKbps: 1000,
      autoClose: true,
      autoCloseMinutes: 20,
      keepData: false,
      isPublic: true,
    });
    expect(small).toMatchObject({
      width: 854,
      height: 480,
      maxConnections: 2,
      maxFrameRate: 15,
      isPublic: true,
    });
    expect(await call<TRoom[]>(owner, 'GET', 'getRoomList')).toMatchObject({ data: [{ id: small.id }] });
  });

  it('lets a Pro owner have 1080p at 60 fps, kept data and a custom auto-close', async () => {
    const owner = await createOwner(server.app, { plan: 'pro' });
    const room = await createdRoom(owner, {
      width: 1920,
      height: 1080,
      maxFrameRate: 60,
      videoBitrateKbps: 8000,
      maxConnections: 10,
      keepData: true,
      autoClose: false,
      autoCloseMinutes: 90,
    });
    expect(room).toMatchObject({
      width: 1920,
      height: 1080,
      keepData: true,
      autoClose: false,
      autoCloseMinutes: 90,
    });
    expect(await createRoom(owner, { maxConnections: 11 })).toMatchObject({
      status: 403,
      data: 'Your plan allows at most 10 connections per room',
    });
  });

  it('stops at the plan’s room count, even when the creates arrive at once', async () => {
    const owner = await createOwner(server.app);
    const replies = await Promise.all([1, 2, 3, 4].map(() => createRoom(owner)));
    expect(replies.filter((reply) => reply.msg === 'success')).toHaveLength(2);
    for (const reply of replies.filter((r) => r.msg !== 'success')) {
      expect(reply).toMatchObject({ status: 403, data: 'Your plan allows at most 2 rooms' });
    }
    expect((await call<TRoom[]>(owner, 'GET', 'getRoomList')).data).toHaveLength(2);
  });
});
