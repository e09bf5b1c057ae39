// The real server for benchmarks that drive rooms over HTTP and WebSockets: its own embedded PostgreSQL in a
// throw-away directory, the test pages for the rooms' browsers (allowed through the egress), and an owner signed
// in on the Pro plan, whose token `call` sends with each REST call.
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Plan, Session, Subscription, startEmbeddedPostgres, User } from '@rooms/db';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { parseEnv } from '../apps/server/src/env';
import { startTestPages, type TTestPages } from '../apps/server/src/testing/rooms/test-pages';

export interface TBenchServer {
  app: FastifyInstance;
  port: number;
  pages: TTestPages;
  /** Where the rooms keep their data (a stopped room must leave no process naming it). */
  roomsDir: string;
  /** The owner's session token. */
  token: string;
  /** A REST call as the owner; throws unless it succeeds. */
  call<T = { id: string; state: string }>(path: string, body: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startBenchServer(options: {
  name: string;
  postgresPort: number;
  env?: Record<string, string>;
}): Promise<TBenchServer> {
  const dir = await mkdtemp(join(tmpdir(), `rooms-${options.name}-`));
  await chmod(dir, 0o755);
  const roomsDir = join(dir, 'rooms');
  const pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: options.postgresPort,
    postgresFlags: ['-c', 'fsync=off'],
  });
  const pages = await startTestPages();
  const app = await buildApp(
    parseEnv({
      DATABASE_URL: pg.url,
      APP_SECRET: 's'.repeat(40),
      // BENCH_LOG_LEVEL=warn (or info, debug) shows the server's log while a bench runs.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      SMTP_URL: 'smtp://127.0.0.1:9',
      ROOMS_DATA_DIR: roomsDir,
      ROOM_EGRESS_ALLOW: pages.hostPort,
      BILLING_JOBS: 'off',
      // Cold starts unless a bench asks for warm ones (bench:start): the others count processes and memory per room.
      ROOM_WARM_POOL: '0',
      ...options.env,
    }),
    process.env.BENCH_LOG_LEVEL ? {} : { logger: false },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const token = await signInOwner(app.orm.em.fork(), options.name);
  return {
    app,
    port,
    pages,
    roomsDir,
    token,
    call: callerOf(port, token),
    async close() {
      await app.close();
      await pages.close();
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A user on the Pro plan with a live session, written straight into the database; the session's token. */
export async function signInOwner(em: EntityManager, name: string): Promise<string> {
  const user = em.create(User, { username: name, email: `${name}@example.test`, passwordHash: 'not-used' });
  const token = randomBytes(32).toString('base64url');
  em.create(Session, {
    user,
    tokenHash: createHash('sha256').update(token).digest('hex'),
    expiresAt: new Date(Date.now() + 48 * 3600_000),
  });
  em.create(Subscription, {
    user,
    plan: await em.findOneOrFail(Plan, { code: 'pro' }),
    startsAt: new Date(),
    expiresAt: null,
  });
  await em.flush();
  return token;
}

/** REST calls as the owner of `token` to the server on `port`; each throws unless it succeeds. */
export function callerOf(port: number, token: string): TBenchServer['call'] {
  return async <T>(path: string, body: unknown) => {
    const reply = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify(body),
    });
    const json = (await reply.json()) as { msg: string; data: unknown };
    if (json.msg !== 'success') throw new Error(`${path}: ${JSON.stringify(json.data)}`);
    return json.data as T;
  };
}
