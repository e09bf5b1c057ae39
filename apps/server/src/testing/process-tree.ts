// What a process started, read from /proc: to check that a killed agent leaves none of its rooms' processes behind
// (Chromium, the display, the encoders, the sandbox's namespace holder, wherever they were re-parented to).
import { readdir, readFile } from 'node:fs/promises';

/** A user's uid from /etc/passwd; undefined when there is no such user. */
export async function uidOf(user: string): Promise<number | undefined> {
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  const line = passwd.split('\n').find((entry) => entry.startsWith(`${user}:`));
  return line ? Number(line.split(':')[2]) : undefined;
}

export interface TProcessInfo {
  pid: number;
  ppid: number;
  /** The state letter of /proc/<pid>/stat: Z for a zombie (dead, not yet collected by its parent). */
  state: string;
  /**
   * Past its program's end, in the kernel's exit (PF_EXITING): a namespace's PID 1 waits there, its memory gone,
   * until every process of its namespace has been collected, by whichever init they were handed to.
   */
  exiting: boolean;
  uid: number;
  /** Its name (comm), which a zombie keeps. */
  name: string;
  command: string;
}

async function info(pid: number): Promise<TProcessInfo | null> {
  try {
    const [stat, status, cmdline] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8'),
      readFile(`/proc/${pid}/status`, 'utf8'),
      readFile(`/proc/${pid}/cmdline`, 'utf8'),
    ]);
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return {
      pid,
      ppid: Number(after[1]),
      state: after[0] ?? '?',
      // PF_EXITING, in the flags field (the ninth of the line).
      exiting: (Number(after[6]) & 0x4) !== 0,
      uid,
      name,
      command: cmdline.replaceAll('\0', ' ').trim() || `[${name}]`,
    };
  } catch {
    return null;
  }
}

/** Every process now running on the machine. */
export async function allProcesses(): Promise<TProcessInfo[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  return (await Promise.all(pids.map(info))).filter((found): found is TProcessInfo => found !== null);
}

/** The process and everything below it, as the tree stands now. */
export async function processTree(root: number): Promise<TProcessInfo[]> {
  const all = await allProcesses();
  const children = new Map<number, TProcessInfo[]>();
  for (const found of all) children.set(found.ppid, [...(children.get(found.ppid) ?? []), found]);
  const tree: TProcessInfo[] = [];
  const queue = all.filter((found) => found.pid === root);
  while (queue.length > 0) {
    const next = queue.shift() as TProcessInfo;
    tree.push(next);
    queue.push(...(children.get(next.pid) ?? []));
  }
  return tree;
}

/** Of these processes, the ones that still exist, zombies included (the caller tells them apart by `state`). */
export async function stillThere(processes: readonly TProcessInfo[]): Promise<TProcessInfo[]> {
  const now = await Promise.all(processes.map((process) => info(process.pid)));
  // A PID taken again by something else (another command) is not the same process.
  return now.filter(
    (found, index): found is TProcessInfo => found !== null && found.name === processes[index]?.name,
  );
}
