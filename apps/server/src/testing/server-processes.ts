// Server processes as tests run them: `node dist/server.mjs`, as `npm start` runs it (the bundle this run's global
// set-up wrote from the sources, src/bundle.ts), with the test's environment, e.g. a ROOM_ROLE. Each leads its own
// process group (its "machine"), so killing the group takes everything it started, as a lost machine would.
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '@rooms/db';
import { SERVER_BUNDLE } from '../bundle';
import { SERVER_ROOT } from '../env';
import { TEST_CAPTCHA_MAX_NUMBER } from './test-captcha';

export interface TServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  exited: Promise<number | null>;
  /** kill -9 of the process group: the machine is gone. */
  kill(): void;
  /** The end of what it logged (for a failing test's output). */
  log(): string;
}

const running = new Set<ChildProcess>();

/** Starts one process of the install on loopback and resolves once it serves. */
export async function startServerProcess(
  name: string,
  env: Record<string, string>,
  port?: number,
): Promise<TServerProcess> {
  const listen = port ?? (await freePort());
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
    cwd: SERVER_ROOT,
    detached: true,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(listen),
      LOG_LEVEL: 'info',
      CAPTCHA_MAX_NUMBER: TEST_CAPTCHA_MAX_NUMBER,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start:\n${output.slice(-3000)}`)),
      90_000,
    );
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (output.includes('cloud-browser rooms is serving')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${output.slice(-3000)}`));
    });
  });
  return {
    child,
    port: listen,
    url: `http://127.0.0.1:${listen}`,
    exited,
    kill: () => killGroup(child),
    log: () => output.slice(-4000),
  };
}

/** Every process group these tests started, gone (afterAll). */
export function killServerProcesses(): void {
  for (const child of running) killGroup(child);
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
