// Sharing and the public square against the real server (real PostgreSQL, REST, tRPC over HTTP, tickets and
// sockets): the shared room's calls with their password and its budget of wrong tries, the owner's share
// settings, the square and its thumbnails, guests kept away from owner actions on every path, bans and reports.
// Each running room's browser is played by a LocalRoomSession (see testing/rooms/local-room-session.ts).
import { ROOM_CLOSE_CODES, roomSocketPath, type TRoomEnding } from '@rooms/api/room-protocol';
import { LOCAL_REGION_CODE, Region, Room, RoomReport, SystemImage, User } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rest, solveCaptcha, uniqueCaller } from '../testing/rest-client';
import { RoomClient } from '../testing/room-client';
import { createOwner, type TTestOwner, uniqueRoomName } from '../testing/room-test-users';
import { LocalRoomSession } from '../testing/rooms/local-room-session';
import { startTestServer, type TTestServer } from '../testing/test-server';
import type { RoomLink } from '../ws/relay-ports';

const SHARE_URL = 'https://share.rooms.example';

let server: TTestServer;
let origin: string;
const sessions = new Map<string, LocalRoomSession>();
let endSession: (roomId: string, ending?: TRoomEnding) => void = () => {};

beforeAll(async () => {
  server = await startTestServer({ env: { SHARE_URL: `${SHARE_URL}/` } });
  origin = new URL(server.config.publicUrl).origin;
  const link: RoomLink = {
    session: (roomId) => sessions.get(roomId),
    participantsChanged: () => {},
    onSessionEnded(listener) {
      endSession = (roomId, ending = { reason: 'stopped', by: null }) => listener(roomId, ending);
      return () => {};
    },
  };
  server.app.roomRelay.use({ link });
});

afterAll(async () => {
  for (const session of sessions.values()) session.stop();
  await server?.close();
});

interface TRoomOptions {
  password?: string | null;
  isPublic?: boolean;
  running?: boolean;
  remark?: string;
}

/** A room written straight into the database, its browser a local session when it runs. */
async function createRoom(owner: TTestOwner, options: TRoomOptions = {}) {
  const em = server.app.orm.em.fork();
  const running = options.running !== false;
  const room = em.create(Room, {
    name: uniqueRoomName('share'),
    remark: options.remark ?? '',
    password: options.password === undefined ? 'sesame' : options.password,
    isPublic: options.isPublic ?? false,
    state: running ? 'running' : 'stopped',
    lastStartedAt: running ? new Date() : null,
    region: await em.findOneOrFail(Region, { code: LOCAL_REGION_CODE }),
    image: (await em.find(SystemImage, {}, { limit: 1 }))[0]!,
    startUrl: null,
    maxConnections: 5,
    width: 1280,
    height: 720,
    videoBitrateKbps: 2000,
    maxFrameRate: 30,
    owner: em.getReference(User, owner.userId),
  });
  await em.flush();
  if (running) sessions.set(room.id, new LocalRoomSession(room.id, { fps: 10 }));
  return { id: room.id, name: room.name };
}

async function stopRoom(roomId: string) {
  sessions.get(roomId)?.stop();
  sessions.delete(roomId);
  endSession(roomId);
  await server.app.orm.em.fork().nativeUpdate(Room, { id: roomId }, { state: 'stopped' });
}

function api<T = unknown>(
  method: 'GET' | 'POST',
  procedure: string,
  options: { query?: Record<string, string>; body?: unknown; token?: string; ip?: string } = {},
) {
  return rest<T>(server.app, method, `/api/room/${procedure}`, options);
}

/** A tRPC call over HTTP, as the web client makes it (superjson envelope). */
async function trpc(kind: 'query' | 'mutation', path: string, input: unknown, token?: string) {
  const headers = token ? { authorization: token } : {};
  const response =
    kind === 'query'
      ? await server.app.inject({
          method: 'GET',
          url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
          headers,
        })
      : await server.app.inject({
          method: 'POST',
          url: `/trpc/${path}`,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: JSON.stringify({ json: input }),
        });
  const body = response.json() as {
    result?: { data: { json: unknown } };
    error?: { json: { message: string; data: { appCode: string } } };
  };
  return { status: response.statusCode, data: body.result?.data.json, error: body.error?.json };
}

interface TTicketCall {
  token?: string;
  password?: string;
  ip?: string;
  cookie?: string;
}

async function ticket(roomId: string, call: TTicketCall = {}) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/ws/ticket',
    remoteAddress: call.ip ?? '127.0.0.1',
    headers: {
      ...(call.token ? { authorization: call.token } : {}),
      ...(call.cookie ? { cookie: call.cookie } : {}),
    },
    payload: { roomId, ...(call.password !== undefined ? { password: call.password } : {}) },
  });
  const setCookie = response.headers['set-cookie'];
  return {
    status: response.statusCode,
    body: response.json() as { ticket: string; data?: string },
    cookie: typeof setCookie === 'string' ? setCookie.split(';')[0] : undefined,
  };
}

function socketUrl(roomId: string, query: Record<string, string>) {
  return `${server.url.replace(/^http/, 'ws')}${roomSocketPath(roomId)}?${new URLSearchParams(query)}`;
}

/** A browser: a ticket (keeping the guest cookie it is given), then the socket with our Origin, then the join. */
async function enter(roomId: string, nickname: string, call: TTicketCall = {}) {
  const issued = await ticket(roomId, call);
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  const client = await RoomClient.connect(socketUrl(roomId, { ticket: issued.body.ticket }), { origin });
  client.send({ type: 'member/join', nickname });
  await client.next('member/list');
  return { client, cookie: issued.cookie ?? call.cookie };
}

describe('the share and main domains', () => {
  it('answers the configured share address, and the address the site was opened by when none is set', async () => {
    expect(await api('GET', 'getShareDomain')).toMatchObject({ status: 200, data: SHARE_URL });
    // No PUBLIC_URL here: a server opened over the network must not hand out links to localhost.
    const main = (host: string) =>
      server.app.inject({ method: 'GET', url: '/api/room/getMainDomain', headers: { host } });
    expect((await main('192.168.1.5:3000')).json()).toEqual({
      msg: 'success',
      data: 'http://192.168.1.5:3000',
    });
    expect((await main('[::1]:3000')).json()).toEqual({ msg: 'success', data: 'http://[::1]:3000' });
    // A Host header that is no host gives the configured address, never itself.
    expect((await main('evil.example/<x>')).json()).toEqual({
      msg: 'success',
      data: server.config.publicUrl,
    });
  });
});

describe('a room shared by link', () => {
  it('shows its lobby to whoever has the name and password, never the password itself', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner, { remark: 'Movie night' });
    const { ip } = uniqueCaller();

    const info = await api<Record<string, unknown>>('GET', 'getRoomInfo_share', {
      query: { name: room.name, password: 'sesame' },
      ip,
    });
    expect(info).toMatchObject({
      status: 200,
      data: {
        id: room.id,
        name: room.name,
        remark: 'Movie night',
        owner: owner.username,
        state: 'running',
        hasPassword: true,
        isPublic: false,
        memberCount: 0,
      },
    });
    expect(info.data).not.toHaveProperty('password');
    // The share page knows the id; the owner needs no password.
    expect(
      (await api('GET', 'getRoomInfo_share', { query: { id: room.id, password: 'sesame' }, ip })).status,
    ).toBe(200);
    expect(
      (await api('GET', 'getRoomInfo_share', { query: { id: room.id }, token: owner.token })).status,
    ).toBe(200);

    expect(await api('GET', 'getRoomInfo_share', { query: { name: room.name }, ip })).toMatchObject({
      status: 403,
      data: 'This room needs a password',
    });
    expect(
      await api('GET', 'getRoomInfo_share', { query: { name: room.name, password: 'Sesame' }, ip }),
    ).toMatchObject({ status: 403, data: 'The room password is incorrect' });
  });

  it('answers a private room without a password, and a wrong id, like a room whose password is not given', async () => {
    const owner = await createOwner(server.app);
    const hidden = await createRoom(owner, { password: null });
    const { ip } = uniqueCaller();
    // The lobby takes names, so it answers a room that cannot be entered like a password room (never 404).
    expect(await api('GET', 'getRoomInfo_share', { query: { name: hidden.name }, ip })).toMatchObject({
      status: 403,
      data: 'This room needs a password',
    });
    const queries: Record<string, string>[] = [
      { name: hidden.name, password: 'x' },
      { id: 'nope', password: 'x' },
    ];
    for (const query of queries) {
      expect(await api('GET', 'getRoomInfo_share', { query, ip })).toMatchObject({
        status: 403,
        data: 'The room password is incorrect',
      });
    }
    expect(
      await api('GET', 'getPublicRoomConfig', {
        query: { id: hidden.id },
        token: (await createOwner(server.app)).token,
      }),
    ).toMatchObject({ status: 404 });
  });

  it('names the room and its owner to a visitor of its link before the password, and nothing else', async () => {
    const owner = await createOwner(server.app);
    const shared = await createRoom(owner, { remark: 'Movie night', running: false });
    const open = await createRoom(owner, { password: null, isPublic: true });
    const hidden = await createRoom(owner, { password: null });
    const invite = (id: string) => trpc('query', 'room.getShareInvite', { id });
    // Exactly these two: no remark, state, zone or people inside before the password.
    expect(await invite(shared.id)).toEqual({
      status: 200,
      data: { name: shared.name, owner: owner.username },
      error: undefined,
    });
    expect((await invite(open.id)).data).toEqual({ name: open.name, owner: owner.username });
    // A room that is not shared, one that does not exist and a made-up id all answer the same nothing.
    for (const id of [hidden.id, '00000000-0000-4000-8000-000000000000', 'not-a-room']) {
      expect(await invite(id)).toEqual({ status: 200, data: null, error: undefined });
    }
    expect((await invite('')).error?.message).toBe('Please choose a room');
  });

  it('answers a link opened without its password that the room needs one, as an answer and not a refusal', async () => {
    const owner = await createOwner(server.app);
    const shared = await createRoom(owner, { running: false });
    const open = await createRoom(owner, { password: null, isPublic: true, running: false });
    const entry = (input: Record<string, unknown>, token?: string) =>
      trpc('query', 'room.getRoomEntry', input, token);
    // Where every such link starts: a 200 the page reads, not the 403 getPublicRoomConfig answers.
    expect(await entry({ id: shared.id })).toEqual({
      status: 200,
      data: { passwordRequired: true },
      error: undefined,
    });
    expect(await entry({ id: shared.id, password: 'sesame' })).toMatchObject({
      status: 200,
      data: { passwordRequired: false, room: { id: shared.id, state: 'stopped', isOwner: false } },
    });
    expect(await entry({ id: shared.id }, owner.token)).toMatchObject({
      data: { passwordRequired: false, room: { isOwner: true } },
    });
    expect(await entry({ id: open.id })).toMatchObject({ data: { passwordRequired: false } });
    // A wrong password is still refused, and a room that is not shared still answers as a missing one.
    expect((await entry({ id: shared.id, password: 'wrong' })).error?.data.appCode).toBe(
      'ROOM_PASSWORD_INCORRECT',
    );
    expect((await entry({ id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });

  it('gives a guest with the password the room’s configuration and a ticket, and nothing when it is stopped', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    const { ip } = uniqueCaller();
    const config = await api<Record<string, unknown>>('GET', 'getPublicRoomConfig', {
      query: { id: room.id, password: 'sesame' },
      ip,
    });
    expect(config).toMatchObject({
      status: 200,
      data: { id: room.id, isOwner: false, state: 'running', width: 1280, height: 720 },
    });
    expect((await ticket(room.id, { password: 'sesame', ip })).status).toBe(200);

    await stopRoom(room.id);
    expect(
      (
        await api<{ state: string }>('GET', 'getRoomInfo_share', {
          query: { id: room.id, password: 'sesame' },
          ip,
        })
      ).data.state,
    ).toBe('stopped');
    expect(await ticket(room.id, { password: 'sesame', ip })).toMatchObject({
      status: 409,
      body: { data: 'This room is not running' },
    });
  });

  it('warns before the last free wrong passwords, then asks for the captcha, and never refuses the right one with it', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    const { ip } = uniqueCaller();
    const lobby = (password: string, extra: Record<string, string> = {}) =>
      api('GET', 'getRoomInfo_share', { query: { id: room.id, password, ...extra }, ip });
    const incorrect = 'The room password is incorrect';
    for (let i = 0; i < 2; i++)
      expect(await lobby(`guess-${i}`)).toMatchObject({ status: 403, data: incorrect });
    // Over the ticket too: one budget whichever path guesses.
    expect(await ticket(room.id, { password: 'guess-ticket', ip })).toMatchObject({
      status: 403,
      body: { data: 'The room password is incorrect. Tries left before a verification is needed: 2' },
    });
    expect(await lobby('guess-3')).toMatchObject({
      data: 'The room password is incorrect. Tries left before a verification is needed: 1',
    });
    const verifyNext =
      'The room password is incorrect. Please complete the verification before you try again';
    expect(await lobby('guess-4')).toMatchObject({ status: 403, data: verifyNext });
    // Past the free tries, nothing is checked without a captcha, the right password included.
    const needsCaptcha =
      'Several wrong passwords were tried for this room from your network. Please complete the verification, then enter the password';
    expect(await lobby('sesame')).toMatchObject({ status: 403, data: needsCaptcha });
    expect(await ticket(room.id, { password: 'sesame', ip })).toMatchObject({
      status: 403,
      body: { data: needsCaptcha },
    });
    expect(await lobby('guess-5', await solveCaptcha(server.app, ip))).toMatchObject({ data: verifyNext });
    // The right password with a solved captcha always enters; the page's later calls and its tickets on every
    // rejoin carry no captcha, and the address that entered with this password keeps entering with it.
    const config = await api('GET', 'getPublicRoomConfig', {
      query: { id: room.id, password: 'sesame', ...(await solveCaptcha(server.app, ip)) },
      ip,
    });
    expect(config.status).toBe(200);
    expect((await lobby('sesame')).status).toBe(200);
    expect((await ticket(room.id, { password: 'sesame', ip })).status).toBe(200);
    // …but only that password: a guess from the same address still needs the captcha.
    expect(await lobby('guess-6')).toMatchObject({ data: needsCaptcha });
    // The budget is the room's: another room, another address and the owner are not held back.
    const other = await createRoom(owner);
    expect(
      await api('GET', 'getRoomInfo_share', { query: { id: other.id, password: 'x-1' }, ip }),
    ).toMatchObject({
      data: incorrect,
    });
    expect((await ticket(room.id, { password: 'sesame', ip: uniqueCaller().ip })).status).toBe(200);
    expect((await ticket(room.id, { token: owner.token, ip })).status).toBe(200);
  });

  it('counts a network’s addresses together, so rotating them buys no more free guesses', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    const network = uniqueCaller().ip.split('.').slice(0, 3).join('.');
    for (let host = 1; host <= 4; host++) {
      for (let i = 0; i < 4; i++) {
        const answer = await ticket(room.id, { password: `spray-${host}-${i}`, ip: `${network}.${host}` });
        expect(answer.status).toBe(403);
      }
    }
    // Sixteen wrong tries from the /24: a fifth address is asked for the captcha at its first try.
    expect(await ticket(room.id, { password: 'sesame', ip: `${network}.5` })).toMatchObject({
      body: { data: expect.stringMatching(/^Several wrong passwords were tried/) },
    });
  });
});

describe('the owner’s share settings', () => {
  it('changes and clears the password: people inside stay, newcomers need the new one', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    const { client: guest } = await enter(room.id, 'Gus', { password: 'sesame' });

    const changed = await api<{ password: string | null }>('POST', 'updateRoomShare', {
      body: { id: room.id, password: 'open-sesame' },
      token: owner.token,
    });
    expect(changed).toMatchObject({ status: 200, data: { password: 'open-sesame' } });
    const { ip } = uniqueCaller();
    expect((await ticket(room.id, { password: 'sesame', ip })).status).toBe(403);
    expect((await ticket(room.id, { password: 'open-sesame', ip })).status).toBe(200);

    // The guest already inside keeps the session.
    guest.send({ type: 'chat/send', text: 'still here' });
    expect((await guest.next('chat/message')).message.text).toBe('still here');
    expect(guest.closed).toBeUndefined();

    // Cleared: the room is private again and answers as missing to everyone but its owner.
    await api('POST', 'updateRoomShare', { body: { name: room.name, password: '' }, token: owner.token });
    expect((await ticket(room.id, { password: 'open-sesame', ip })).status).toBe(404);
    guest.close();
  });

  it('lists a public room in the square while it runs, and only then', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner, { password: null, remark: 'Come in' });
    const privateRoom = await createRoom(owner, { password: 'sesame' });
    const stoppedPublic = await createRoom(owner, { isPublic: true, running: false });
    const square = async () =>
      (await api<{ id: string }[]>('GET', 'getPublicRoom', { token: owner.token })).data.map(
        (item) => item.id,
      );
    expect(await square()).not.toContain(room.id);

    const made = await api<{ isPublic: boolean }>('POST', 'updateRoomShare', {
      body: { id: room.id, isPublic: true },
      token: owner.token,
    });
    expect(made.data.isPublic).toBe(true);
    const { client: visitor } = await enter(room.id, 'Vera', {
      token: (await createOwner(server.app)).token,
    });

    const listed = await api<Record<string, unknown>[]>('GET', 'getPublicRoom', { token: owner.token });
    expect(listed.data.find((item) => item.id === room.id)).toMatchObject({
      name: room.name,
      remark: 'Come in',
      owner: owner.username,
      region: { code: LOCAL_REGION_CODE },
      memberCount: 1,
      maxConnections: 5,
      thumbnailUrl: `/api/room/getPublicRoomThumbnail?id=${room.id}`,
    });
    const ids = await square();
    expect(ids).not.toContain(privateRoom.id);
    expect(ids).not.toContain(stoppedPublic.id);

    visitor.close();
    await stopRoom(room.id);
    expect(await square()).not.toContain(room.id);
  });

  it('keeps the password through public and back to private: invited guests still need it, and it still works', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner, { password: null });
    await api('POST', 'updateRoomShare', { body: { id: room.id, password: 'sesame' }, token: owner.token });

    // Public and private are one switch; the password is another, which the switch never touches.
    const madePublic = await api<{ isPublic: boolean; password: string | null }>('POST', 'updateRoomShare', {
      body: { id: room.id, isPublic: true },
      token: owner.token,
    });
    expect(madePublic).toMatchObject({ status: 200, data: { isPublic: true, password: 'sesame' } });
    const { ip } = uniqueCaller();
    expect((await ticket(room.id, { ip, token: (await createOwner(server.app)).token })).status).toBe(200);

    // The same over tRPC, as the web app sends it (the field absent, not null).
    const madePrivate = await trpc(
      'mutation',
      'room.updateRoomShare',
      { id: room.id, isPublic: false },
      owner.token,
    );
    expect(madePrivate).toMatchObject({ status: 200, data: { isPublic: false, password: 'sesame' } });
    const info = await api<{ isPublic: boolean; password: string | null; hasPassword: boolean }>(
      'GET',
      'getRoomInfo',
      { query: { name: room.name }, token: owner.token },
    );
    expect(info.data).toMatchObject({ isPublic: false, password: 'sesame', hasPassword: true });

    // A guest is asked for it again, and the invited friends' password lets them in.
    expect((await ticket(room.id, { ip })).status).toBe(403);
    expect((await ticket(room.id, { ip, password: 'wrong' })).status).toBe(403);
    const { client: friend } = await enter(room.id, 'Fran', { ip, password: 'sesame' });
    friend.close();
  });

  it('is the owner’s alone: another user’s change answers as a missing room', async () => {
    const owner = await createOwner(server.app);
    const other = await createOwner(server.app);
    const room = await createRoom(owner);
    expect(
      await api('POST', 'updateRoomShare', { body: { id: room.id, isPublic: true }, token: other.token }),
    ).toMatchObject({ status: 404, data: 'The room does not exist' });
  });
});

describe('the square’s thumbnails', () => {
  it('serve a running public room’s still, one capture for many viewers, and nothing for other rooms', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner, { isPublic: true, password: null });
    const privateRoom = await createRoom(owner);
    const session = sessions.get(room.id)!;
    let captures = 0;
    const snapshot = session.snapshot.bind(session);
    session.snapshot = async () => {
      captures += 1;
      return snapshot();
    };
    const thumbnail = (id: string) =>
      server.app.inject({ method: 'GET', url: `/api/room/getPublicRoomThumbnail?id=${id}` });

    const views = await Promise.all([thumbnail(room.id), thumbnail(room.id), thumbnail(room.id)]);
    for (const view of views) {
      expect(view.statusCode).toBe(200);
      expect(view.headers['content-type']).toBe('image/jpeg');
      expect(view.rawPayload.byteLength).toBeGreaterThan(0);
    }
    expect(captures).toBe(1);

    expect((await thumbnail(privateRoom.id)).statusCode).toBe(404);
    expect((await thumbnail('not-a-room')).statusCode).toBe(404);
    await stopRoom(room.id);
    // Once the still it took has aged out (3 s): the clock moved on instead of waited for.
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 3100);
    try {
      expect((await thumbnail(room.id)).statusCode).toBe(404);
    } finally {
      vi.mocked(Date.now).mockRestore();
    }
  });
});

describe('a guest', () => {
  it('cannot call owner actions over REST or tRPC', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    for (const procedure of ['stopRoom', 'deleteRoom', 'restartRoom', 'updateRoomShare']) {
      expect(
        await api('POST', procedure, { body: { id: room.id, password: 'sesame', isPublic: true } }),
      ).toMatchObject({ status: 401, data: 'Not logged in' });
    }
    expect(await api('GET', 'getRoomInfo', { query: { name: room.name } })).toMatchObject({ status: 401 });

    for (const path of ['room.stopRoom', 'room.deleteRoom', 'room.updateRoomShare']) {
      const reply = await trpc('mutation', path, { id: room.id, isPublic: true });
      expect(reply.status).toBe(401);
      expect(reply.error?.data.appCode).toBe('NOT_LOGGED_IN');
    }
    const info = await trpc('query', 'room.getRoomInfo', { name: room.name });
    expect(info.error?.data.appCode).toBe('NOT_LOGGED_IN');
    // The shared calls work for the same guest over tRPC.
    const shared = await trpc('query', 'room.getRoomInfo_share', { id: room.id, password: 'sesame' });
    expect(shared.data).toMatchObject({ id: room.id });

    const stored = await server.app.orm.em.fork().findOneOrFail(Room, room.id);
    expect(stored).toMatchObject({ isPublic: false, password: 'sesame', state: 'running' });
  });

  it('cannot kick, ban or take control over the WebSocket', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    const { client: olga } = await enter(room.id, 'Olga', { token: owner.token });
    const { client: gus } = await enter(room.id, 'Gus', { password: 'sesame' });
    const olgaId = olga.of('member/list')[0]!.you;

    gus.send({ type: 'member/kick', memberId: olgaId });
    expect(await gus.next('system/error', (error) => error.about === 'member/kick')).toMatchObject({
      code: 'NOT_OWNER',
    });
    gus.send({ type: 'member/ban', memberId: olgaId });
    expect(await gus.next('system/error', (error) => error.about === 'member/ban')).toMatchObject({
      code: 'NOT_OWNER',
    });
    gus.send({ type: 'control/take' });
    expect(await gus.next('system/error', (error) => error.about === 'control/take')).toMatchObject({
      code: 'NOT_OWNER',
    });
    gus.send({ type: 'browser/navigate', url: 'https://example.com/' });
    expect(await gus.next('system/error', (error) => error.about === 'browser/navigate')).toMatchObject({
      code: 'NOT_CONTROLLER',
    });
    expect(olga.closed).toBeUndefined();
    expect(olga.of('control/state').at(-1)?.controllerId).toBe(olgaId);
    expect(gus.of('member/list')[0]!.members.find((member) => member.id === olgaId)?.isOwner).toBe(true);
    gus.close();
    olga.close();
  });
});

describe('a banned guest', () => {
  it('cannot come back with a new nickname in the same browser session, until the room stops', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    const { client: olga } = await enter(room.id, 'Olga', { token: owner.token });
    const { client: gus, cookie } = await enter(room.id, 'Gus', { password: 'sesame' });
    expect(cookie).toMatch(/^rooms_guest=/);
    // A ticket taken before the ban, for the comeback.
    const early = await ticket(room.id, { password: 'sesame', cookie });
    const gusId = gus.of('member/list')[0]!.you;

    olga.send({ type: 'member/ban', memberId: gusId });
    expect(await gus.next('system/error')).toMatchObject({ code: 'BANNED' });
    expect((await gus.closedWith()).code).toBe(ROOM_CLOSE_CODES.BANNED);
    expect(await olga.next('member/left', (left) => left.memberId === gusId)).toMatchObject({
      reason: 'kicked',
    });

    // Same browser: no new ticket, and the ticket taken before does not get in under another name.
    expect(await ticket(room.id, { password: 'sesame', cookie })).toMatchObject({
      status: 403,
      body: { data: 'You were banned from this room by its owner' },
    });
    const comeback = await RoomClient.connect(socketUrl(room.id, { ticket: early.body.ticket }), { origin });
    comeback.send({ type: 'member/join', nickname: 'Not Gus' });
    expect(await comeback.next('system/error')).toMatchObject({ code: 'BANNED' });
    expect((await comeback.closedWith()).code).toBe(ROOM_CLOSE_CODES.BANNED);
    // A fresh browser profile from the same address is still the banned guest.
    expect((await ticket(room.id, { password: 'sesame' })).status).toBe(403);
    // An account is never held back by a guest's address.
    const member = await createOwner(server.app);
    expect((await ticket(room.id, { token: member.token, password: 'sesame' })).status).toBe(200);
    olga.close();

    // The ban lives with the running room: after a stop and a new start the guest may come back.
    await stopRoom(room.id);
    sessions.set(room.id, new LocalRoomSession(room.id, { fps: 10 }));
    const { client: again } = await enter(room.id, 'Gus', { password: 'sesame', cookie });
    again.close();
  });
});

describe('reports', () => {
  it('are stored for the administrator from any member, guests included, within a limit', async () => {
    const owner = await createOwner(server.app);
    const room = await createRoom(owner);
    const { ip } = uniqueCaller();
    const report = await api<{ id: string }>('POST', 'reportRoom', {
      body: { id: room.id, password: 'sesame', reason: '  Offensive pictures  ' },
      ip,
    });
    expect(report.status).toBe(200);
    const stored = await server.app.orm.em.fork().findOneOrFail(RoomReport, report.data.id);
    expect(stored).toMatchObject({
      roomName: room.name,
      reason: 'Offensive pictures',
      reporterIp: ip,
      reporter: null,
    });

    const member = await createOwner(server.app);
    const signedIn = await api<{ id: string }>('POST', 'reportRoom', {
      body: { id: room.id, password: 'sesame', reason: 'Spam' },
      token: member.token,
      ip: uniqueCaller().ip,
    });
    const byMember = await server.app.orm.em.fork().findOneOrFail(RoomReport, signedIn.data.id);
    expect(byMember.reporter?.id).toBe(member.userId);

    expect(
      await api('POST', 'reportRoom', { body: { id: room.id, password: 'sesame', reason: ' ' }, ip }),
    ).toMatchObject({ status: 400, data: 'Please describe the problem' });
    // Only those who may enter can report: a wrong password is refused.
    expect(
      (await api('POST', 'reportRoom', { body: { id: room.id, password: 'x', reason: 'x' }, ip })).status,
    ).toBe(403);
    for (let i = 0; i < 3; i++) {
      await api('POST', 'reportRoom', {
        body: { id: room.id, password: 'sesame', reason: `again ${i}` },
        ip,
      });
    }
    expect(
      await api('POST', 'reportRoom', { body: { id: room.id, password: 'sesame', reason: 'once more' }, ip }),
    ).toMatchObject({ status: 429 });
  });
});
