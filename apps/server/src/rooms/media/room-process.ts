// A helper process of a running room (Xvfb, pulseaudio, ffmpeg) whose lifetime is bound to the room and to this
// server. Two mechanisms, for two ways of ending:
// - stop(): the process runs in its own process group (detached), so SIGTERM, then SIGKILL, reaches it and
//   anything it started (Xvfb runs xkbcomp), without touching the server's own group.
// - the server killed hard (SIGKILL, OOM): nothing in Node runs any more, so the kernel does it. Each helper is
//   started through `setpriv --pdeathsig KILL`, which sets PR_SET_PDEATHSIG before exec: the helper gets SIGKILL
//   the moment the server's thread that spawned it dies. No pid files, so no stale pid can ever be killed by
//   mistake. Chromium is not started here (Playwright does it): it exits when its CDP pipe closes, and in any
//   case when its X display goes away, which is one of these helpers.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { isAlive } from '../process-tree';
import type { RoomProcessLauncher } from '../sandbox/room-sandbox';

export interface TRoomProcessOptions {
  /** The process's own variables, on top of the room's allow-listed environment. */
  env?: Record<string, string>;
  /** stdin, stdout, stderr and any extra descriptors; stdout is a pipe unless said otherwise. */
  stdio?: SpawnOptions['stdio'];
  /** Time between SIGTERM and SIGKILL on stop. */
  killAfterMs?: number;
}

/** The wrapper that ties a child to this process's life (util-linux, present on every Debian system). */
export const PDEATHSIG_WRAPPER = ['setpriv', '--pdeathsig', 'KILL', '--'];
/**
 * The helpers are the real-time part of a room and use little CPU (a few % each): a grab that runs late is a
 * dropped frame, a late read of the sink a gap in the sound. Slightly ahead of the browsers in the scheduler,
 * 4 rooms at 720p30 on 2 cores hold 30 fps instead of 29 (measured). Without the privilege to raise priority
 * (not root), nice says so on stderr and runs the helper as it is.
 */
const PRIORITY_WRAPPER = ['nice', '-n', '-5'];

export class RoomProcess {
  /** Settles with the exit code (null after a signal) when the process has ended. */
  readonly exited: Promise<number | null>;
  private ended = false;

  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
    private readonly killAfterMs: number,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => {
        this.ended = true;
        resolve(code);
      });
      child.once('error', () => {
        this.ended = true;
        resolve(null);
      });
    });
  }

  /** Starts `command` in the room's sandbox (priority is raised before the sandbox drops privileges). */
  static spawn(
    launcher: RoomProcessLauncher,
    command: string,
    args: string[],
    options: TRoomProcessOptions = {},
  ): RoomProcess {
    const [wrapper, ...wrapperArgs] = PDEATHSIG_WRAPPER;
    const sandboxed = launcher.command(command, args);
    const child = spawn(wrapper!, [...wrapperArgs, ...PRIORITY_WRAPPER, sandboxed.file, ...sandboxed.args], {
      env: launcher.environment(options.env),
      stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    return new RoomProcess(command, child, options.killAfterMs ?? 2000);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return !this.ended;
  }

  /** Ends the process and its group; resolves once it is gone. */
  async stop(): Promise<void> {
    const pid = this.child.pid;
    if (this.ended || pid === undefined) return;
    signalGroup(pid, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        signalGroup(pid, 'SIGKILL');
        resolve();
      }, this.killAfterMs);
    });
    await Promise.race([this.exited, killed]);
    clearTimeout(timer);
    await this.exited;
    // The leader is gone; a member of its group that ignored SIGTERM is not left behind.
    if (isAlive(-pid)) signalGroup(pid, 'SIGKILL');
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
