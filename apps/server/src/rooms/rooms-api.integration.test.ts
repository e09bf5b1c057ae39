// The room API over REST as the dashboard and third-party scripts use it (the documented room calls and a room's
// rules): the catalogues, the owner's views, settings in force, and rooms of others looking missing. Creating
// rooms within the plan's limits is room-creation.integration.test.ts.
// None of these start a browser; room-lifecycle.integration.test.ts does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Plan, Region, Subscription } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner, uniqueRoomName } from '../testing/room-test-users';
import { roomApi, type TApiRoom as TRoom } from '../testing/rooms/room-api';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let roomsDataDir: string;
const { call, createRoom, createdRoom } = roomApi(() => server.app);

beforeAll(async () => {
  roomsDataDir = await mkdtemp(join(tmpdir(), 'rooms-api-'));
  server = await startTestServer({ listen: false, env: { ROOMS_DATA_DIR: roomsDataDir } });
});

afterAll(async () => {
  await server?.close();
  await rm(roomsDataDir, { recursive: true, force: true });
});

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
