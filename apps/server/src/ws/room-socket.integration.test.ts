// The room WebSocket against the real server (real PostgreSQL, real sockets, tickets, Origin checks), with each
// room's browser played by a LocalRoomSession: a timer-driven page whose picture shows its own click count.
import { createHash, randomBytes } from 'node:crypto';
import { ROOM_CLOSE_CODES, roomSocketPath, type TRoomEnding } from '@rooms/api/room-protocol';
import { LOCAL_REGION_CODE, Region, Room, Session, SystemImage, User } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomClient } from '../testing/room-client';
import { LocalRoomSession, readLocalPicture } from '../testing/rooms/local-room-session';
import { startTestServer, type TTestServer } from '../testing/test-server';
import type { RoomLink } from './relay-ports';

let server: TTestServer;
let origin: string;
const sessions = new Map<string, LocalRoomSession>();
const participants = new Map<string, number[]>();
let endSession: (roomId: string, ending?: TRoomEnding) => void = () => {};

beforeAll(async () => {
  server = await startTestServer();
  origin = new URL(server.config.publicUrl).origin;
  const link: RoomLink = {
    session: (roomId) => sessions.get(roomId),
    participantsChanged: (roomId, count) =>
      participants.set(roomId, [...(participants.get(roomId) ?? []), count]),
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

let counter = 0;

async function createUser(name: string): Promise<{ id: string; token: string }> {
  const em = server.app.orm.em.fork();
  counter += 1;
  const user = em.create(User, {
    username: name,
    email: `${name.toLowerCase()}-${Date.now()}-${counter}@example.test`,
    passwordHash: 'not-used',
  });
  const token = randomBytes(32).toString('base64url');
  em.create(Session, {
    user,
    tokenHash: createHash('sha256').update(token).digest('hex'),
    expiresAt: new Date(Date.now() + 3_600_000),
    ip: null,
    userAgent: null,
  });
  await em.flush();
  return { id: user.id, token };
}

interface TRoomOptions {
  maxConnections?: number;
  password?: string | null;
  isPublic?: boolean;
  running?: boolean;
}

async function createRoom(ownerId: string, options: TRoomOptions = {}): Promise<string> {
  const em = server.app.orm.em.fork();
  counter += 1;
  const room = em.create(Room, {
    name: `relay-${Date.now().toString(36)}-${counter}`,
    password: options.password === undefined ? 'sesame' : options.password,
    isPublic: options.isPublic ?? false,
    region: await em.findOneOrFail(Region, { code: LOCAL_REGION_CODE }),
    image: (await em.find(SystemImage, {}, { limit: 1 }))[0]!,
    startUrl: null,
    maxConnections: options.maxConnections ?? 5,
    width: 1280,
    height: 720,
    videoBitrateKbps: 2000,
    maxFrameRate: 30,
    owner: em.getReference(User, ownerId),
  });
  await em.flush();
  if (options.running !== false) sessions.set(room.id, new LocalRoomSession(room.id, { fps: 30 }));
  return room.id;
}

/** `cookie`: the browser's guest cookie, which a ticket sets on a browser that has none. */
async function ticket(roomId: string, options: { token?: string; password?: string; cookie?: string } = {}) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/ws/ticket',
    headers: {
      ...(options.token ? { authorization: options.token } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    payload: { roomId, ...(options.password !== undefined ? { password: options.password } : {}) },
  });
  const setCookie = response.headers['set-cookie'];
  return {
    status: response.statusCode,
    body: response.json() as { ticket: string; data?: string },
    cookie: typeof setCookie === 'string' ? setCookie.split(';')[0] : options.cookie,
  };
}

function socketUrl(roomId: string, query: Record<string, string>) {
  return `${server.url.replace(/^http/, 'ws')}${roomSocketPath(roomId)}?${new URLSearchParams(query)}`;
}

/** A browser: gets a ticket and connects with our Origin (its guest cookie in `browser.cookie` from then on). */
async function enter(
  roomId: string,
  nickname: string,
  options: { token?: string; password?: string; browser?: { cookie?: string } } = {},
) {
  const issued = await ticket(roomId, { ...options, cookie: options.browser?.cookie });
  expect(issued.status, issued.body.data).toBe(200);
  if (options.browser) options.browser.cookie = issued.cookie;
  const client = await RoomClient.connect(socketUrl(roomId, { ticket: issued.body.ticket }), { origin });
  client.send({ type: 'member/join', nickname });
  await client.next('member/list');
  return client;
}

async function refusal(promise: Promise<RoomClient>): Promise<number | undefined> {
  try {
    (await promise).close();
    return undefined;
  } catch (error) {
    return (error as { status?: number }).status;
  }
}

describe('tickets and the handshake', () => {
  it('lets the owner in with a ticket fetched with the session token', async () => {
    const owner = await createUser('Olga');
    const roomId = await createRoom(owner.id);
    const client = await enter(roomId, 'Olga', { token: owner.token });
    const list = client.of('member/list')[0]!;
    expect(list.members).toEqual([
      expect.objectContaining({ id: list.you, nickname: 'Olga', isOwner: true }),
    ]);
    expect((await client.next('control/state')).controllerId).toBe(list.you);
    expect(await client.next('stream/config')).toMatchObject({
      viewport: { width: 1280, height: 720 },
      fps: 30,
    });
    await client.until(() => client.frames.length > 0, 'a frame');
    client.close();
  });

  it('spends a ticket once, and only for its room', async () => {
    const owner = await createUser('Olga');
    const roomId = await createRoom(owner.id);
    const other = await createRoom(owner.id);
    const issued = await ticket(roomId, { token: owner.token });
    expect(
      await refusal(RoomClient.connect(socketUrl(other, { ticket: issued.body.ticket }), { origin })),
    ).toBe(401);
    const first = await RoomClient.connect(socketUrl(roomId, { ticket: issued.body.ticket }), { origin });
    first.close();
    expect(
      await refusal(RoomClient.connect(socketUrl(roomId, { ticket: issued.body.ticket }), { origin })),
    ).toBe(401);
  });

  it("refuses another site's page, and a ticket without an Origin", async () => {
    const owner = await createUser('Olga');
    const roomId = await createRoom(owner.id);
    const a = await ticket(roomId, { token: owner.token });
    expect(
      await refusal(
        RoomClient.connect(socketUrl(roomId, { ticket: a.body.ticket }), { origin: 'https://evil.example' }),
      ),
    ).toBe(403);
    const b = await ticket(roomId, { token: owner.token });
    expect(await refusal(RoomClient.connect(socketUrl(roomId, { ticket: b.body.ticket })))).toBe(403);
    expect(await refusal(RoomClient.connect(socketUrl(roomId, {}), { origin }))).toBe(401);
  });

  it('lets a script in with its session token and no Origin, checking the room password', async () => {
    const owner = await createUser('Olga');
    const member = await createUser('Max');
    const roomId = await createRoom(owner.id);
    const script = await RoomClient.connect(socketUrl(roomId, { token: owner.token }));
    script.send({ type: 'member/join', nickname: 'bot' });
    expect((await script.next('member/list')).members[0]?.isOwner).toBe(true);
    script.close();

    // Without the password the upgrade itself is refused, as a ticket would be.
    expect(await refusal(RoomClient.connect(socketUrl(roomId, { token: member.token })))).toBe(403);
    const invited = await RoomClient.connect(socketUrl(roomId, { token: member.token }), {
      'x-room-password': 'sesame',
    });
    invited.send({ type: 'member/join', nickname: 'Max' });
    expect((await invited.next('member/list')).members).toHaveLength(1);
    invited.close();
    expect(await refusal(RoomClient.connect(socketUrl(roomId, { token: 'x'.repeat(43) })))).toBe(401);
  });

  it('issues tickets only for rooms one may enter that are running', async () => {
    const owner = await createUser('Olga');
    const shared = await createRoom(owner.id);
    const hidden = await createRoom(owner.id, { password: null });
    const open = await createRoom(owner.id, { password: null, isPublic: true });
    const stopped = await createRoom(owner.id, { running: false });
    expect((await ticket(shared)).body.data).toBe('This room needs a password');
    expect((await ticket(shared, { password: 'nope' })).status).toBe(403);
    expect((await ticket(shared, { password: 'sesame' })).status).toBe(200);
    expect(await ticket(hidden)).toMatchObject({ status: 404, body: { data: 'This room does not exist' } });
    expect((await ticket(open)).status).toBe(200);
    expect(await ticket(stopped, { token: owner.token })).toMatchObject({
      status: 409,
      body: { data: 'This room is not running' },
    });
    expect((await ticket('not-a-room')).status).toBe(404);
    expect((await ticket(shared, { token: 'x'.repeat(43) })).status).toBe(401);
  });
});

describe('a room with two participants', () => {
  it('streams to both, applies only the controller’s input, and the owner takes control back', async () => {
    const owner = await createUser('Olga');
    const roomId = await createRoom(owner.id);
    const session = sessions.get(roomId)!;
    const olga = await enter(roomId, 'Olga', { token: owner.token });
    const gus = await enter(roomId, 'Gus', { password: 'sesame' });
    const olgaId = olga.of('member/list')[0]!.you;
    const gusId = gus.of('member/list')[0]!.you;
    expect((await olga.next('member/joined')).member).toMatchObject({
      id: gusId,
      nickname: 'Gus',
      isGuest: true,
    });

    // Both receive the picture, from one subscription.
    const seen = (client: RoomClient) => client.frames.length;
    const [olgaFrames, gusFrames] = [seen(olga), seen(gus)];
    await olga.until(() => seen(olga) > olgaFrames + 5 && seen(gus) > gusFrames + 5, 'frames for both');
    expect(session.videoSubscribers).toBe(1);
    const clicksIn = (client: RoomClient) => readLocalPicture(client.frames.at(-1)!.data).clicks;
    const click = {
      type: 'input/pointer',
      action: 'down',
      x: 0.5,
      y: 0.5,
      button: 'left',
      buttons: 1,
    } as const;

    // Gus is not in control: his click is refused and the picture does not change.
    gus.send(click);
    expect(await gus.next('system/error')).toMatchObject({ code: 'NOT_CONTROLLER', about: 'input/pointer' });
    expect(session.inputs).toHaveLength(0);

    // Olga clicks; later frames show it to both.
    olga.send(click);
    await gus.until(() => clicksIn(gus) === 1, 'the click in the picture');

    // Gus raises his hand; everyone sees the queue; Olga grants.
    gus.send({ type: 'control/request' });
    await olga.next('control/state', (state) => state.queue.includes(gusId));
    olga.send({ type: 'control/grant', memberId: gusId });
    // Each change says what made it and who, so the driver who lost control can be told why.
    expect(await olga.next('control/state', (state) => state.controllerId === gusId)).toMatchObject({
      change: { action: 'grant', byId: olgaId },
    });
    gus.send(click);
    await olga.until(() => clicksIn(olga) === 2, 'the granted click in the picture');

    // The owner takes it back; Gus is told it was taken, and his input is ignored again.
    olga.send({ type: 'control/take' });
    // Every state is kept in the inbox: the last one is the one after the take.
    await gus.until(() => gus.of('control/state').at(-1)?.controllerId === olgaId, 'control back with Olga');
    expect(gus.of('control/state').at(-1)).toMatchObject({ change: { action: 'take', byId: olgaId } });
    gus.send(click);
    // Messages are handled in order, so the pong says the click was seen (its refusal is rate-limited to one
    // a second, so it may not be repeated).
    gus.send({ type: 'system/ping', t: 42 });
    expect(await gus.next('system/pong')).toMatchObject({ t: 42, serverTime: expect.any(Number) });
    expect(session.inputs).toHaveLength(2);

    // Chat reaches both; Gus leaves and Olga is told; the engine hears every count.
    gus.send({ type: 'chat/send', text: 'hello' });
    expect((await olga.next('chat/message')).message).toMatchObject({ text: 'hello', nickname: 'Gus' });
    gus.close();
    await olga.next('member/left', (left) => left.memberId === gusId);
    olga.close();
    await olga.closedWith();
    await olga.until(() => participants.get(roomId)?.at(-1) === 0, 'the last leave');
    expect(participants.get(roomId)).toEqual([1, 2, 1, 0]);
    expect(session.videoSubscribers).toBe(0);
  });

  it('answers a malformed message to its sender only, and closes after 20', async () => {
    const owner = await createUser('Olga');
    const roomId = await createRoom(owner.id);
    const olga = await enter(roomId, 'Olga', { token: owner.token });
    const gus = await enter(roomId, 'Gus', { password: 'sesame' });
    gus.send('{not json');
    expect(await gus.next('system/error')).toMatchObject({ code: 'BAD_MESSAGE' });
    gus.send({ type: 'member/kick' } as never);
    gus.send({ type: 'chat/send', text: 'x'.repeat(600) });
    expect(await gus.next('system/error', (error) => error.about === 'chat/send')).toMatchObject({
      message: 'A message has at most 500 characters',
    });
    for (let i = 0; i < 17; i++) gus.send('[]');
    expect((await gus.closedWith()).code).toBe(ROOM_CLOSE_CODES.TOO_MANY_BAD_MESSAGES);
    await olga.next('member/left');
    expect(olga.of('system/error')).toEqual([]);
    expect(olga.closed).toBeUndefined();
    olga.close();
  });

  it("asks for a nickname first: 'Please enter your nickname'", async () => {
    const owner = await createUser('Olga');
    const roomId = await createRoom(owner.id);
    const issued = await ticket(roomId, { token: owner.token });
    const client = await RoomClient.connect(socketUrl(roomId, { ticket: issued.body.ticket }), { origin });
    client.send({ type: 'chat/send', text: 'hi' });
    expect(await client.next('system/error')).toMatchObject({ code: 'NOT_JOINED' });
    client.send({ type: 'member/join', nickname: ' ' });
    expect(await client.next('system/error', (error) => error.code === 'BAD_MESSAGE')).toMatchObject({
      message: 'Please enter your nickname',
    });
    expect(client.frames).toHaveLength(0);
    client.close();
  });
});

describe('room limits and the owner’s powers', () => {
  it("refuses the participant beyond max connections with 'This room is full'", async () => {
    const owner = await createUser('Olga');
    const roomId = await createRoom(owner.id, { maxConnections: 2 });
    const olga = await enter(roomId, 'Olga', { token: owner.token });
    const gus = await enter(roomId, 'Gus', { password: 'sesame' });
    const issued = await ticket(roomId, { password: 'sesame' });
    const third = await RoomClient.connect(socketUrl(roomId, { ticket: issued.body.ticket }), { origin });
    third.send({ type: 'member/join', nickname: 'Third' });
    expect(await third.next('system/error')).toEqual({
      type: 'system/error',
      code: 'ROOM_FULL',
      message: 'This room is full',
      about: 'member/join',
    });
    expect((await third.closedWith()).code).toBe(ROOM_CLOSE_CODES.ROOM_FULL);
    expect(olga.of('member/joined')).toHaveLength(1);
    olga.close();
    gus.close();
  });

  it('lets the owner kick a member, who is told and disconnected', async () => {
    const owner = await createUser('Olga');
    const roomId = await createRoom(owner.id);
    const olga = await enter(roomId, 'Olga', { token: owner.token });
    const gus = await enter(roomId, 'Gus', { password: 'sesame' });
    const gusId = gus.of('member/list')[0]!.you;
    gus.send({ type: 'member/kick', memberId: olga.of('member/list')[0]!.you });
    expect(await gus.next('system/error')).toMatchObject({ code: 'NOT_OWNER' });
    olga.send({ type: 'member/kick', memberId: gusId });
    await gus.next('member/kicked');
    expect((await gus.closedWith()).code).toBe(ROOM_CLOSE_CODES.KICKED);
    expect(await olga.next('member/left')).toMatchObject({ memberId: gusId, reason: 'kicked' });
    olga.close();
  });

  it('keeps a removed guest out of its browser (a new ticket, another tab) until the owner lets them back in', async () => {
    const owner = await createUser('Olga');
    const roomId = await createRoom(owner.id);
    const olga = await enter(roomId, 'Olga', { token: owner.token });
    const gusBrowser: { cookie?: string } = {};
    const gus = await enter(roomId, 'Gus', { password: 'sesame', browser: gusBrowser });
    const gusTab = await enter(roomId, 'Gus', { password: 'sesame', browser: gusBrowser });
    // A ticket taken before the removal, for a comeback in a tab opened earlier.
    const early = await ticket(roomId, { password: 'sesame', cookie: gusBrowser.cookie });
    expect(await olga.next('member/removals')).toEqual({ type: 'member/removals', removed: [] });

    // Removing one seat removes the person: both tabs go, and the owner's list names them.
    olga.send({ type: 'member/kick', memberId: gus.of('member/list')[0]!.you });
    for (const tab of [gus, gusTab]) {
      await tab.next('member/kicked');
      expect((await tab.closedWith()).code).toBe(ROOM_CLOSE_CODES.KICKED);
    }
    const { removed } = await olga.next('member/removals', (list) => list.removed.length === 1);
    expect(removed).toEqual([
      { id: expect.any(String), nickname: 'Gus', isGuest: true, removedAt: expect.any(Number) },
    ]);

    // Reopening the link in that browser: no ticket, with the reason; the early ticket's socket is refused too.
    const refusal = { status: 403, body: { data: 'You were removed from the room by its owner' } };
    expect(await ticket(roomId, { password: 'sesame', cookie: gusBrowser.cookie })).toMatchObject(refusal);
    const comeback = await RoomClient.connect(socketUrl(roomId, { ticket: early.body.ticket }), { origin });
    expect(await comeback.next('system/error')).toMatchObject({ code: 'KICKED' });
    expect((await comeback.closedWith()).code).toBe(ROOM_CLOSE_CODES.KICKED);
    // Another browser is someone else.
    (await enter(roomId, 'Vera', { password: 'sesame' })).close();

    // The room's run goes on elsewhere (its server lost, the room placed again without a stop): still out, and the
    // owner still sees whom they removed.
    olga.close();
    sessions.set(roomId, new LocalRoomSession(roomId, { fps: 30 }));
    endSession(roomId, { reason: 'server-restart', by: null });
    await expect
      .poll(async () => (await ticket(roomId, { password: 'sesame', cookie: gusBrowser.cookie })).status)
      .toBe(403);
    const olgaAgain = await enter(roomId, 'Olga', { token: owner.token });
    const again = await olgaAgain.next('member/removals');
    expect(again.removed).toEqual(removed);

    // The owner lets Gus back in: the same browser gets a ticket and joins.
    olgaAgain.send({ type: 'member/readmit', removalId: removed[0]!.id });
    await olgaAgain.next('member/removals', (list) => list.removed.length === 0);
    const back = await enter(roomId, 'Gus', { password: 'sesame', browser: gusBrowser });
    expect(back.of('member/list')[0]!.members.find((member) => member.nickname === 'Gus')?.isGuest).toBe(
      true,
    );
    back.close();
    olgaAgain.close();
  });

  it('counts people, not connections: one account on two devices is one person', async () => {
    const owner = await createUser('Olga');
    const alice = await createUser('Alice');
    const roomId = await createRoom(owner.id, { maxConnections: 4 });
    const laptop = await enter(roomId, 'Olga', { token: owner.token });
    const phone = await enter(roomId, 'Olga', { token: owner.token });
    const aliceLaptop = await enter(roomId, 'Alice', { token: alice.token, password: 'sesame' });
    const alicePhone = await enter(roomId, 'Alice', { token: alice.token, password: 'sesame' });
    const members = alicePhone.of('member/list')[0]!.members;
    expect(new Set(members.map((member) => member.personId)).size).toBe(2);
    const { name } = await server.app.orm.em.fork().findOneOrFail(Room, roomId);
    const info = await server.app.inject({
      method: 'GET',
      url: `/api/room/getRoomInfo?name=${name}`,
      headers: { authorization: owner.token },
    });
    expect(info.json()).toMatchObject({ msg: 'success', data: { memberCount: 2 } });
    // The room's max connections still counts connections: a fifth device finds the room full.
    const fifth = await ticket(roomId, { password: 'sesame' });
    const extra = await RoomClient.connect(socketUrl(roomId, { ticket: fifth.body.ticket }), { origin });
    extra.send({ type: 'member/join', nickname: 'Fifth' });
    expect(await extra.next('system/error')).toMatchObject({ code: 'ROOM_FULL' });
    for (const client of [laptop, phone, aliceLaptop, alicePhone]) client.close();
  });

  it('disconnects everyone with a clear message when the room stops', async () => {
    const owner = await createUser('Olga');
    const roomId = await createRoom(owner.id);
    const olga = await enter(roomId, 'Olga', { token: owner.token });
    sessions.get(roomId)?.stop();
    sessions.delete(roomId);
    endSession(roomId, { reason: 'restarting', by: 'olga' });
    // Members learn why before the close, so their pages can say so and follow the room back.
    expect(await olga.next('system/room-ended')).toMatchObject({ reason: 'restarting', by: 'olga' });
    expect(await olga.next('system/error')).toMatchObject({ code: 'ROOM_NOT_RUNNING' });
    expect((await olga.closedWith()).code).toBe(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING);
  });
});
