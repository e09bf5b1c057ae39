// The room API over REST as the dashboard and third-party scripts use it (the documented room calls and a room's
// rules): the catalogues, creating rooms within the plan's limits, the owner's views, and rooms of others looking
// missing.
// None of these start a browser; room-lifecycle.integration.test.ts does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Plan, Region, Subscription } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner, uniqueRoomName } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let roomsDataDir: string;

beforeAll(async () => {
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-api-'));
  server = await startTestServer({ listen: false, env: { ROOMS_DATA_DIR: roomsDataDir } });
});

afterAll(async () => {
  await server?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

type TRoom = Record<string, unknown> & { id: string; name: string; state: string };

function call<T = unknown>(
  owner: TTestOwner | null,
  method: 'GET' | 'POST',
  procedure: string,
  options: { query?: Record<string, string>; body?: unknown } = {},
) {
  return rest<T>(server.app, method, `/api/room/${procedure}`, { ...options, token: owner?.token });
}

function createRoom(owner: TTestOwner, body: Record<string, unknown> = {}) {
  return call<TRoom>(owner, 'POST', 'createRoom', {
    body: { name: uniqueRoomName(), region: 'local', image: 'chromium-blank', ...body },
  });
}

async function createdRoom(owner: TTestOwner, body: Record<string, unknown> = {}): Promise<TRoom> {
  const reply = await createRoom(owner, body);
  expect(reply, JSON.stringify(reply.data)).toMatchObject({ status: 200, msg: 'success' });
  return reply.data;
}

describe('the catalogues', () => {
  it('show a Free user the zones and images with the Free limits, the room defaults and an upgrade hint', async () => {
    const owner = await createOwner(server.app);
    await createdRoom(owner);

    const regions = await call<{
      regions: { code: string; allowed: boolean }[];
      plan: Record<string, unknown>;
      defaults: Record<string, unknown>;
      upgradeHint: string | null;
    }>(owner, 'GET', 'getRoomRegion');
    expect(regions.msg).toBe('success');
    expect(regions.data.regions).toContainEqual(expect.objectContaining({ code: 'local', allowed: true }));
    expect(regions.data.plan).toMatchObject({
      code: 'free',
      maxRooms: 2,
      roomCount: 1,
      maxConnections: 4,
      maxWidth: 1280,
      maxHeight: 720,
      maxFrameRate: 30,
      maxBitrateKbps: 2500,
      canConfigureAutoClose: false,
      persistentStorage: false,
    });
    expect(regions.data.defaults).toEqual({
      autoClose: true,
      autoCloseMinutes: 20,
      keepData: false,
      width: 1280,
      height: 720,
      maxFrameRate: 30,
      videoBitrateKbps: 2500,
      maxConnections: 4,
    });
    expect(regions.data.upgradeHint).toBe('Better plans give better parameters and more zones');

    const images = await call<{ images: { code: string; kind: string; allowed: boolean }[]; plan: unknown }>(
      owner,
      'GET',
      'getRoomImage',
    );
    expect(images.msg).toBe('success');
    expect(images.data.images.map((image) => image.kind)).toEqual(['blank', 'video', 'url']);
    expect(images.data.images.every((image) => image.allowed)).toBe(true);
    expect(images.data.plan).toEqual(regions.data.plan);
  });

  it('show a Pro subscriber the Pro limits, sensible defaults within them and no upgrade hint', async () => {
    const owner = await createOwner(server.app, { plan: 'pro' });
    const regions = await call<{
      plan: Record<string, unknown>;
      defaults: Record<string, unknown>;
      upgradeHint: string | null;
    }>(owner, 'GET', 'getRoomRegion');
    expect(regions.data.plan).toMatchObject({
      code: 'pro',
      maxRooms: 10,
      maxHeight: 1080,
      maxFrameRate: 60,
      canConfigureAutoClose: true,
      persistentStorage: true,
    });
    // 720p at 30 fps and 3 Mbit/s, not the plan's 1080p at 60 fps and 8 Mbit/s; every connection the plan allows.
    expect(regions.data.defaults).toMatchObject({
      width: 1280,
      height: 720,
      maxFrameRate: 30,
      videoBitrateKbps: 3000,
      maxConnections: 10,
    });
    expect(regions.data.upgradeHint).toBeNull();
    // A room created without stream settings gets the same.
    expect(await createdRoom(owner)).toMatchObject({
      width: 1280,
      height: 720,
      maxFrameRate: 30,
      videoBitrateKbps: 3000,
      maxConnections: 10,
    });
  });

  it('flag a zone outside the plan, and creating a room there names the zone', async () => {
    const em = server.app.orm.em.fork();
    const code = `z${Date.now().toString(36)}`;
    em.create(Region, { code, name: 'Frankfurt', description: 'Pro only' });
    const pro = await em.findOneOrFail(Plan, { code: 'pro' });
    pro.regionCodes = [...pro.regionCodes, code];
    await em.flush();

    const free = await createOwner(server.app);
    const regions = await call<{ regions: { code: string; allowed: boolean }[] }>(
      free,
      'GET',
      'getRoomRegion',
    );
    expect(regions.data.regions).toContainEqual(expect.objectContaining({ code, allowed: false }));
    expect(await createRoom(free, { region: code })).toMatchObject({
      status: 403,
      msg: 'error',
      data: 'Your plan does not include the zone Frankfurt',
    });

    const proOwner = await createOwner(server.app, { plan: 'pro' });
    const created = await createdRoom(proOwner, { region: code });
    expect(created.region).toEqual({ code, name: 'Frankfurt' });
  });

  it('need a signed-in caller', async () => {
    expect(await call(null, 'GET', 'getRoomRegion')).toMatchObject({
      status: 401,
      msg: 'error',
      data: 'Not logged in',
    });
    expect(await call(null, 'GET', 'getRoomList')).toMatchObject({ status: 401, data: 'Not logged in' });
  });
});

describe('creating a room', () => {
  it('stores a stopped private room with the plan’s limits and the spec’s defaults', async () => {
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
    // The list never carries the share password; only getRoomInfo does, and only for the owner.
    expect(list.data[0]).not.toHaveProperty('password');

    const info = await call<TRoom>(owner, 'GET', 'getRoomInfo', { query: { name } });
    expect(info).toMatchObject({
      status: 200,
      msg: 'success',
      data: { id: room.id, password: 'open-sesame' },
    });
    // The dashboard's lean list read shows every other field exactly as the room's own view does.
    const { password: _password, ...infoWithoutPassword } = info.data;
    expect(list.data[0]).toEqual(infoWithoutPassword);
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

describe('another user’s room', () => {
  it('answers every call exactly as a room that does not exist', async () => {
    const owner = await createOwner(server.app);
    const stranger = await createOwner(server.app);
    const room = await createdRoom(owner);
    const missingId = '00000000-0000-4000-8000-000000000000';
    const notFound = { status: 404, msg: 'error', data: 'The room does not exist' };

    const calls: [string, 'GET' | 'POST', Record<string, string>][] = [
      ['getRoomInfo', 'GET', { name: room.name }],
      ['getRoomConfig', 'GET', { id: room.id }],
      ['updateState', 'GET', { name: room.name }],
      ['startRoom', 'POST', { id: room.id }],
      ['stopRoom', 'POST', { name: room.name }],
      ['restartRoom', 'POST', { id: room.id, name: room.name }],
      ['deleteRoom', 'POST', { id: room.id }],
    ];
    for (const [procedure, method, query] of calls) {
      const theirs = await call(stranger, method, procedure, { query });
      const missing = await call(stranger, method, procedure, {
        query: { ...(query.id ? { id: missingId } : {}), ...(query.name ? { name: uniqueRoomName() } : {}) },
      });
      expect(theirs, procedure).toEqual(notFound);
      expect(missing, procedure).toEqual(notFound);
    }
    expect(await call(owner, 'GET', 'getRoomConfig', { query: { id: 'not-a-uuid' } })).toEqual(notFound);
    expect((await call<TRoom[]>(stranger, 'GET', 'getRoomList')).data).toEqual([]);
    // And the room is untouched.
    expect(await call(owner, 'GET', 'getRoomInfo', { query: { name: room.name } })).toMatchObject({
      msg: 'success',
      data: { state: 'stopped' },
    });
  });

  it('is visible to participants through getRoomConfig when public, without its password', async () => {
    const owner = await createOwner(server.app);
    const participant = await createOwner(server.app);
    const room = await createdRoom(owner, { isPublic: true, password: 'secret-1' });
    const config = await call<Record<string, unknown>>(participant, 'GET', 'getRoomConfig', {
      query: { id: room.id },
    });
    expect(config).toMatchObject({
      status: 200,
      data: { id: room.id, name: room.name, isOwner: false, owner: owner.username, state: 'stopped' },
    });
    expect(config.data).not.toHaveProperty('password');
    expect(JSON.stringify(config.data)).not.toContain('secret-1');
  });
});

describe('room settings in force', () => {
  it('follow the owner’s current plan: a lapsed Pro subscription runs its 1080p room at Free’s limits', async () => {
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
    const asPro = await call<Record<string, unknown>>(owner, 'GET', 'getRoomConfig', {
      query: { id: room.id },
    });
    expect(asPro.data).toMatchObject({
      isOwner: true,
      width: 1920,
      height: 1080,
      keepData: true,
      autoClose: false,
    });

    await server.app.orm.em
      .fork()
      .nativeUpdate(Subscription, { user: owner.userId }, { expiresAt: new Date(Date.now() - 1000) });
    const asFree = await call<Record<string, unknown>>(owner, 'GET', 'getRoomConfig', {
      query: { id: room.id },
    });
    expect(asFree.data).toMatchObject({
      width: 1280,
      height: 720,
      maxFrameRate: 30,
      videoBitrateKbps: 2500,
      maxConnections: 4,
      keepData: false,
      autoClose: true,
      autoCloseMinutes: 20,
    });
    // The stored settings are kept for when the owner subscribes again.
    expect(
      (await call<TRoom>(owner, 'GET', 'getRoomInfo', { query: { name: room.name } })).data,
    ).toMatchObject({
      width: 1920,
      keepData: true,
    });
  });
});

describe('deleting and refreshing a room that never ran', () => {
  it('refreshes to stopped, deletes by name or id, and is gone afterwards', async () => {
    const owner = await createOwner(server.app);
    const first = await createdRoom(owner);
    const second = await createdRoom(owner);

    expect(await call(owner, 'GET', 'updateState', { query: { name: first.name } })).toEqual({
      status: 200,
      msg: 'success',
      data: { id: first.id, name: first.name, state: 'stopped' },
    });

    // Both given must name the same room.
    expect(
      await call(owner, 'POST', 'deleteRoom', { query: { id: first.id, name: second.name } }),
    ).toMatchObject({
      status: 404,
    });
    expect(await call(owner, 'POST', 'deleteRoom', { query: { name: first.name } })).toEqual({
      status: 200,
      msg: 'success',
      data: { id: first.id, name: first.name },
    });
    expect(await call(owner, 'POST', 'deleteRoom', { query: { id: second.id } })).toMatchObject({
      msg: 'success',
    });
    expect(await call(owner, 'POST', 'deleteRoom', { query: { id: second.id } })).toMatchObject({
      status: 404,
      data: 'The room does not exist',
    });
    expect((await call<TRoom[]>(owner, 'GET', 'getRoomList')).data).toEqual([]);
    expect(await call(owner, 'POST', 'deleteRoom', { query: {} })).toMatchObject({
      status: 400,
      data: 'Please choose a room',
    });
    // The name is free again.
    expect((await createdRoom(owner, { name: first.name })).name).toBe(first.name);
  });
});

describe('the REST document', () => {
  it('lists every documented room path with a summary', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const paths = (response.json() as { paths: Record<string, Record<string, { summary?: string }>> }).paths;
    const expected = [
      ['get', 'getRoomList'],
      ['get', 'getRoomInfo'],
      ['get', 'getRoomConfig'],
      ['get', 'getRoomRegion'],
      ['get', 'getRoomImage'],
      ['post', 'createRoom'],
      ['post', 'deleteRoom'],
      ['post', 'startRoom'],
      ['post', 'stopRoom'],
      ['post', 'restartRoom'],
      ['get', 'updateState'],
    ] as const;
    for (const [method, name] of expected) {
      expect(paths[`/api/room/${name}`]?.[method]?.summary, name).toBeTruthy();
    }
  });
});
