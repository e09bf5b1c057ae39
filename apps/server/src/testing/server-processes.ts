// Server processes as tests run them: `node dist/server.mjs`, as `npm start` runs it (the bundle this run's global
// set-up wrote from the sources, src/bundle.ts), with the test's environment, e.g. a ROOM_ROLE. Each leads its own
// process group (its "machine"), so killing the group takes everything it started, as a lost machine would.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
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
/** The processes of one install on loopback: one database, one data directory (a folder per process), one secret. */
export interface TInstall {
  databaseUrl: string;
  dataDir: string;
  secret: string;
}

/** One process of `install`, named `name` (its folder); `env` gives its role and the rest. */
export function startInstallProcess(
  install: TInstall,
  name: string,
  env: Record<string, string>,
  port?: number,
): Promise<TServerProcess> {
  return startServerProcess(
    name,
    {
      DATABASE_URL: install.databaseUrl,
      DATA_DIR: join(install.dataDir, name),
      APP_SECRET: install.secret,
      BILLING_JOBS: 'off',
      ...env,
    },
    port,
  );
}

/**
 * A fleet of one agent: a control plane whose address is the install's PUBLIC_URL, and an agent with one room slot
 * whose heartbeats go through it, as a fleet's do; `agentEnv` adds to the agent's (egress, media…). Gateways start
 * on the same PUBLIC_URL.
 */
export async function startOneAgentFleet(install: TInstall, agentEnv: Record<string, string> = {}) {
  const controlPort = await freePort();
  const publicUrl = `http://127.0.0.1:${controlPort}`;
  const control = await startInstallProcess(
    install,
    'control',
    { ROOM_ROLE: 'control', PUBLIC_URL: publicUrl },
    controlPort,
  );
  const agentPort = await freePort();
  const roomsDataDir = join(install.dataDir, 'agent', 'rooms');
  const agent = await startInstallProcess(
    install,
    'agent',
    {
      ROOM_ROLE: 'agent',
      AGENT_ADDRESS: `127.0.0.1:${agentPort}`,
      CONTROL_URL: publicUrl,
      ROOMS_DATA_DIR: roomsDataDir,
      ROOM_CAPACITY: '1',
      ROOM_WARM_POOL: '0',
      ...agentEnv,
    },
    agentPort,
  );
  return {
    control,
    agent,
    publicUrl,
    roomsDataDir,
    startGateway: (name = 'gateway') =>
      startInstallProcess(install, name, { ROOM_ROLE: 'gateway', PUBLIC_URL: publicUrl }),
  };
}

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
