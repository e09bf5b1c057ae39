// The real server in a process of its own, for benchmarks that measure the server itself (its memory, heap,
// handles): `node apps/server/dist/server.mjs` as `npm start` runs it (`npm run build` writes the bundle), on an
// embedded PostgreSQL of the bench's, with the test pages and an owner signed in as bench-server.ts has them. Its
// inspector listens on loopback, so the bench collects the server's garbage, reads its own memory figures and takes
// its heap snapshots; the bench's participants, with every picture they receive, stay out of the figures.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, initOrm, startEmbeddedPostgres } from '@rooms/db';
import { startTestPages } from '../apps/server/src/testing/rooms/test-pages';
import { callerOf, signInOwner, type TBenchServer } from './bench-server';
import { openInspector, type TInspector } from './inspector-client';

export const SERVER_BUNDLE = fileURLToPath(new URL('../apps/server/dist/server.mjs', import.meta.url));

export interface TBenchServerProcess extends Omit<TBenchServer, 'app'> {
  pid: number;
  /** The server's own inspector: evaluate in it, collect its garbage, write its heap snapshots. */
  inspector: TInspector;
}

export async function startBenchServerProcess(options: {
  name: string;
  postgresPort: number;
  env?: Record<string, string>;
}): Promise<TBenchServerProcess> {
  if (!existsSync(SERVER_BUNDLE)) throw new Error(`no ${SERVER_BUNDLE}: run npm run build first`);
  const dir = await mkdtemp(join(tmpdir(), `rooms-${options.name}-`));
  await chmod(dir, 0o755);
  const roomsDir = join(dir, 'rooms');
  const pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: options.postgresPort,
    postgresFlags: ['-c', 'fsync=off'],
  });
  const pages = await startTestPages();
  const port = await freePort();
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', SERVER_BUNDLE], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: pg.url,
      APP_SECRET: 's'.repeat(40),
      // BENCH_LOG_LEVEL=warn (or info, debug) shows the server's log while a bench runs.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      SMTP_URL: 'smtp://127.0.0.1:9',
      ROOMS_DATA_DIR: roomsDir,
      ROOM_EGRESS_ALLOW: pages.hostPort,
      BILLING_JOBS: 'off',
      ROOM_WARM_POOL: '0',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await pages.close();
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const inspectorUrl = await inspectorUrlOf(child);
    await untilServing(child, port);
    const orm = await initOrm({ clientUrl: pg.url, logger: () => {} });
    const token = await signInOwner(orm.em.fork(), options.name).finally(() => orm.close());
    const inspector = await openInspector(inspectorUrl);
    return {
      pid: child.pid ?? 0,
      port,
      pages,
      roomsDir,
      token,
      call: callerOf(port, token),
      inspector,
      async close() {
        inspector.close();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Node says where its inspector listens on stderr; the rest of stderr goes on to the bench's. */
function inspectorUrlOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let found = false;
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      const url = /Debugger listening on (ws:\/\/\S+)/.exec(text)?.[1];
      if (url && !found) {
        found = true;
        resolve(url);
      }
      for (const line of text.split('\n')) {
        if (line.trim() && !/^Debugger |For help, see|Waiting for the debugger/.test(line))
          process.stderr.write(`${line}\n`);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`the server exited (${code}) before its inspector listened`)),
    );
  });
}

async function untilServing(child: ChildProcess, port: number): Promise<void> {
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    if (tries > 240) throw new Error('the server did not come up in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
