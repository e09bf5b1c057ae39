// Two servers in two processes on one PostgreSQL and one Redis, asked in turn like a load balancer would: the
// budget of wrong logins on an account and the budget of wrong share passwords are one budget across both, and a
// ban made in the room on one server keeps the person from getting a ticket from the other, until the room stops;
// a room started again after its machine was lost keeps its bans, one its owner stopped and started has none.
// Server A is built in this test's process (its room's browser played by a LocalRoomSession, so the test controls
// where the room runs); server B is `node dist/server.mjs`, a process of its own that shares nothing else with A.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AppError,
  ROOM_PASSWORD_LIMITS,
  type RoomEngine,
  resumeRoom,
  type TCaptchaFields,
  type TRoomRuntimeState,
} from '@rooms/api';
import { solveChallenge } from '@rooms/api/captcha';
import {
  ROOM_CLOSE_CODES,
  ROOM_ERROR_MESSAGES,
  ROOM_TICKET_PATH,
  roomSocketPath,
} from '@rooms/api/room-protocol';
import { freePort, LOCAL_REGION_CODE, Region, Room, SystemImage, User } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { parseEnv } from '../env';
import { createArgon2Hasher } from '../services/passwords/argon2-hasher';
import { RoomClient } from '../testing/room-client';
import { LocalRoomSession } from '../testing/rooms/local-room-session';
import { killServerProcesses, startServerProcess, type TServerProcess } from '../testing/server-processes';
import { storedUser } from '../testing/stored-accounts';
import { TEST_CAPTCHA_MAX_NUMBER } from '../testing/test-captcha';
import { testRedisUrl as REDIS_URL, testRedisAvailable as redisAvailable } from '../testing/test-redis';

/** Wrong passwords on one account in its window (packages/api domains/accounts/guards.ts LIMITS). */
const LOGIN_LIMIT_PER_ACCOUNT = 10;

interface TServer {
  url: string;
  /** The end of what it logged, shown when a test fails. */
  log(): string;
}

let database: TestDatabase;
let dataDir: string;
let appA: FastifyInstance | undefined;
let processB: TServerProcess | undefined;
let servers: [TServer, TServer];
const sessions = new Map<string, LocalRoomSession>();
let endSession: (roomId: string) => void = () => {};
const hasher = createArgon2Hasher();

/** What both servers are configured with: one database, one Redis, one secret, behind one proxy hop. */
function sharedEnv(name: string, port: number): Record<string, string> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: database.url,
    ...(redisAvailable ? { REDIS_URL } : {}),
    // One proxy hop in front, as behind a load balancer: each scenario speaks from its own address.
    TRUST_PROXY: '1',
    DATA_DIR: join(dataDir, name),
    ROOMS_DATA_DIR: join(dataDir, name, 'rooms'),
    APP_SECRET: 'test-secret-that-is-long-enough-for-hmac-keys',
    BILLING_JOBS: 'off',
    ROOM_WARM_POOL: '0',
    CAPTCHA_MAX_NUMBER: TEST_CAPTCHA_MAX_NUMBER,
  };
}

/** Server A, in this process; its running rooms are the test's local sessions. */
async function startServerHere(): Promise<TServer> {
  const port = await freePort();
  const config = parseEnv({ ...sharedEnv('a', port), LOG_LEVEL: 'error' });
  const app = await buildApp(config, { logger: { level: config.logLevel } });
  appA = app;
  app.roomRelay.use({
    link: {
      session: (roomId) => sessions.get(roomId),
      participantsChanged: () => {},
      onSessionEnded(listener) {
        endSession = (roomId) => listener(roomId, { reason: 'stopped', by: null });
        return () => {};
      },
    },
  });
  await app.listen({ host: '127.0.0.1', port });
  return { url: `http://127.0.0.1:${port}`, log: () => '(in the test process: errors only, above)' };
}

/** Server B: a server process on the same database and Redis; resolves once it serves. */
async function startServerB(): Promise<TServerProcess> {
  const port = await freePort();
  return startServerProcess('server B', sharedEnv('b', port), port);
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-shared-state-'));
  // One after the other: the first runs the migrations and seeds, the second finds them done.
  const a = await startServerHere();
  processB = await startServerB();
  servers = [a, processB];
}, 200_000);

beforeEach((context) => {
  context.onTestFailed(() => {
    for (const [index, server] of servers.entries())
      console.error(`server ${'ab'[index]} logged:\n${server.log()}`);
  });
});

afterAll(async () => {
  for (const session of sessions.values()) session.stop();
  processB?.child.kill('SIGTERM');
  await Promise.all([
    appA?.close(),
    processB && Promise.race([processB.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]),
  ]);
  killServerProcesses();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

let addressCounter = 0;
/** An address of its own for each scenario (behind the trusted proxy), so no other test's budget is spent here. */
function uniqueAddress(): string {
  addressCounter += 1;
  const [a = 0, b = 0] = randomBytes(2);
  return `10.${100 + (addressCounter % 100)}.${a}.${b}`;
}

interface TCall {
  body?: unknown;
  query?: Record<string, string>;
  token?: string;
  ip: string;
  cookie?: string;
}

async function call<T = unknown>(server: TServer, method: 'GET' | 'POST', path: string, options: TCall) {
  const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
  const response = await fetch(`${server.url}${path}${query}`, {
    method,
    headers: {
      'x-forwarded-for': options.ip,
      ...(options.token ? { authorization: options.token } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const setCookie = response.headers.get('set-cookie');
  const json = (await response.json()) as { msg?: string; data?: T; ticket?: string };
  return { status: response.status, json, cookie: setCookie ? setCookie.split(';')[0] : undefined };
}

async function solveCaptcha(server: TServer, ip: string): Promise<TCaptchaFields> {
  const challenge = await call<Parameters<typeof solveChallenge>[0]>(
    server,
    'GET',
    '/api/captcha/challenge',
    {
      ip,
    },
  );
  const solution = await solveChallenge(challenge.json.data!);
  const fields = await call<TCaptchaFields>(server, 'POST', '/api/captcha/verify', { body: solution, ip });
  if (fields.json.msg !== 'success') throw new Error(`captcha not verified: ${String(fields.json.data)}`);
  return fields.json.data!;
}

let sequence = 0;
async function createUser(options: { password?: string; plan?: string } = {}) {
  const passwordHash = await hasher.hash(options.password ?? randomBytes(12).toString('hex'));
  return storedUser(database.orm, { prefix: 'shared-', plan: options.plan ?? null, passwordHash });
}

async function createRoom(ownerId: string, password: string, running = false) {
  const em = database.orm.em.fork();
  sequence += 1;
  const room = em.create(Room, {
    name: `shared-${Date.now().toString(36)}${sequence}`.slice(0, 32),
    password: await hasher.hash(password),
    isPublic: false,
    region: await em.findOneOrFail(Region, { code: LOCAL_REGION_CODE }),
    image: await em.findOneOrFail(SystemImage, { code: 'chromium-blank' }),
    startUrl: null,
    maxConnections: 5,
    width: 640,
    height: 360,
    videoBitrateKbps: 500,
    maxFrameRate: 10,
    owner: em.getReference(User, ownerId),
    state: running ? 'running' : 'stopped',
    lastStartedAt: running ? new Date() : null,
  });
  await em.flush();
  // Running on server A: its browser is a local session there, and nowhere else.
  if (running) sessions.set(room.id, new LocalRoomSession(room.id, { fps: 5 }));
  return { id: room.id, name: room.name };
}

describe.skipIf(!redisAvailable)('two servers on one Redis', () => {
  it('hold one budget of wrong passwords on an account: the tries split between them lock the login', async () => {
    const password = 'right-password-1';
    const user = await createUser({ password });
    const ip = uniqueAddress();
    const login = async (server: TServer, tried: string) =>
      call(server, 'POST', '/api/user/login', {
        body: { email: user.email, password: tried, ...(await solveCaptcha(server, ip)) },
        ip,
      });

    for (let attempt = 0; attempt < LOGIN_LIMIT_PER_ACCOUNT; attempt++) {
      const server = servers[attempt % 2]!;
      expect((await login(server, `wrong-${attempt}`)).json, `wrong try ${attempt + 1}`).toEqual({
        msg: 'error',
        data: 'Incorrect email or password',
      });
    }
    // Five wrong tries on each server: neither alone has seen ten, together they spent the account's budget.
    for (const server of servers) {
      const refused = await login(server, password);
      expect(refused.status).toBe(429);
      expect(refused.json.data).toMatch(/^Too many attempts, please try again in \d+ seconds$/);
    }
  }, 120_000);

  it('hold one budget of wrong share passwords, whichever server and path the guesses take', async () => {
    const owner = await createUser();
    const room = await createRoom(owner.id, 'sesame');
    const ip = uniqueAddress();
    const lobby = (server: TServer, password: string, extra: Record<string, string> = {}) =>
      call(server, 'GET', '/api/room/getRoomInfo_share', {
        query: { name: room.name, password, ...extra },
        ip,
      });
    const ticket = (server: TServer, password: string) =>
      call(server, 'POST', ROOM_TICKET_PATH, { body: { roomId: room.id, password }, ip });

    // The right password costs nothing, on either server (from a neighbour: an address that entered with the
    // password keeps entering with it, captcha or not).
    const neighbour = uniqueAddress();
    for (const server of servers) {
      const entered = await call(server, 'GET', '/api/room/getRoomInfo_share', {
        query: { name: room.name, password: 'sesame' },
        ip: neighbour,
      });
      expect(entered.json.msg).toBe('success');
    }
    const { limit } = ROOM_PASSWORD_LIMITS.perRoom;
    for (let guess = 0; guess < limit; guess++) {
      // The lobby on one server, a ticket on the other, in turn.
      const wrong =
        guess % 2 === 0
          ? await lobby(servers[0]!, `guess-${guess}`)
          : await ticket(servers[1]!, `guess-${guess}`);
      expect(wrong.status, `guess ${guess + 1}`).toBe(403);
      expect(wrong.json.data, `guess ${guess + 1}`).toMatch(/^The room password is incorrect/);
    }
    // Spent, on both servers: each further try needs the captcha, the right password too, and is never a lockout.
    const needsCaptcha = /^Several wrong passwords were tried for this room from your network/;
    for (const server of servers) {
      for (const refused of [await lobby(server, 'sesame'), await ticket(server, 'sesame')]) {
        expect(refused.status).toBe(403);
        expect(refused.json.data).toMatch(needsCaptcha);
      }
    }
    // The right password with a captcha solved on one server enters on the other, and from then on the address
    // enters with it on both without one (the page's later calls and tickets carry none).
    const entered = await lobby(servers[1]!, 'sesame', await solveCaptcha(servers[0]!, ip));
    expect(entered.json.msg).toBe('success');
    expect((await lobby(servers[0]!, 'sesame')).json.msg).toBe('success');
  }, 60_000);
});

describe.skipIf(!redisAvailable)('a burst of guesses split between two servers', () => {
  it('gets no more free wrong tries than the budget, however many are in flight at once', async () => {
    const owner = await createUser();
    const room = await createRoom(owner.id, 'sesame');
    const ip = uniqueAddress();
    const { limit } = ROOM_PASSWORD_LIMITS.perRoom;
    const answers = await Promise.all(
      Array.from({ length: 3 * limit }, (_, guess) =>
        call(servers[guess % 2]!, 'GET', '/api/room/getRoomInfo_share', {
          query: { name: room.name, password: `guess-${guess}` },
          ip,
        }),
      ),
    );
    // Only the free tries had their password checked; every other one was asked for the captcha first.
    const checked = answers.filter((answer) =>
      /^The room password is incorrect/.test(String(answer.json.data)),
    );
    expect(checked).toHaveLength(limit);
    const asked = answers.filter((answer) =>
      String(answer.json.data).startsWith('Several wrong passwords were tried for this room'),
    );
    expect(asked).toHaveLength(2 * limit);
  }, 60_000);

  it('of wrong logins on one account gets no more answers than its budget, and the owner still logs in', async () => {
    const password = 'right-password-2';
    const user = await createUser({ password });
    const ip = uniqueAddress();
    const burst = 3 * LOGIN_LIMIT_PER_ACCOUNT;
    // The captchas first, one by one (each server's pass token is good on the other), then every login at once.
    const captchas: TCaptchaFields[] = [];
    for (let index = 0; index < burst; index++) captchas.push(await solveCaptcha(servers[index % 2]!, ip));
    const answers = await Promise.all(
      captchas.map((captcha, guess) =>
        call(servers[guess % 2]!, 'POST', '/api/user/login', {
          body: { email: user.email, password: `guess-${guess}`, ...captcha },
          ip,
        }),
      ),
    );
    const incorrect = answers.filter((answer) => answer.json.data === 'Incorrect email or password');
    expect(incorrect).toHaveLength(LOGIN_LIMIT_PER_ACCOUNT);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(burst - LOGIN_LIMIT_PER_ACCOUNT);

    // From a network that guessed nothing, the right password still opens the account.
    const ownerIp = uniqueAddress();
    const owner = await call(servers[1]!, 'POST', '/api/user/login', {
      body: { email: user.email, password, ...(await solveCaptcha(servers[1]!, ownerIp)) },
      ip: ownerIp,
    });
    expect(owner.json.msg).toBe('success');
  }, 120_000);
});

describe('a ban made on one server', () => {
  it('keeps the person from a ticket on the other, by browser and by address, until the room stops', async () => {
    const [a, b] = [servers[0]!, servers[1]!];
    const owner = await createUser();
    const room = await createRoom(owner.id, 'sesame', true);
    const guestIp = uniqueAddress();

    const socketUrl = (query: Record<string, string>) =>
      `${a.url.replace(/^http/, 'ws')}${roomSocketPath(room.id)}?${new URLSearchParams(query)}`;
    const olga = await RoomClient.connect(socketUrl({ token: owner.token }));
    olga.send({ type: 'member/join', nickname: 'Olga' });
    await olga.next('member/list');

    const issued = await call(a, 'POST', ROOM_TICKET_PATH, {
      body: { roomId: room.id, password: 'sesame' },
      ip: guestIp,
    });
    expect(issued.status, JSON.stringify(issued.json)).toBe(200);
    const cookie = issued.cookie!;
    expect(cookie).toMatch(/^rooms_guest=/);
    // Through the same proxy as his ticket: the socket's address is his.
    const gus = await RoomClient.connect(socketUrl({ ticket: issued.json.ticket! }), {
      origin: a.url,
      'x-forwarded-for': guestIp,
    });
    gus.send({ type: 'member/join', nickname: 'Gus' });
    const gusId = (await gus.next('member/list')).you;

    olga.send({ type: 'member/ban', memberId: gusId });
    expect((await gus.closedWith()).code).toBe(ROOM_CLOSE_CODES.BANNED);

    const askB = (options: Partial<TCall>) =>
      call(b, 'POST', ROOM_TICKET_PATH, {
        body: { roomId: room.id, password: 'sesame' },
        ip: guestIp,
        ...options,
      });
    // The other server holds no hub of this room: only the stored ban can refuse him. It is stored just after the
    // kick, so the first ask may come a moment early.
    await expect
      .poll(async () => (await askB({ cookie })).json, { timeout: 5_000, interval: 100 })
      .toEqual({ msg: 'error', data: 'You were banned from this room by its owner' });
    expect((await askB({ cookie })).status).toBe(403);
    // A fresh browser profile from his address is still him.
    expect(await askB({})).toMatchObject({
      status: 403,
      json: { data: 'You were banned from this room by its owner' },
    });
    // An account is never held back by a guest's address.
    const member = await createUser();
    expect((await askB({ token: member.token })).json.data).not.toBe(ROOM_ERROR_MESSAGES.BANNED);
    olga.close();

    // The ban ends when the room stops, whoever stores the stop: the answer anyone gets for a room not running.
    sessions.get(room.id)?.stop();
    sessions.delete(room.id);
    endSession(room.id);
    await database.orm.em.fork().nativeUpdate(Room, { id: room.id }, { state: 'stopped' });
    expect(await askB({ cookie })).toMatchObject({
      status: 409,
      json: { data: ROOM_ERROR_MESSAGES.ROOM_NOT_RUNNING },
    });
  }, 120_000);
});

describe('a room started again after its machine was lost', () => {
  /**
   * What the control plane starts a lost room with (fleet-duties: resumeRoom, as its owner's start would): the
   * room's run is gone, so the engine answers stopped, and the start brings the room up on server A again.
   */
  function engineStartingOnA(): RoomEngine & { refuseNextStart(): void } {
    const states = new Map<string, TRoomRuntimeState>();
    let refuse = false;
    return {
      refuseNextStart() {
        refuse = true;
      },
      async start(spec) {
        if (refuse) {
          refuse = false;
          throw new AppError('SERVER_FULL');
        }
        sessions.set(spec.roomId, new LocalRoomSession(spec.roomId, { fps: 5 }));
        states.set(spec.roomId, 'running');
      },
      async stop(roomId) {
        states.set(roomId, 'stopped');
      },
      state: (roomId) => states.get(roomId) ?? 'stopped',
      async deleteData() {},
      capacity: () => ({ running: states.size, max: 10 }),
      onStateChange: () => () => {},
      mediaStats: () => null,
    };
  }

  it('keeps its bans, in the new hub too, past a failed try; a room its owner stopped and started again has none', async () => {
    const [a, b] = [servers[0]!, servers[1]!];
    const owner = await createUser({ plan: 'pro' });
    const room = await createRoom(owner.id, 'sesame', true);
    const guestIp = uniqueAddress();
    const socketUrl = (query: Record<string, string>) =>
      `${a.url.replace(/^http/, 'ws')}${roomSocketPath(room.id)}?${new URLSearchParams(query)}`;
    const ticketFrom = (server: TServer, cookie?: string) =>
      call(server, 'POST', ROOM_TICKET_PATH, {
        body: { roomId: room.id, password: 'sesame' },
        ip: guestIp,
        ...(cookie ? { cookie } : {}),
      });

    const olga = await RoomClient.connect(socketUrl({ token: owner.token }));
    olga.send({ type: 'member/join', nickname: 'Olga' });
    await olga.next('member/list');
    const issued = await ticketFrom(a);
    const cookie = issued.cookie!;
    // A second ticket, taken before the ban, for a comeback into the room's next run.
    const early = await ticketFrom(a, cookie);
    const gus = await RoomClient.connect(socketUrl({ ticket: issued.json.ticket! }), {
      origin: a.url,
      'x-forwarded-for': guestIp,
    });
    gus.send({ type: 'member/join', nickname: 'Gus' });
    olga.send({ type: 'member/ban', memberId: (await gus.next('member/list')).you });
    expect((await gus.closedWith()).code).toBe(ROOM_CLOSE_CODES.BANNED);
    await expect.poll(async () => (await ticketFrom(b, cookie)).status, { timeout: 5_000 }).toBe(403);

    // The machine is lost: the browser and its hub are gone, and no stop is stored.
    sessions.get(room.id)?.stop();
    sessions.delete(room.id);
    endSession(room.id);
    expect((await olga.closedWith()).code).toBe(ROOM_CLOSE_CODES.ROOM_NOT_RUNNING);
    const engine = engineStartingOnA();
    // The first try finds no free agent: the room waits to be tried again, starting, its bans still on.
    engine.refuseNextStart();
    await expect(
      resumeRoom({ em: database.orm.em.fork(), services: { rooms: engine, now: () => new Date() } }, room.id),
    ).rejects.toThrow(AppError);
    expect((await database.orm.em.fork().findOneOrFail(Room, room.id)).state).toBe('starting');
    expect((await ticketFrom(b, cookie)).status).toBe(403);
    expect(
      await resumeRoom(
        { em: database.orm.em.fork(), services: { rooms: engine, now: () => new Date() } },
        room.id,
      ),
    ).toBe(true);

    // The same session for its people: still banned on both servers, and the new hub knows it.
    expect((await ticketFrom(b, cookie)).status).toBe(403);
    expect((await ticketFrom(a, cookie)).status).toBe(403);
    const comeback = await RoomClient.connect(socketUrl({ ticket: early.json.ticket! }), {
      origin: a.url,
      'x-forwarded-for': guestIp,
    });
    comeback.send({ type: 'member/join', nickname: 'Not Gus' });
    expect((await comeback.closedWith()).code).toBe(ROOM_CLOSE_CODES.BANNED);

    // Its owner stops it and starts it again: a new session, nobody banned.
    sessions.get(room.id)?.stop();
    sessions.delete(room.id);
    endSession(room.id);
    await engine.stop(room.id);
    await database.orm.em.fork().nativeUpdate(Room, { id: room.id }, { state: 'stopped' });
    expect(
      await resumeRoom(
        { em: database.orm.em.fork(), services: { rooms: engine, now: () => new Date() } },
        room.id,
      ),
    ).toBe(true);
    expect((await ticketFrom(a, cookie)).status).toBe(200);
  }, 60_000);
});
