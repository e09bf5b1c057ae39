// A room's chat against the real server and PostgreSQL, through real sockets: kept for the room's life (through a
// stop and a start, and a server going down and another taking over), gone with the room, bounded to what a joiner
// is shown, and taken away with a banned person. Each room's browser is a LocalRoomSession.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { CHAT_HISTORY_SIZE, roomSocketPath, type TRoomEnding } from '@rooms/api/room-protocol';
import { LOCAL_REGION_CODE, Region, Room, RoomChatMessage, Session, SystemImage, User } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../../testing/rest-client';
import { RoomClient } from '../../testing/room-client';
import { LocalRoomSession } from '../../testing/rooms/local-room-session';
import { startTestServer, type TTestServer } from '../../testing/test-server';
import { databaseRoomChat } from '../../ws/default-ports';
import type { RoomLink } from '../../ws/relay-ports';

const sessions = new Map<string, LocalRoomSession>();
let first: TTestServer;
/** The server that runs the rooms now: the first, until a test takes it down and another takes over. */
let server: TTestServer;
/** Tells the current server's relay that a room's browser went away. */
let endSession: (roomId: string, ending: TRoomEnding) => void = () => {};
/** Servers started in a test, closed at the end (after the first, whose database they share). */
const later: TTestServer[] = [];

/** Rooms as this test file's engine runs them: a room runs while it has a session. */
function useLocalRooms(on: TTestServer): void {
  const link: RoomLink = {
    session: (roomId) => sessions.get(roomId),
    participantsChanged: () => {},
    onSessionEnded(listener) {
      endSession = listener;
      return () => {};
    },
  };
  on.app.roomRelay.use({ link });
}

beforeAll(async () => {
  first = await startTestServer();
  server = first;
  useLocalRooms(server);
});

afterAll(async () => {
  for (const session of sessions.values()) session.stop();
  for (const other of later) await other.close();
  // Last: its database is the one every server of this file used.
  await first?.close();
});

let counter = 0;

async function createOwner(): Promise<{ id: string; token: string }> {
  const em = server.app.orm.em.fork();
  counter += 1;
  const user = em.create(User, {
    username: `Olga${counter}`,
    email: `chat-owner-${Date.now()}-${counter}@example.test`,
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

/** A public room (anyone may enter), running. */
async function createRoom(ownerId: string): Promise<string> {
  const em = server.app.orm.em.fork();
  counter += 1;
  const room = em.create(Room, {
    name: `chat-${Date.now().toString(36)}-${counter}`,
    password: null,
    isPublic: true,
    region: await em.findOneOrFail(Region, { code: LOCAL_REGION_CODE }),
    image: (await em.find(SystemImage, {}, { limit: 1 }))[0]!,
    startUrl: null,
    maxConnections: 10,
    width: 640,
    height: 360,
    videoBitrateKbps: 1000,
    maxFrameRate: 10,
    owner: em.getReference(User, ownerId),
  });
  await em.flush();
  start(room.id);
  return room.id;
}

function start(roomId: string): void {
  sessions.set(roomId, new LocalRoomSession(roomId, { fps: 5 }));
}

/** The room's browser stops: its members are told and disconnected. */
function stop(roomId: string): void {
  sessions.get(roomId)?.stop();
  sessions.delete(roomId);
  endSession(roomId, { reason: 'stopped', by: null });
}

/** A browser on `on`: a ticket (as the owner with a token, else as a new guest) and the socket. */
async function enter(on: TTestServer, roomId: string, nickname: string, token?: string) {
  const response = await on.app.inject({
    method: 'POST',
    url: '/ws/ticket',
    headers: token ? { authorization: token } : {},
    payload: { roomId },
  });
  expect(response.statusCode, response.body).toBe(200);
  const { ticket } = response.json() as { ticket: string };
  const url = `${on.url.replace(/^http/, 'ws')}${roomSocketPath(roomId)}?ticket=${encodeURIComponent(ticket)}`;
  const client = await RoomClient.connect(url, { origin: new URL(on.config.publicUrl).origin });
  client.send({ type: 'member/join', nickname });
  await client.next('member/list');
  return client;
}

const history = async (client: RoomClient) =>
  (await client.next('chat/history')).messages.map((message) => `${message.nickname}: ${message.text}`);

const storedCount = (roomId: string) => server.app.orm.em.fork().count(RoomChatMessage, { room: roomId });

describe('the stored chat (room_chat_messages)', () => {
  it(`keeps a room's latest ${CHAT_HISTORY_SIZE} messages and forgets only the authors it is told`, async () => {
    const owner = await createOwner();
    const roomId = await createRoom(owner.id);
    const other = await createRoom(owner.id);
    const orm = server.app.orm;
    const book = databaseRoomChat(orm);
    const record = (index: number, author: { userId: string | null; guestId: string | null }) => ({
      id: randomUUID(),
      memberId: randomUUID(),
      nickname: 'Someone',
      text: `message ${index}`,
      at: Date.now(),
      author,
    });
    const guest = { userId: null, guestId: 'g'.repeat(43) };
    const member = { userId: owner.id, guestId: null };
    for (let batch = 0; batch < 5; batch++) {
      await book.append(
        roomId,
        Array.from({ length: 21 }, (_, i) => record(batch * 21 + i, i % 2 ? guest : member)),
      );
    }
    await book.append(other, [record(0, guest)]);
    const recent = await book.recent(roomId);
    expect(recent).toHaveLength(CHAT_HISTORY_SIZE);
    expect(recent[0]?.text).toBe('message 5');
    expect(recent.at(-1)?.text).toBe('message 104');
    expect(await orm.em.fork().count(RoomChatMessage, { room: roomId })).toBe(CHAT_HISTORY_SIZE);

    await book.forget(roomId, [guest]);
    const kept = await book.recent(roomId);
    expect(kept.every((message) => message.author.userId === owner.id)).toBe(true);
    expect(kept).toHaveLength(recent.filter((message) => message.author.userId === owner.id).length);
    // Another room's messages by the same browser are that room's business.
    expect(await book.recent(other)).toHaveLength(1);
  });
});

describe("a room's chat", () => {
  it("loses a banned guest's messages, for everyone present and for good", async () => {
    const owner = await createOwner();
    const roomId = await createRoom(owner.id);
    const olga = await enter(server, roomId, 'Olga', owner.token);
    const spam = await enter(server, roomId, 'Spam');
    const ann = await enter(server, roomId, 'Ann');
    spam.send({ type: 'chat/send', text: 'buy now' });
    await ann.next('chat/message', (message) => message.message.text === 'buy now');
    ann.send({ type: 'chat/send', text: 'hello' });
    await olga.next('chat/message', (message) => message.message.text === 'hello');
    await expect.poll(() => storedCount(roomId)).toBe(2);

    olga.send({ type: 'member/ban', memberId: spam.of('member/list')[0]!.you });
    await spam.closedWith();
    const now = await ann.next('chat/history', (message) => message.messages.length === 1);
    expect(now.messages.map((message) => message.text)).toEqual(['hello']);
    await expect.poll(() => storedCount(roomId)).toBe(1);

    // The ban ends with the run; the messages stay gone.
    stop(roomId);
    await olga.closedWith();
    start(roomId);
    expect(await history(await enter(server, roomId, 'Olga', owner.token))).toEqual(['Ann: hello']);
  });

  // Last in the file: it takes the first server down.
  it('is kept through a stop and a start, and through the server going down, and goes with the room', async () => {
    const owner = await createOwner();
    const roomId = await createRoom(owner.id);
    const olga = await enter(server, roomId, 'Olga', owner.token);
    const gus = await enter(server, roomId, 'Gus');
    olga.send({ type: 'chat/send', text: 'welcome' });
    await gus.next('chat/message', (message) => message.message.text === 'welcome');
    gus.send({ type: 'chat/send', text: 'see https://example.com/a' });
    await olga.next('chat/message', (message) => message.message.nickname === 'Gus');
    await expect.poll(() => storedCount(roomId)).toBe(2);

    // The owner stops the room and starts it again: whoever comes in reads what was said before.
    stop(roomId);
    await olga.closedWith();
    await gus.closedWith();
    start(roomId);
    const back = await enter(server, roomId, 'Olga', owner.token);
    expect(await history(back)).toEqual(['Olga: welcome', 'Gus: see https://example.com/a']);
    back.send({ type: 'chat/send', text: 'after the restart' });
    await back.next('chat/message');
    await expect.poll(() => storedCount(roomId)).toBe(3);

    // This server goes down; another on the same database runs the room on.
    const next = await startTestServer({ env: { DATABASE_URL: first.config.databaseUrl ?? '' } });
    later.push(next);
    await first.app.close();
    server = next;
    useLocalRooms(next);
    const again = await enter(next, roomId, 'Olga', owner.token);
    expect(await history(again)).toEqual([
      'Olga: welcome',
      'Gus: see https://example.com/a',
      'Olga: after the restart',
    ]);

    // Deleting the room deletes what was said in it.
    stop(roomId);
    await again.closedWith();
    const deleted = await rest(next.app, 'POST', '/api/room/deleteRoom', {
      token: owner.token,
      query: { id: roomId },
    });
    expect(deleted.msg, JSON.stringify(deleted.data)).toBe('success');
    expect(await next.app.orm.em.fork().count(RoomChatMessage, { room: roomId })).toBe(0);
  });
});
