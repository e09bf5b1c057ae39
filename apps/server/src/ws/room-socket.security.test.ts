// The room socket's findings of the security reviews (issues 10 and 29), against the real server: real PostgreSQL, real
// sockets, the real account calls and the operator CLI. Each room's browser is a LocalRoomSession.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOM_CLOSE_CODES, roomSocketPath } from '@rooms/api/room-protocol';
import { LOCAL_REGION_CODE, Plan, Region, Room, Session, SystemImage, User } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { REPO_ROOT } from '../env';
import { createAdmin, impersonate } from '../testing/admin-accounts';
import { rest, solveCaptcha, uniqueCaller } from '../testing/rest-client';
import { RoomClient } from '../testing/room-client';
import { LocalRoomSession } from '../testing/rooms/local-room-session';
import { startTestServer, type TTestServer } from '../testing/test-server';
import { databaseLiveSessions } from './default-ports';
import type { RoomLink } from './relay-ports';

let server: TTestServer;
let origin: string;
const sessions = new Map<string, LocalRoomSession>();

beforeAll(async () => {
  server = await startTestServer();
  origin = new URL(server.config.publicUrl).origin;
  const link: RoomLink = {
    session: (roomId) => sessions.get(roomId),
    participantsChanged: () => {},
  };
  server.app.roomRelay.use({ link });
});

afterAll(async () => {
  for (const session of sessions.values()) session.stop();
  await server?.close();
});

const PASSWORD = 'first-secret-1';

interface TUser {
  id: string;
  email: string;
  token: string;
}

/** An account with a real password and one session (a device); `signIn` gives it another. */
async function createUser(username: string): Promise<TUser> {
  const em = server.app.orm.em.fork();
  const { email } = uniqueCaller(username.toLowerCase());
  const user = em.create(User, {
    username,
    email,
    passwordHash: await server.app.services.passwords.hash(PASSWORD),
  });
  await em.flush();
  return { id: user.id, email, token: await signIn(user.id) };
}

async function signIn(userId: string): Promise<string> {
  const em = server.app.orm.em.fork();
  const token = randomBytes(32).toString('base64url');
  em.create(Session, {
    user: em.getReference(User, userId),
    tokenHash: createHash('sha256').update(token).digest('hex'),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  await em.flush();
  return token;
}

async function createRoom(ownerId: string, password: string | null = 'sesame'): Promise<string> {
  const em = server.app.orm.em.fork();
  const room = em.create(Room, {
    name: `sec-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
    password,
    isPublic: false,
    region: await em.findOneOrFail(Region, { code: LOCAL_REGION_CODE }),
    image: (await em.find(SystemImage, {}, { limit: 1 }))[0]!,
    startUrl: null,
    maxConnections: 10,
    width: 1280,
    height: 720,
    videoBitrateKbps: 2000,
    maxFrameRate: 30,
    owner: em.getReference(User, ownerId),
  });
  await em.flush();
  sessions.set(room.id, new LocalRoomSession(room.id, { fps: 5 }));
  return room.id;
}

/**
 * A browser's ticket; `cookie` is the browser's guest cookie (none: a fresh browser profile), `ip` its address
 * (tickets are limited per address, so a test asking for many gives its own).
 */
async function ticket(
  roomId: string,
  call: { token?: string; password?: string; cookie?: string; ip?: string } = {},
) {
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
    cookie: typeof setCookie === 'string' ? setCookie.split(';')[0] : call.cookie,
  };
}

function socketUrl(roomId: string, query: Record<string, string>) {
  return `${server.url.replace(/^http/, 'ws')}${roomSocketPath(roomId)}?${new URLSearchParams(query)}`;
}

/** A browser opening the room with a ticket, without joining yet. */
async function openWithTicket(roomId: string, call: Parameters<typeof ticket>[1] = {}) {
  const issued = await ticket(roomId, call);
  expect(issued.status).toBe(200);
  const client = await RoomClient.connect(socketUrl(roomId, { ticket: issued.body.ticket }), { origin });
  return { client, cookie: issued.cookie };
}

/** A browser entering the room under a nickname. */
async function enter(roomId: string, nickname: string, call: Parameters<typeof ticket>[1] = {}) {
  const { client, cookie } = await openWithTicket(roomId, call);
  client.send({ type: 'member/join', nickname });
  await client.next('member/list');
  return { client, cookie };
}

/** A script entering with its session token. */
async function enterWithToken(roomId: string, nickname: string, token: string, password?: string) {
  const client = await RoomClient.connect(
    socketUrl(roomId, { token }),
    password ? { 'x-room-password': password } : {},
  );
  client.send({ type: 'member/join', nickname });
  await client.next('member/list');
  return client;
}

const run = promisify(execFile);

async function cli(...args: string[]) {
  const tsx = join(REPO_ROOT, 'node_modules/.bin/tsx');
  return run(tsx, [join(REPO_ROOT, 'apps/server/src/cli.ts'), ...args], {
    env: { ...process.env, DATABASE_URL: server.config.databaseUrl, APP_SECRET: 'z'.repeat(40) },
  });
}

async function expectSessionEnded(client: RoomClient) {
  expect((await client.closedWith()).code).toBe(ROOM_CLOSE_CODES.SESSION_ENDED);
  expect(client.of('system/error').at(-1)).toMatchObject({
    code: 'SESSION_ENDED',
    message: 'You were signed out; please sign in again to rejoin',
  });
}

describe('a room socket and the session it was opened with', () => {
  it('closes the moment the session ends: logout, password change, reset and an operator disabling the account', async () => {
    const olga = await createUser('Olga');
    const roomId = await createRoom(olga.id);
    // Olga's laptop (a browser) and her phone (a second session, here a script with its token).
    const { client: laptop } = await enter(roomId, 'Olga', { token: olga.token });
    const phoneToken = await signIn(olga.id);
    const phone = await enterWithToken(roomId, 'Olga', phoneToken);

    // A password change on the laptop ends the phone's session, and the phone's socket with it.
    const changed = await rest(server.app, 'POST', '/api/user/updatePassword', {
      body: { oldPassword: PASSWORD, newPassword: 'second-secret-2', ...(await solveCaptcha(server.app)) },
      token: olga.token,
    });
    expect(changed.msg).toBe('success');
    await expectSessionEnded(phone);
    expect(laptop.closed).toBeUndefined();

    // Logging out on the laptop closes the laptop's socket, and a ticket it took before is worth nothing.
    const spare = await ticket(roomId, { token: olga.token });
    expect((await rest(server.app, 'POST', '/api/user/logout', { token: olga.token })).msg).toBe('success');
    await expectSessionEnded(laptop);
    await expect(
      RoomClient.connect(socketUrl(roomId, { ticket: spare.body.ticket }), { origin }),
    ).rejects.toMatchObject({ status: 401 });

    // A password reset by e-mail code ends every session of the account.
    const max = await createUser('Max');
    const maxRoom = await createRoom(max.id);
    const maxSocket = await enterWithToken(maxRoom, 'Max', max.token);
    const { ip } = uniqueCaller();
    const captcha = await solveCaptcha(server.app, ip);
    const sent = await rest(server.app, 'POST', '/api/user/sendResetPasswordCode', {
      body: { email: max.email, ...captcha },
      ip,
    });
    expect(sent.msg).toBe('success');
    const mail = await server.smtp.nextMail(max.email);
    const reset = await rest(server.app, 'POST', '/api/user/resetPassword', {
      body: { email: max.email, password: 'third-secret-3', code: mail.code, ...captcha },
      ip,
    });
    expect(reset.msg).toBe('success');
    await expectSessionEnded(maxSocket);

    // The operator disables an account from another process: its sockets close too, saying it was disabled.
    const ann = await createUser('Ann');
    const annRoom = await createRoom(ann.id);
    const { client: annSocket } = await enter(annRoom, 'Ann', { token: ann.token });
    await cli('user:disable', '--email', ann.email);
    expect((await annSocket.closedWith()).code).toBe(ROOM_CLOSE_CODES.ACCOUNT_DISABLED);
    expect(annSocket.of('system/error').at(-1)).toMatchObject({
      code: 'ACCOUNT_DISABLED',
      message: 'Your account has been disabled; your rooms have ended',
    });
    // A ticket for a session that has ended does not open a socket either.
    expect((await ticket(annRoom, { token: ann.token })).status).toBe(401);
  });
});

describe('a room socket an administrator opened as the room’s owner', () => {
  it('closes, and its tickets are refused, once the administrator is disabled or no longer one', async () => {
    const alice = await createUser('Alice');
    const roomId = await createRoom(alice.id);
    const [mallory, trent, victor] = [
      await createAdmin(server.app),
      await createAdmin(server.app),
      await createAdmin(server.app),
    ];

    // Another administrator disables Mallory: what Mallory opened as Alice ends with her, at once.
    const asAlice = await impersonate(server.app, mallory.token, alice.id);
    const { client: socket } = await enter(roomId, 'Alice', { token: asAlice });
    expect(socket.of('member/list')[0]?.members.find((member) => member.isOwner)).toBeDefined();
    const spare = await ticket(roomId, { token: asAlice });
    expect(spare.status).toBe(200);
    const disabled = await rest(server.app, 'POST', '/api/admin/users/setDisabled', {
      token: trent.token,
      body: { userId: mallory.userId, disabled: true, reason: 'Abused the sign-in link' },
    });
    expect(disabled.msg).toBe('success');
    await expectSessionEnded(socket);
    await expect(
      RoomClient.connect(socketUrl(roomId, { ticket: spare.body.ticket }), { origin }),
    ).rejects.toMatchObject({ status: 401 });

    // The operator takes Trent's administrator role away from another process: the same.
    const trentAsAlice = await impersonate(server.app, trent.token, alice.id);
    const { client: trentSocket } = await enter(roomId, 'Alice', { token: trentAsAlice });
    await cli('user:admin', '--email', trent.email, '--revoke');
    await expectSessionEnded(trentSocket);

    // A change straight in the database, which tells no process: the next ticket and the periodic check see it.
    const victorAsAlice = await impersonate(server.app, victor.token, alice.id);
    const { client: victorSocket } = await enter(roomId, 'Alice', { token: victorAsAlice });
    const victorSpare = await ticket(roomId, { token: victorAsAlice });
    await server.app.orm.em.fork().nativeUpdate(User, { id: victor.userId }, { role: 'user' });
    await expect(
      RoomClient.connect(socketUrl(roomId, { ticket: victorSpare.body.ticket }), { origin }),
    ).rejects.toMatchObject({ status: 401 });
    await server.app.roomRelay.connections.recheckSessions(
      databaseLiveSessions(server.app.orm, () => new Date()),
    );
    await expectSessionEnded(victorSocket);
  });
});

describe('a removal', () => {
  it('keeps the removed account out, also as a guest from the same browser, and a removed guest by its browser', async () => {
    const olga = await createUser('Olga');
    const max = await createUser('Max');
    const roomId = await createRoom(olga.id);
    const { client: owner } = await enter(roomId, 'Olga', { token: olga.token });
    const { client: kicked, cookie } = await enter(roomId, 'Max', { token: max.token, password: 'sesame' });
    owner.send({ type: 'member/kick', memberId: kicked.of('member/list')[0]!.you });
    expect((await kicked.closedWith()).code).toBe(ROOM_CLOSE_CODES.KICKED);

    // Signed out in the same browser: still Max, refused a ticket.
    const removed = { status: 403, body: { data: 'You were removed from the room by its owner' } };
    expect(await ticket(roomId, { password: 'sesame', cookie })).toMatchObject(removed);

    // A guest the owner removes stays out of that browser too, whatever ticket or tab it tries.
    const { client: guest, cookie: guestCookie } = await enter(roomId, 'Guest', { password: 'sesame' });
    owner.send({ type: 'member/kick', memberId: guest.of('member/list')[0]!.you });
    expect((await guest.closedWith()).code).toBe(ROOM_CLOSE_CODES.KICKED);
    expect(await ticket(roomId, { password: 'sesame', cookie: guestCookie })).toMatchObject(removed);
    owner.close();
  });
});

describe('the room’s seats', () => {
  it('are what the owner’s plan allows now, not what the room was set to under a plan that lapsed', async () => {
    const olga = await createUser('Olga');
    const roomId = await createRoom(olga.id);
    const free = await server.app.orm.em.fork().findOneOrFail(Plan, { isDefault: true });
    expect(free.maxConnections).toBeLessThan(10);
    const seated: RoomClient[] = [];
    // While the owner is away one seat stays theirs.
    for (let seat = 0; seat < free.maxConnections - 1; seat++) {
      const { client } = await enter(roomId, `Guest ${seat}`, {
        password: 'sesame',
        ip: `10.9.0.${seat + 1}`,
      });
      seated.push(client);
    }
    const { client: extra } = await openWithTicket(roomId, { password: 'sesame', ip: '10.9.0.99' });
    extra.send({ type: 'member/join', nickname: 'One too many' });
    expect((await extra.closedWith()).code).toBe(ROOM_CLOSE_CODES.ROOM_FULL);
    for (const client of seated) client.close();
  });
});

describe('a ban', () => {
  it('keeps the banned account out as a guest from its address, while other accounts there still get in', async () => {
    const olga = await createUser('Olga');
    const max = await createUser('Max');
    const roomId = await createRoom(olga.id);
    const { client: owner } = await enter(roomId, 'Olga', { token: olga.token });
    const { client: banned, cookie } = await enter(roomId, 'Max', { token: max.token, password: 'sesame' });
    const maxId = banned.of('member/list')[0]!.you;
    // A ticket Max took as a guest in a private window before the ban, for a comeback under another name.
    const early = await ticket(roomId, { password: 'sesame' });
    expect(early.status).toBe(200);

    owner.send({ type: 'member/ban', memberId: maxId });
    expect((await banned.closedWith()).code).toBe(ROOM_CLOSE_CODES.BANNED);

    // Signed out, in the same browser or a fresh one, from the same address: still Max, still banned.
    expect((await ticket(roomId, { password: 'sesame', cookie })).status).toBe(403);
    expect(await ticket(roomId, { password: 'sesame' })).toMatchObject({
      status: 403,
      body: { data: 'You were banned from this room by its owner' },
    });
    const comeback = await RoomClient.connect(socketUrl(roomId, { ticket: early.body.ticket }), { origin });
    comeback.send({ type: 'member/join', nickname: 'Not Max' });
    expect((await comeback.closedWith()).code).toBe(ROOM_CLOSE_CODES.BANNED);
    // Max's account is out from anywhere, with a script too.
    const script = await RoomClient.connect(socketUrl(roomId, { token: max.token }), {
      'x-room-password': 'sesame',
    });
    expect((await script.closedWith()).code).toBe(ROOM_CLOSE_CODES.BANNED);

    // Someone else signed in at that address is not Max: an address alone never keeps an account out.
    const ann = await createUser('Ann');
    const { client: neighbour } = await enter(roomId, 'Ann', { token: ann.token, password: 'sesame' });
    expect(owner.of('member/joined').at(-1)?.member.nickname).toBe('Ann');
    neighbour.close();
    owner.close();
  });
});

describe('nicknames and chat', () => {
  it('strip invisible and bidi characters, and cannot take the owner’s name or a present member’s', async () => {
    const olga = await createUser('Olga');
    const roomId = await createRoom(olga.id);
    const guest = { password: 'sesame' };

    // The owner's name is kept for the owner even before she arrives: spelled with a zero-width space, in
    // full-width letters or in another case, it is refused with a clear message.
    for (const copy of ['O\u200Blga', 'ＯＬＧＡ', ' olga\u2066']) {
      const { client } = await openWithTicket(roomId, guest);
      client.send({ type: 'member/join', nickname: copy });
      expect(await client.next('system/error')).toMatchObject({
        code: 'NICKNAME_RESERVED',
        message: 'This nickname is the room owner’s; please choose another',
      });
      expect((await client.closedWith()).code).toBe(ROOM_CLOSE_CODES.NICKNAME_RESERVED);
    }
    const { client: owner } = await enter(roomId, 'Olga', { token: olga.token });

    // Bidi overrides and zero-width characters are removed from a nickname…
    const { client: gus } = await enter(roomId, '\u202EGus\u200D\uFEFF', guest);
    expect(
      gus
        .of('member/list')[0]!
        .members.map((member) => member.nickname)
        .sort(),
    ).toEqual(['Gus', 'Olga']);
    // …so another person cannot pass for Gus with them either.
    const { client: other } = await openWithTicket(roomId, guest);
    other.send({ type: 'member/join', nickname: 'gus\u200B' });
    expect(await other.next('system/error')).toMatchObject({
      code: 'NICKNAME_TAKEN',
      message: 'Someone in this room already uses this nickname; please choose another',
    });
    expect((await other.closedWith()).code).toBe(ROOM_CLOSE_CODES.NICKNAME_TAKEN);

    // Chat keeps its line breaks and loses the rest (a tab reads as a space).
    gus.send({ type: 'chat/send', text: 'hi \u202Eevil\u202C\u200B\r\nsecond\tline\u2069' });
    expect((await owner.next('chat/message')).message).toMatchObject({
      nickname: 'Gus',
      text: 'hi evil\nsecond line',
    });
    gus.close();
    owner.close();
  });

  it('cannot pass for the owner with spaces, look-alike letters, accents, another account or the owner’s browser', async () => {
    const alice = await createUser('alice');
    const roomId = await createRoom(alice.id);
    // One address for the whole scene: it asks for more tickets than the default address has left.
    const { ip } = uniqueCaller();
    const guest = { password: 'sesame', ip };
    const refused = async (
      client: RoomClient,
      nickname: string,
      code: 'NICKNAME_RESERVED' | 'NICKNAME_TAKEN',
    ) => {
      client.send({ type: 'member/join', nickname });
      expect(await client.next('system/error'), nickname).toMatchObject({ code });
      expect((await client.closedWith()).code).toBe(ROOM_CLOSE_CODES[code]);
    };

    // The account name, before the owner arrives: a space inside, Cyrillic а, Greek Α, capital I for l, an
    // accent, a blank Braille cell.
    for (const copy of ['a lice', '\u0430lice', '\u0391LICE', 'AIice', 'alicé', 'ali\u2800ce']) {
      await refused((await openWithTicket(roomId, guest)).client, copy, 'NICKNAME_RESERVED');
    }
    // A signed-in member whose own account name looks like hers does not get it either.
    const lookAlike = await createUser('\u0430lice');
    await refused(
      (await openWithTicket(roomId, { ...guest, token: lookAlike.token })).client,
      '\u0430lice',
      'NICKNAME_RESERVED',
    );

    // The owner sits under another name, which is hers while she is inside: look-alikes are refused…
    const { client: owner, cookie: ownersBrowser } = await enter(roomId, 'Boss', { token: alice.token, ip });
    for (const copy of ['\u0412oss', 'B o s s', 'BOSS\u200B']) {
      await refused((await openWithTicket(roomId, guest)).client, copy, 'NICKNAME_RESERVED');
    }
    // …also to another account signed in from her browser (it shares her guest cookie, not her seat).
    const sam = await createUser('Sam');
    const borrowed = await openWithTicket(roomId, { ...guest, token: sam.token, cookie: ownersBrowser });
    await refused(borrowed.client, 'boss', 'NICKNAME_RESERVED');

    // The owner herself may still use her names, and a present member's name is theirs the same way.
    const { client: ownerTab } = await enter(roomId, 'Alice', {
      token: alice.token,
      cookie: ownersBrowser,
      ip,
    });
    const { client: gus, cookie: gusBrowser } = await enter(roomId, 'Gus', guest);
    await refused((await openWithTicket(roomId, guest)).client, 'Gu\u0455', 'NICKNAME_TAKEN');
    const { client: gusTab } = await enter(roomId, 'gus', { ...guest, cookie: gusBrowser });

    for (const client of [gusTab, gus, ownerTab, owner]) client.close();
  });
});

describe('sockets that never join', () => {
  it('are capped per account: the ninth waiting socket is closed with a clear reason', async () => {
    const olga = await createUser('Olga');
    const roomId = await createRoom(olga.id);
    const waiting: RoomClient[] = [];
    for (let i = 0; i < 8; i++) {
      const client = await RoomClient.connect(socketUrl(roomId, { token: olga.token }));
      // The pong says the server has taken the socket in.
      client.send({ type: 'system/ping', t: i });
      await client.next('system/pong');
      waiting.push(client);
    }
    const ninth = await RoomClient.connect(socketUrl(roomId, { token: olga.token }));
    expect(await ninth.next('system/error')).toMatchObject({
      code: 'TOO_MANY_UNJOINED',
      message: 'Too many of your connections are waiting to join a room; close some tabs and try again',
    });
    expect((await ninth.closedWith()).code).toBe(ROOM_CLOSE_CODES.TOO_MANY_UNJOINED);
    expect(waiting.every((client) => client.closed === undefined)).toBe(true);

    // One that joins frees its place.
    waiting[0]!.send({ type: 'member/join', nickname: 'Olga' });
    await waiting[0]!.next('member/list');
    const tenth = await RoomClient.connect(socketUrl(roomId, { token: olga.token }));
    tenth.send({ type: 'member/join', nickname: 'Olga' });
    await tenth.next('member/list');
    for (const client of [...waiting, tenth]) client.close();
  });
});

/** The HTTP answer to an upgrade the server refuses, with the text a person is shown. */
function refusalOf(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; message: string }>((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, message: (JSON.parse(body) as { data: string }).data });
        socket.terminate();
      });
    });
    socket.once('error', reject);
  });
}

describe('a script with a session token on someone else’s private room (issue 29, finding 13)', () => {
  it('is refused before the upgrade, as a ticket would be, unless it brings the share password', async () => {
    const olga = await createUser('Olga');
    const max = await createUser('Max');
    const withPassword = await createRoom(olga.id);
    const withoutPassword = await createRoom(olga.id, null);

    // No socket at all: the room answers as a missing one, or asks for its password.
    expect(await refusalOf(socketUrl(withoutPassword, { token: max.token }))).toEqual({
      status: 404,
      message: 'This room does not exist',
    });
    expect(await refusalOf(socketUrl(withPassword, { token: max.token }))).toEqual({
      status: 403,
      message: 'This room needs a password',
    });
    expect(
      await refusalOf(socketUrl(withPassword, { token: max.token }), { 'x-room-password': 'wrong' }),
    ).toMatchObject({ status: 403, message: 'The room password is incorrect' });

    // With the password, and the owner with her own token, the socket opens and joins.
    const guest = await enterWithToken(withPassword, 'Max', max.token, 'sesame');
    const owner = await enterWithToken(withoutPassword, 'Olga', olga.token);
    guest.close();
    owner.close();
  });
});

describe('the Origin of a room socket (issue 29, finding 19)', () => {
  it('must be one of the install’s own addresses, not merely the Host the page addressed', async () => {
    const olga = await createUser('Olga');
    const roomId = await createRoom(olga.id);
    const port = new URL(server.url).port;
    const issued = await ticket(roomId, { token: olga.token });
    // A DNS-rebinding page: its name now resolves to this server, so its Origin and the Host agree.
    const rebound = `rebind-${randomBytes(3).toString('hex')}.evil.example:${port}`;
    expect(
      await refusalOf(socketUrl(roomId, { ticket: issued.body.ticket }), {
        origin: `http://${rebound}`,
        host: rebound,
      }),
    ).toEqual({
      status: 403,
      message: 'This page is not on this site’s address, so it may not open a room connection',
    });
    // The same ticket from the site's own page still opens the room (the refusal did not spend it).
    const client = await RoomClient.connect(socketUrl(roomId, { ticket: issued.body.ticket }), { origin });
    client.send({ type: 'member/join', nickname: 'Olga' });
    await client.next('member/list');
    client.close();
  });
});
