/**
 * The embedded PostgreSQL's processes as the machine shows them: which postmaster runs a data directory, which
 * process started it (the owner file beside `postmaster.pid`), and every cluster of this kind running on the
 * machine. Read-only: deciding what to do about them is the launcher's (and the CLI's) business.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Beside postmaster.pid: the PID of the process that started the postmaster. */
export const ownerFileName = 'embedded-owner.pid';

export interface TOwnedPostmaster {
  /** The cluster's directory (absolute). */
  dataDir: string;
  /** The postmaster's PID. */
  pid: number;
  /** Its TCP port on 127.0.0.1, from `postmaster.pid`. */
  port: number;
  /** The live process that started it (and is its parent). */
  ownerPid: number;
  /** The owner's command line, for telling an operator which process that is. */
  ownerCommand: string;
}

/**
 * The postmaster running `dataDir` for a live process that started it, or undefined (no `postmaster.pid`, a
 * stale one, or a postmaster whose starter is gone).
 */
export function ownedPostmasterOf(dataDir: string): TOwnedPostmaster | undefined {
  const dir = path.resolve(dataDir);
  const lines = readText(path.join(dir, 'postmaster.pid'))?.split('\n');
  const pid = Number.parseInt(lines?.[0] ?? '', 10);
  if (!(pid > 0) || !isPostmasterOf(pid, dir)) return undefined;
  const ownerPid = Number.parseInt(readText(path.join(dir, ownerFileName)) ?? '', 10);
  if (!(ownerPid > 0) || !isAlive(ownerPid) || parentPid(pid) !== ownerPid) return undefined;
  return {
    dataDir: dir,
    pid,
    port: Number.parseInt(lines?.[3] ?? '', 10),
    ownerPid,
    ownerCommand: (processArgs(ownerPid) ?? []).join(' '),
  };
}

/** Every embedded cluster running on this machine for a live owner (Linux: from /proc; elsewhere none). */
export function ownedPostmasters(): TOwnedPostmaster[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: TOwnedPostmaster[] = [];
  for (const pid of pids) {
    const args = processArgs(Number(pid));
    if (!args || path.basename(args[0] ?? '') !== 'postgres') continue;
    const dir = args[args.indexOf('-D') + 1];
    if (!args.includes('-D') || !dir) continue;
    const owned = ownedPostmasterOf(dir);
    if (owned?.pid === Number(pid)) found.push(owned);
  }
  return found;
}

export function isPostmasterOf(pid: number, dataDir: string): boolean {
  if (!isAlive(pid)) return false;
  const args = processArgs(pid);
  if (!args || path.basename(args[0] ?? '') !== 'postgres') return false;
  const dirIndex = args.indexOf('-D');
  const dir = dirIndex >= 0 ? args[dirIndex + 1] : undefined;
  return dir !== undefined && path.resolve(dir) === path.resolve(dataDir);
}

/** Alive and not a zombie (an orphan whose new parent has not reaped it yet counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return procStat(pid)?.state !== 'Z';
}

export function parentPid(pid: number): number | undefined {
  const fromProc = procStat(pid)?.ppid;
  if (fromProc !== undefined) return fromProc;
  const fromPs = Number.parseInt(run('ps', ['-o', 'ppid=', '-p', String(pid)]) ?? '', 10);
  return Number.isNaN(fromPs) ? undefined : fromPs;
}

/** Linux only; undefined elsewhere (or when the process is gone). */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    // "pid (comm) state ppid ...", where comm may itself contain spaces and parentheses.
    const afterComm = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop() ?? '';
    const [state = '', ppid = ''] = afterComm.split(' ');
    return { state, ppid: Number.parseInt(ppid, 10) };
  } catch {
    return undefined;
  }
}

function processArgs(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    // No procfs (macOS): ps prints the command line space-separated, good enough for our own paths.
    return run('ps', ['-o', 'args=', '-p', String(pid)])
      ?.trim()
      .split(/\s+/);
  }
}

export function run(command: string, args: string[]): string | undefined {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
