// Generated room-socket traffic: 10,000 messages (the protocol's own, valid and broken, in any order, plus text
// that is not JSON and oversized frames) from the room's controller and a watcher. The relay must never fail
// inside (close code 1011), every error it sends must read as a sentence, and the room must still work after.
import { createHash, randomBytes } from 'node:crypto';
import { roomSocketPath, ZClientMessage } from '@rooms/api/room-protocol';
import { LOCAL_REGION_CODE, Region, Room, Session, SystemImage, User } from '@rooms/db';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RoomClient } from '../testing/room-client';
import { LocalRoomSession } from '../testing/rooms/local-room-session';
import { startTestServer, type TTestServer } from '../testing/test-server';
import type { RoomLink } from '../ws/relay-ports';
import { fuzzValue, type TJsonSchema } from './schema-arbitrary';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const MESSAGES = Number(process.env.FUZZ_RUNS ?? 80) * 125;

let server: TTestServer;
const sessions = new Map<string, LocalRoomSession>();

beforeAll(async () => {
  server = await startTestServer();
  const link: RoomLink = {
    session: (roomId) => sessions.get(roomId),
    participantsChanged: () => {},
  };
  server.app.roomRelay.use({ link });
}, 60_000);

afterAll(async () => {
  for (const session of sessions.values()) session.stop();
  await server?.close();
});

async function createUser(name: string): Promise<string> {
  const em = server.app.orm.em.fork();
  const user = em.create(User, {
    username: `${name}-${randomBytes(3).toString('hex')}`,
    email: `${name}-${randomBytes(4).toString('hex')}@example.test`,
    passwordHash: 'not-used',
  });
  const token = randomBytes(32).toString('base64url');
  em.create(Session, {
    user,
    tokenHash: createHash('sha256').update(token).digest('hex'),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  await em.flush();
  return token;
}

async function createRoom(ownerToken: string): Promise<string> {
  const em = server.app.orm.em.fork();
  const owner = await em.findOneOrFail(Session, {
    tokenHash: createHash('sha256').update(ownerToken).digest('hex'),
  });
  const room = em.create(Room, {
    name: `fuzz-${randomBytes(4).toString('hex')}`,
    password: null,
    isPublic: true,
    region: await em.findOneOrFail(Region, { code: LOCAL_REGION_CODE }),
    image: (await em.find(SystemImage, {}, { limit: 1 }))[0]!,
    startUrl: null,
    maxConnections: 10,
    width: 1280,
    height: 720,
    videoBitrateKbps: 2000,
    maxFrameRate: 30,
    owner: owner.user,
  });
  await em.flush();
  sessions.set(room.id, new LocalRoomSession(room.id, { fps: 30 }));
  return room.id;
}

/** Scripts connect with their token; each (re)connection joins under its own nickname. */
async function join(roomId: string, token: string, nickname: string): Promise<RoomClient> {
  const url = `${server.url.replace(/^http/, 'ws')}${roomSocketPath(roomId)}?token=${encodeURIComponent(token)}`;
  const client = await RoomClient.connect(url);
  client.send({ type: 'member/join', nickname });
  await client.next('member/list');
  return client;
}

function readable(text: unknown): boolean {
  return (
    typeof text === 'string' &&
    text.trim().length > 0 &&
    text.length <= 500 &&
    !/\n\s+at\s/.test(text) &&
    // The validation library's own wording names no field (see the API fuzz suite).
    !/^(Invalid input|Too (big|small):|Invalid option|Unrecognized key)/.test(text)
  );
}

const protocol = z.toJSONSchema(ZClientMessage, { io: 'input', unrepresentable: 'any' }) as TJsonSchema;
const message = fc.oneof(
  { arbitrary: fuzzValue(protocol).map((value) => JSON.stringify(value)), weight: 8 },
  { arbitrary: fc.string({ maxLength: 60 }), weight: 1 },
  { arbitrary: fc.constantFrom('{', '[]', 'null', '{"type":"member/join"}', 'x'.repeat(70_000)), weight: 1 },
);

describe('generated room-socket traffic', () => {
  it('never breaks the relay, answers every bad message in words, and leaves the room working', async () => {
    const ownerToken = await createUser('owner');
    const guestToken = await createUser('guest');
    const roomId = await createRoom(ownerToken);
    const texts = fc.sample(message, { seed: SEED, numRuns: MESSAGES });
    const problems: string[] = [];
    let reconnections = 0;
    let errors = 0;

    const people = [
      { token: ownerToken, name: 'Olga', client: await join(roomId, ownerToken, 'Olga') },
      { token: guestToken, name: 'Gus', client: await join(roomId, guestToken, 'Gus') },
    ];
    const watch = (client: RoomClient) => {
      client.socket.on('close', (code) => {
        // 1011: the relay failed inside; 1006: it dropped the connection without saying why.
        if (code === 1011 || code === 1006 || code < 1000) problems.push(`closed with ${code}`);
      });
    };
    for (const person of people) watch(person.client);
    const judgeErrors = (client: RoomClient) => {
      for (const error of client.of('system/error')) {
        errors += 1;
        if (!readable(error.message)) problems.push(`unreadable error ${JSON.stringify(error)}`);
      }
    };

    for (const [index, text] of texts.entries()) {
      const person = people[index % people.length]!;
      if (person.client.socket.readyState !== person.client.socket.OPEN) {
        // Too many bad messages close a socket (as they should); a script would connect again.
        reconnections += 1;
        judgeErrors(person.client);
        person.client = await join(roomId, person.token, person.name);
        watch(person.client);
      }
      person.client.send(text);
      // Let the relay answer now and then, so replies and closes interleave with the traffic.
      if (index % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const person of people) {
      judgeErrors(person.client);
      person.client.close();
    }

    // The room still works: a newcomer joins and sees the picture.
    const newcomer = await join(roomId, await createUser('new'), 'Nina');
    const frames = newcomer.frames.length;
    await newcomer.until(() => newcomer.frames.length > frames + 3, 'frames after the fuzz');
    newcomer.close();
    expect((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    console.log(
      `[fuzz] seed ${SEED}: ${texts.length} room-socket messages, ${errors} errors answered in words, ${reconnections} reconnections; ${problems.length} problems`,
    );
    expect(problems.slice(0, 20)).toEqual([]);
  }, 600_000);
});
