// The sandbox one running room lives in. With namespaces (see sandbox-support.ts), every process of the room
// (Chromium, Xvfb, pulseaudio, the encoders) runs as the unprivileged room user, with no capabilities and an
// allow-listed environment, in a network namespace whose only way out is the egress proxy's unix socket, a mount
// namespace whose root is the room's own (the system's programs read-only, a few /etc files, its own /tmp, /run and
// /dev; none of the host's other files, and of the server's only the room's own directories), its own PID, IPC and
// UTS namespaces (the host name "room"), and the room's cgroups. Stopping the sandbox ends every process in it.
// Unconfined (a machine that cannot do this), the same interface starts processes directly, still with the
// allow-listed environment; the start-up message says what is missing.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { roomBaseEnvironment, SERVER_ROOT } from '../../env';
import { roomBrowserPolicyJson } from '../engine/room-browser-policy';
import { RoomCgroups, type TRoomLimits } from './cgroups';
import type { TSandboxSupport } from './sandbox-support';

const SCRIPTS_DIR = join(SERVER_ROOT, 'src/rooms/sandbox');
const SANDBOX_SCRIPT = join(SCRIPTS_DIR, 'room-sandbox.sh');
const EXEC_SCRIPT = join(SCRIPTS_DIR, 'room-sandbox-exec.sh');
/** The egress forwarder inside the namespace (room-sandbox.sh). */
const SANDBOX_PROXY = 'http://127.0.0.1:3128';
/** Inside the namespace: the room user's home, on the room's private /tmp. */
const SANDBOX_HOME = '/tmp/home';
/** The system PATH: the server's own (node_modules/.bin and the like) is none of the room's business. */
const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';
const START_TIMEOUT_MS = 10_000;
const chown = promisify(execFile);

export interface TRoomSandboxOptions {
  roomId: string;
  support: TSandboxSupport;
  /** The room's own directories (profile, sound socket): owned by the room user, visible inside. */
  keep: string[];
  /**
   * The room's own directories that live in its memory instead (a fresh profile): inside, each is a copy of
   * what the server put there on a tmpfs of `limits.scratchMb`, so a page's storage is bounded and never reaches
   * the host's disk; the server's directory stays as it was. Unconfined, they are plain directories.
   */
  scratch: string[];
  /** The server's directories that must not show inside (data, code); the room's own are put back. */
  hide: string[];
  /** The egress proxy: its unix socket (namespaces) and its loopback URL (unconfined). */
  egress: { url: string; socketPath?: string };
  limits: TRoomLimits & { openFiles: number; tmpMb: number; scratchMb: number };
}

/** How a process of a room is started: inside the room's sandbox, with the room's environment. */
export interface RoomProcessLauncher {
  /** The file and arguments that run `program args` in the sandbox. */
  command(program: string, args: string[]): { file: string; args: string[] };
  /** The whole environment of a room process: the allow-listed base and `extra`, nothing of the server's. */
  environment(extra?: Record<string, string>): NodeJS.ProcessEnv;
}

export class RoomSandbox implements RoomProcessLauncher {
  private constructor(
    /** For Chromium's --proxy-server. */
    readonly proxyServer: string,
    /** Whether Chromium's own sandbox can be on. */
    readonly chromiumSandbox: boolean,
    private readonly base: NodeJS.ProcessEnv,
    /** What the exec script needs (namespaces only). */
    private readonly entry: { pid: number; user: string; cgroups: string } | undefined,
    private readonly holder: ChildProcess | undefined,
    private readonly cgroups: RoomCgroups | undefined,
  ) {}

  static async open(options: TRoomSandboxOptions): Promise<RoomSandbox> {
    const { support } = options;
    if (support.kind === 'unconfined') {
      return new RoomSandbox(
        options.egress.url,
        support.chromiumSandbox,
        roomBaseEnvironment(),
        undefined,
        undefined,
        undefined,
      );
    }
    if (!options.egress.socketPath)
      throw new Error('a sandboxed room needs the egress proxy on a unix socket');
    await Promise.all(
      [...options.keep, ...options.scratch].map((dir) =>
        chown('chown', ['-R', `${support.uid}:${support.gid}`, dir]),
      ),
    );
    const cgroups = await RoomCgroups.create(
      support.cgroups,
      `room-${options.roomId}-${process.pid}`,
      options.limits,
    );
    try {
      // No parent-death signal: the namespace's PID 1 ends when the pipe on its stdin closes (this process ends),
      // and unshare, left alive, collects it and ends too.
      const holder = spawn('/bin/sh', [SANDBOX_SCRIPT, 'outer'], {
        env: {
          PATH: SANDBOX_PATH,
          ROOM_SANDBOX_USER: support.user,
          ROOM_SANDBOX_CGROUPS: cgroups.dirs.join('\n'),
          ROOM_SANDBOX_NOFILE: String(options.limits.openFiles),
          ROOM_SANDBOX_TMP_MB: String(options.limits.tmpMb),
          // Parents first: a child of a covered directory is put back by KEEP, never covered again.
          ROOM_SANDBOX_HIDE: [...new Set(options.hide)].sort((a, b) => a.length - b.length).join('\n'),
          ROOM_SANDBOX_KEEP: options.keep.join('\n'),
          ROOM_SANDBOX_SCRATCH: options.scratch.join('\n'),
          ROOM_SANDBOX_SCRATCH_MB: String(options.limits.scratchMb),
          ROOM_SANDBOX_EGRESS: options.egress.socketPath,
          ROOM_SANDBOX_POLICY: roomBrowserPolicyJson(),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      // Never written: only its end matters.
      holder.stdin?.on('error', () => {});
      const pid = await waitUntilReady(holder);
      return new RoomSandbox(
        SANDBOX_PROXY,
        support.chromiumSandbox,
        { PATH: SANDBOX_PATH, HOME: SANDBOX_HOME, LANG: 'C.UTF-8' },
        { pid, user: support.user, cgroups: cgroups.dirs.join('\n') },
        holder,
        cgroups,
      );
    } catch (error) {
      await cgroups.remove();
      throw error;
    }
  }

  command(program: string, args: string[]): { file: string; args: string[] } {
    return this.entry ? { file: EXEC_SCRIPT, args: [program, ...args] } : { file: program, args };
  }

  environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const entry = this.entry
      ? {
          ROOM_SANDBOX_PID: String(this.entry.pid),
          ROOM_SANDBOX_USER: this.entry.user,
          ROOM_SANDBOX_CGROUPS: this.entry.cgroups,
        }
      : {};
    return { ...this.base, ...extra, ...entry };
  }

  /** What Playwright starts for the room's Chromium: an executable path, and its whole environment. */
  chromium(
    chromiumPath: string,
    extra: Record<string, string> = {},
  ): { executablePath: string; env: NodeJS.ProcessEnv } {
    if (!this.entry) return { executablePath: chromiumPath, env: this.environment(extra) };
    return {
      executablePath: EXEC_SCRIPT,
      env: { ...this.environment(extra), ROOM_SANDBOX_EXEC: chromiumPath },
    };
  }

  /** The namespace's PID 1 as the server sees it; undefined unconfined. */
  get rootPid(): number | undefined {
    return this.entry?.pid;
  }

  /** The room's cgroup directories, which hold every process of the room (empty without cgroups). */
  get cgroupDirs(): string[] {
    return this.entry?.cgroups ? this.entry.cgroups.split('\n') : [];
  }

  /** Ends every process of the room (the namespace's PID 1 takes them with it) and removes its cgroups. */
  async close(): Promise<void> {
    const holder = this.holder;
    if (holder && holder.exitCode === null && holder.signalCode === null) {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
    }
    // The namespace's PID 1 would die by its parent-death signal once the chain above it has unwound (well over
    // a second); killed directly, the kernel ends every process of the namespace with it at once. It is gone only
    // once all of them are: when it is, so is the whole room.
    const root = this.entry?.pid;
    if (root !== undefined) {
      try {
        process.kill(root, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    for (let waited = 0; root !== undefined && waited < 5000 && (await running(root)); waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await this.cgroups?.remove();
  }
}

/** Whether the process exists and is not a zombie waiting for its parent. */
async function running(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** Resolves with the namespace's PID 1 (as the server sees it) once room-sandbox.sh says "ready". */
function waitUntilReady(holder: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => fail(new Error('timed out')), START_TIMEOUT_MS);
    holder.stderr?.on('data', (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-2000);
    });
    const onData = (data: Buffer) => {
      stdout += data.toString();
      if (stdout.includes('ready\n')) void found();
    };
    const onExit = () => fail(new Error('exited'));
    holder.stdout?.on('data', onData);
    holder.once('exit', onExit);

    async function found() {
      cleanup();
      // The holder is unshare; its only child is the namespace's PID 1.
      const children = await readFile(`/proc/${holder.pid}/task/${holder.pid}/children`, 'utf8').catch(
        () => '',
      );
      const pid = Number(children.trim().split(/\s+/)[0]);
      if (Number.isInteger(pid) && pid > 0) resolve(pid);
      else fail(new Error('no namespace process'));
    }
    function cleanup() {
      clearTimeout(timer);
      holder.stdout?.off('data', onData);
      holder.off('exit', onExit);
    }
    function fail(error: Error) {
      cleanup();
      holder.kill('SIGKILL');
      reject(new Error(`the room sandbox did not start: ${error.message} ${stderr.trim()}`.trim()));
    }
  });
}
