// A real server whose rooms' browsers are LocalRoomSessions (no Chromium), with accounts, rooms and participants'
// sockets made directly: the room socket's security suites (pointing, voice) reach each room through it.
import { createHash, randomBytes } from 'node:crypto';
import { roomSocketPath } from '@rooms/api/room-protocol';
import { LOCAL_REGION_CODE, Region, Room, Session, SystemImage, User } from '@rooms/db';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RoomLink } from '../../ws/relay-ports';
import { uniqueCaller } from '../rest-client';
import { RoomClient } from '../room-client';
import { startTestServer, type TTestServer } from '../test-server';
import { LocalRoomSession } from './local-room-session';

/** Starts the server before the file's tests and stops it and its rooms after; `roomPrefix` names the rooms. */
export function relayWithLocalRooms(roomPrefix: string) {
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

  /** An account with one session; its token opens sockets as a signed-in page does. */
  async function createUser(username: string): Promise<{ id: string; token: string }> {
    const em = server.app.orm.em.fork();
    const user = em.create(User, {
      username,
      email: uniqueCaller(username.toLowerCase()).email,
      passwordHash: 'not-used',
    });
    const token = randomBytes(32).toString('base64url');
    em.create(Session, {
      user,
      tokenHash: createHash('sha256').update(token).digest('hex'),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    await em.flush();
    return { id: user.id, token };
  }

  async function createRoom(ownerId: string): Promise<string> {
    const em = server.app.orm.em.fork();
    const room = em.create(Room, {
      name: `${roomPrefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
      password: 'sesame',
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

  /** A browser's socket to the room with a fresh ticket, not joined yet (`token`: signed in). */
  async function open(roomId: string, call: { token?: string; cookie?: string; ip?: string } = {}) {
    const response = await server.app.inject({
      method: 'POST',
      url: '/ws/ticket',
      remoteAddress: call.ip ?? '127.0.0.1',
      headers: {
        ...(call.token ? { authorization: call.token } : {}),
        ...(call.cookie ? { cookie: call.cookie } : {}),
      },
      payload: { roomId, password: 'sesame' },
    });
    expect(response.statusCode).toBe(200);
    const url = `${server.url.replace(/^http/, 'ws')}${roomSocketPath(roomId)}?ticket=${response.json().ticket}`;
    return RoomClient.connect(url, { origin });
  }

  async function enter(roomId: string, nickname: string, call: Parameters<typeof open>[1] = {}) {
    const client = await open(roomId, call);
    client.send({ type: 'member/join', nickname });
    const list = await client.next('member/list');
    return { client, id: list.you };
  }

  return {
    get server() {
      return server;
    },
    createUser,
    createRoom,
    open,
    enter,
  };
}
