// Knocking (issue 31, point 3), against the real server: real PostgreSQL, real sockets, each room's browser a
// LocalRoomSession. A knock link gives a ticket to knock with, never to enter: the socket waits until the owner
// answers; people the owner banned or removed are refused a knock ticket as any other; knocks are rate-limited per
// browser and address; an admitted knocker's pass is worth a member's ticket in that browser only; a link whose
// knocking was turned off is worth nothing.
import { createHash, randomBytes } from 'node:crypto';
import { ROOM_CLOSE_CODES, roomSocketPath } from '@rooms/api/room-protocol';
import { LOCAL_REGION_CODE, Region, Room, Session, SystemImage, User } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueCaller } from '../testing/rest-client';
import { RoomClient } from '../testing/room-client';
import { LocalRoomSession } from '../testing/rooms/local-room-session';
import { startTestServer, type TTestServer } from '../testing/test-server';
import type { RoomLink } from './relay-ports';

let server: TTestServer;
let origin: string;
const sessions = new Map<string, LocalRoomSession>();

beforeAll(async () => {
  server = await startTestServer();
  origin = new URL(server.config.publicUrl).origin;
  const link: RoomLink = { session: (roomId) => sessions.get(roomId), participantsChanged: () => {} };
  server.app.roomRelay.use({ link });
});

afterAll(async () => {
  for (const session of sessions.values()) session.stop();
  await server?.close();
});

async function createUser(username: string): Promise<{ id: string; token: string }> {
  const em = server.app.orm.em.fork();
  const { email } = uniqueCaller(username.toLowerCase());
  const user = em.create(User, { username, email, passwordHash: 'x' });
  const token = randomBytes(32).toString('base64url');
  em.create(Session, {
    user,
    tokenHash: createHash('sha256').update(token).digest('hex'),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  await em.flush();
  return { id: user.id, token };
}

const KNOCK = 'knock-token-of-the-test-room';

async function createRoom(ownerId: string, knockToken: string | null = KNOCK): Promise<string> {
  const em = server.app.orm.em.fork();
  const room = em.create(Room, {
    name: `knock-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
    password: 'sesame',
    knockToken,
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

type TTicketCall = {
  token?: string;
  password?: string;
  knock?: string;
  admission?: string;
  cookie?: string;
  ip?: string;
};

async function ticket(roomId: string, call: TTicketCall = {}) {
  const { token, cookie, ip, ...fields } = call;
  const response = await server.app.inject({
    method: 'POST',
    url: '/ws/ticket',
    remoteAddress: ip ?? '127.0.0.1',
    headers: { ...(token ? { authorization: token } : {}), ...(cookie ? { cookie } : {}) },
    payload: { roomId, ...fields },
  });
  const setCookie = response.headers['set-cookie'];
  return {
    status: response.statusCode,
    body: response.json() as { ticket: string; data?: string },
    retryAfter: response.headers['retry-after'],
    cookie: typeof setCookie === 'string' ? setCookie.split(';')[0] : cookie,
  };
}

async function connect(roomId: string, call: TTicketCall) {
  const issued = await ticket(roomId, call);
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  const url = `${server.url.replace(/^http/, 'ws')}${roomSocketPath(roomId)}?ticket=${issued.body.ticket}`;
  return { client: await RoomClient.connect(url, { origin }), cookie: issued.cookie };
}

async function enter(roomId: string, nickname: string, call: TTicketCall) {
  const entered = await connect(roomId, call);
  entered.client.send({ type: 'member/join', nickname });
  await entered.client.next('member/list');
  return entered;
}

/** A knocker's socket, waiting (knock/waiting), and the owner told of it. */
async function knock(roomId: string, nickname: string, owner: RoomClient, call: TTicketCall = {}) {
  const knocked = await connect(roomId, { knock: KNOCK, ...call });
  knocked.client.send({ type: 'member/join', nickname });
  await knocked.client.next('knock/waiting');
  await owner.until(
    () =>
      owner
        .of('knock/pending')
        .at(-1)
        ?.knocks.some((pending) => pending.nickname === nickname) ?? false,
    `the knock of ${nickname}`,
  );
  const knockId = owner
    .of('knock/pending')
    .at(-1)!
    .knocks.find((pending) => pending.nickname === nickname)!.id;
  return { ...knocked, knockId };
}

describe('a knock', () => {
  it('lets nobody in before the owner answers, and an admitted knocker back with its pass in its own browser only', async () => {
    const olga = await createUser('Olga');
    const roomId = await createRoom(olga.id);
    const { client: owner } = await enter(roomId, 'Olga', { token: olga.token });
    const kim = await knock(roomId, 'Kim', owner);

    // Waiting is not being in: nothing of the room, and nothing it sends is taken.
    kim.client.send({ type: 'chat/send', text: 'let me in' });
    await kim.client.until(() => kim.client.of('system/error').length > 0, 'a refusal');
    expect(kim.client.of('system/error')[0]).toMatchObject({ code: 'NOT_JOINED' });
    expect(kim.client.of('member/list')).toEqual([]);
    expect(kim.client.frames).toEqual([]);

    // A member who is not trusted may not answer.
    const { client: guest } = await enter(roomId, 'Gus', { password: 'sesame' });
    guest.send({ type: 'knock/answer', knockId: kim.knockId, admit: true });
    await guest.until(() => guest.of('system/error').length > 0, 'a refusal');
    expect(guest.of('system/error')[0]).toMatchObject({ code: 'NOT_OWNER' });

    owner.send({ type: 'knock/answer', knockId: kim.knockId, admit: true });
    const admitted = await kim.client.next('knock/admitted');
    await kim.client.next('member/list');

    // The pass is a member's ticket again for Kim's browser, and for nobody else's.
    const again = await ticket(roomId, { admission: admitted.pass, cookie: kim.cookie });
    expect(again.status).toBe(200);
    const elsewhere = await ticket(roomId, { admission: admitted.pass, ip: '10.9.0.1' });
    expect(elsewhere.status).toBe(403);
    const forged = await ticket(roomId, {
      admission: `${admitted.pass.split('.')[0]}.AAAA`,
      cookie: kim.cookie,
    });
    expect(forged.status).toBe(403);
    for (const client of [owner, guest, kim.client]) client.close();
  });

  it('is refused to people the owner banned or removed, and closes with its reason when turned away', async () => {
    const olga = await createUser('Olga');
    const roomId = await createRoom(olga.id);
    const { client: owner } = await enter(roomId, 'Olga', { token: olga.token });

    const max = await knock(roomId, 'Max', owner, { ip: '10.9.1.3' });
    owner.send({ type: 'knock/answer', knockId: max.knockId, admit: false });
    expect((await max.client.closedWith()).code).toBe(ROOM_CLOSE_CODES.KNOCK_TURNED_AWAY);
    expect(max.client.of('system/error').at(-1)).toMatchObject({ code: 'KNOCK_TURNED_AWAY' });
    const { client: removed, cookie: removedCookie } = await enter(roomId, 'Rae', {
      password: 'sesame',
      ip: '10.9.1.2',
    });
    owner.send({ type: 'member/kick', memberId: removed.of('member/list')[0]!.you });
    expect((await removed.closedWith()).code).toBe(ROOM_CLOSE_CODES.KICKED);
    expect(await ticket(roomId, { knock: KNOCK, cookie: removedCookie, ip: '10.9.1.2' })).toMatchObject({
      status: 403,
      body: { data: 'You were removed from the room by its owner' },
    });

    // A ban also covers the address every socket of this test comes from: last.
    const { client: banned, cookie: bannedCookie } = await enter(roomId, 'Bo', { password: 'sesame' });
    owner.send({ type: 'member/ban', memberId: banned.of('member/list')[0]!.you });
    expect((await banned.closedWith()).code).toBe(ROOM_CLOSE_CODES.BANNED);
    expect(await ticket(roomId, { knock: KNOCK, cookie: bannedCookie, ip: '10.9.1.1' })).toMatchObject({
      status: 403,
      body: { data: 'You were banned from this room by its owner' },
    });

    owner.close();
  });

  it('is rate-limited per browser and per address, and a stale or wrong link is worth nothing', async () => {
    const olga = await createUser('Olga');
    const roomId = await createRoom(olga.id);
    // Per browser and room: three knocks a minute, then a wait.
    const first = await ticket(roomId, { knock: KNOCK, ip: '10.9.2.1' });
    expect(first.status).toBe(200);
    for (let i = 0; i < 2; i += 1)
      expect((await ticket(roomId, { knock: KNOCK, cookie: first.cookie, ip: '10.9.2.1' })).status).toBe(200);
    const flooded = await ticket(roomId, { knock: KNOCK, cookie: first.cookie, ip: '10.9.2.1' });
    expect(flooded.status).toBe(429);
    expect(Number(flooded.retryAfter)).toBeGreaterThan(0);

    // Per address and room: new browsers (no cookie) do not get around it.
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1)
      statuses.push((await ticket(roomId, { knock: KNOCK, ip: '10.9.2.2' })).status);
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);

    // A wrong token, or the token of a room whose knocking was turned off, asks for the password as before.
    expect(await ticket(roomId, { knock: 'not-the-token', ip: '10.9.2.3' })).toMatchObject({ status: 403 });
    const closedRoom = await createRoom(olga.id, null);
    expect(await ticket(closedRoom, { knock: KNOCK, ip: '10.9.2.3' })).toMatchObject({ status: 403 });
  });
});
