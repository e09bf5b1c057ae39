// A profile directory as a tar + gzip archive, by Debian's GNU tar and gzip in child processes: their work (tens of
// MB of SQLite and LevelDB files) stays off the event loop that streams the rooms' media, they run at a lower
// priority than the rooms, and both are on every machine that runs rooms (the agent image is Debian). A live
// profile is copied while the browser's processes are stopped (freezeProcesses), which gives exactly the files a
// crash at that instant would leave: SQLite and LevelDB are built to recover from that, as Chromium does after one.
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { processTree, stat } from '../process-tree';

/**
 * What is not worth keeping: caches Chromium rebuilds, crash reports, and the Singleton* links, which name this
 * machine and this browser process (restored elsewhere they would make Chromium think another machine holds the
 * profile). GNU tar matches each pattern against every path component.
 */
const EXCLUDED = [
  'Singleton*',
  'Cache',
  'Code Cache',
  'GPUCache',
  'GrShaderCache',
  'GraphiteDawnCache',
  'ShaderCache',
  'DawnCache',
  'DawnGraphiteCache',
  'DawnWebGPUCache',
  'component_crx_cache',
  'Crashpad',
  'BrowserMetrics*',
  '*.pma',
];

/** Below the rooms (0): archiving yields the CPU to the browsers and encoders. */
const NICENESS = 10;

/** The profile's files, uncompressed, into `tarPath` (quick: this is the part a live browser is held still for). */
export function tarProfile(dir: string, tarPath: string): Promise<void> {
  const args = ['--create', `--file=${tarPath}`, `--directory=${dir}`];
  for (const pattern of EXCLUDED) args.push(`--exclude=${pattern}`);
  // Exit status 1 says a file changed while it was read; the archive is still whole. With the browser stopped or
  // held still nothing should write there, but a late write must not cost the whole save.
  return run('tar', [...args, '.'], { okCodes: [0, 1] });
}

/** `tarPath` compressed into `gzPath`. */
export async function gzipFile(tarPath: string, gzPath: string): Promise<void> {
  // gzip writes the file itself: no byte of it passes through this process.
  const out = await open(gzPath, 'w');
  try {
    await run('gzip', ['--stdout', '--fast', tarPath], { stdoutFd: out.fd });
  } finally {
    await out.close();
  }
}

/**
 * The archive's files into `dir` (an empty directory), owned by whoever extracts (the room's sandbox gives them to
 * its user when the room starts), whatever user ids the saving machine had.
 */
export function extractProfile(gzPath: string, dir: string): Promise<void> {
  return run('tar', ['--extract', '--gzip', `--file=${gzPath}`, `--directory=${dir}`, '--no-same-owner']);
}

/** How long after a thaw a launcher may still stop itself over a stop of its child it saw while frozen. */
const LAUNCHER_SETTLE_MS = 2000;
/** The watch after each tree's last thaw, by the tree's root. */
const settling = new Map<number, AbortController>();

/**
 * Stops a process and all its descendants (a browser and its zygote, renderers and utilities) with SIGSTOP, until
 * none is left running; answers the function that lets them go on. A process that started in between is caught by
 * the next round: the stopped parents fork no more.
 */
export async function freezeProcesses(rootPid: number): Promise<() => void> {
  // A new freeze ends the watch after the last thaw of this tree, which would continue what it stops.
  settling.get(rootPid)?.abort();
  const stopped = new Set<number>();
  // A room's browser runs under nsenter, which mirrors its child's job control: when it finds its child stopped,
  // it stops itself until continued, which nobody did. The browser ran on, but nobody reaped it when it exited, so
  // every stop of a room after a checkpoint waited ~20 s (the browser's close timing out, then the sandbox's) and
  // left a stopped nsenter and a zombie behind. So the launcher above the root is watched after the thaw and
  // continued if it stopped itself; children are continued before their parents, so that a parent that looks after
  // the thaw finds its child running.
  const parent = (await stat(rootPid))?.ppid;
  const launcher = parent !== undefined && parent > 1 && parent !== process.pid ? [parent] : [];
  const thaw = () => {
    const order = [...stopped].reverse();
    for (const pid of order) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Gone meanwhile.
      }
    }
    const watch = new AbortController();
    settling.set(rootPid, watch);
    void keepRunning([...order, ...launcher], LAUNCHER_SETTLE_MS, watch.signal).finally(() => {
      if (settling.get(rootPid) === watch) settling.delete(rootPid);
    });
  };
  try {
    for (let round = 0; round < 10; round++) {
      const fresh = (await processTree(rootPid)).filter((pid) => !stopped.has(pid));
      if (fresh.length === 0) return thaw;
      for (const pid of fresh) {
        try {
          process.kill(pid, 'SIGSTOP');
          stopped.add(pid);
        } catch {
          // Ended before it could be stopped: nothing of it to wait for.
        }
      }
    }
    throw new Error(`the processes of ${rootPid} kept changing while being stopped`);
  } catch (error) {
    thaw();
    throw error;
  }
}

/** Continues any of these processes found stopped, for `ms`; each only while it is the same process. */
async function keepRunning(pids: number[], ms: number, signal: AbortSignal): Promise<void> {
  const started = new Map<number, number>();
  for (const pid of pids) {
    const info = await stat(pid);
    if (info) started.set(pid, info.startTicks);
  }
  const until = performance.now() + ms;
  while (started.size > 0 && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25).unref());
    for (const [pid, startTicks] of started) {
      const info = await stat(pid);
      if (signal.aborted) return;
      if (!info || info.startTicks !== startTicks) started.delete(pid);
      else if (info.state === 'T') process.kill(pid, 'SIGCONT');
    }
  }
}

function run(
  command: string,
  args: string[],
  options: { okCodes?: number[]; stdoutFd?: number } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', options.stdoutFd ?? 'ignore', 'pipe'] });
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, NICENESS);
      } catch {
        // Not allowed here: it runs at the server's priority.
      }
    }
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== null && (options.okCodes ?? [0]).includes(code)) resolve();
      else reject(new Error(`${command} ${args[0]} failed (${signal ?? code}): ${stderr.trim()}`));
    });
  });
}
