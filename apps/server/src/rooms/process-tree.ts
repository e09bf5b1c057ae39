// Linux /proc helpers: which process is a room's browser, its child processes, and what they cost. A room's
// Chromium is several processes (browser, zygote, renderers, GPU and network utilities), so per-room CPU and
// memory are sums over the tree rooted at the browser process.
import { readdir, readFile } from 'node:fs/promises';

async function pids(): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  return entries.filter((name) => /^\d+$/.test(name)).map(Number);
}

async function cmdline(pid: number): Promise<string[]> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return raw.split('\0').filter(Boolean);
}

/**
 * The Chromium browser process using this profile directory: the one process without a --type switch. Started
 * through the room sandbox, the wrapper that entered the namespaces carries the same arguments; the browser is
 * then the match whose parent is a match too.
 */
export async function findBrowserPid(profileDir: string): Promise<number | undefined> {
  const flag = `--user-data-dir=${profileDir}`;
  const matches: number[] = [];
  for (const pid of await pids()) {
    const args = await cmdline(pid);
    if (args.includes(flag) && !args.some((arg) => arg.startsWith('--type='))) matches.push(pid);
  }
  if (matches.length <= 1) return matches[0];
  for (const pid of matches) {
    const parent = (await stat(pid))?.ppid;
    if (parent !== undefined && matches.includes(parent)) return pid;
  }
  return matches[0];
}

/** Every live process whose command line names this profile directory (browser and children). */
export async function processesUsingProfile(profileDir: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await pids()) {
    if ((await cmdline(pid)).some((arg) => arg.includes(profileDir))) found.push(pid);
  }
  return found;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface TStat {
  /** R running, S sleeping, T stopped, Z zombie, … */
  state: string;
  ppid: number;
  /** utime + stime in clock ticks. */
  cpuTicks: number;
  /** When it started, in clock ticks since boot: with the pid, which process this is (pids are reused). */
  startTicks: number;
}

export async function stat(pid: number): Promise<TStat | undefined> {
  const raw = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!raw) return undefined;
  // The command name may contain spaces and parentheses; the fields after the last ')' are fixed.
  const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
  return {
    state: fields[0] ?? '',
    ppid: Number(fields[1]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    startTicks: Number(fields[19]),
  };
}

/** The process and all its descendants. */
export async function processTree(rootPid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const pid of await pids()) {
    const info = await stat(pid);
    if (!info) continue;
    children.set(info.ppid, [...(children.get(info.ppid) ?? []), pid]);
  }
  const tree: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export interface TTreeUsage {
  /** CPU time used so far, in seconds (user + system, all processes). */
  cpuSeconds: number;
  /** Proportional set size in bytes: shared pages are split between the processes that share them. */
  pssBytes: number;
}

// USER_HZ is 100 on every mainstream Linux build; /proc reports CPU time in these ticks.
const TICKS_PER_SECOND = 100;

export async function treeUsage(rootPid: number): Promise<TTreeUsage> {
  let ticks = 0;
  let pssBytes = 0;
  for (const pid of await processTree(rootPid)) {
    ticks += (await stat(pid))?.cpuTicks ?? 0;
    pssBytes += await pss(pid);
  }
  return { cpuSeconds: ticks / TICKS_PER_SECOND, pssBytes };
}

/** A process's proportional set size in bytes (0 once it is gone). */
async function pss(pid: number): Promise<number> {
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
}

/**
 * Each process of a tree with what it is and its PSS: Chromium's by their --type (renderer, gpu-process,
 * utility, zygote; the browser has none), the others by their command name (Xvfb, pulseaudio, ffmpeg).
 */
export async function treeMemory(
  rootPid: number,
): Promise<{ pid: number; kind: string; pssBytes: number }[]> {
  const found = [];
  for (const pid of await processTree(rootPid)) {
    // Chromium's child processes rewrite their command line as one space-separated string.
    const type = /--type=(\S+)/.exec((await cmdline(pid)).join(' '))?.[1];
    const name = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '?')).trim();
    const kind = type ?? (name.startsWith('chrom') ? 'browser' : name);
    found.push({ pid, kind, pssBytes: await pss(pid) });
  }
  return found;
}
