// What a room leaves running, by process listing: the tests check that stopping a room, closing the server or
// killing it hard leaves none of its processes (Xvfb, pulseaudio, ffmpeg, Chromium and Chromium's children).
import { readdir, readFile } from 'node:fs/promises';

export interface TProcessInfo {
  pid: number;
  ppid: number;
  /** Linux state letter; Z is a zombie: exited, only waiting for its parent to read the status. */
  state: string;
  name: string;
}

export async function listProcesses(): Promise<TProcessInfo[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const found: TProcessInfo[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const raw = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
    if (!raw) continue;
    const close = raw.lastIndexOf(')');
    const fields = raw.slice(close + 2).split(' ');
    found.push({
      pid: Number(entry),
      ppid: Number(fields[1]),
      state: fields[0]!,
      name: raw.slice(raw.indexOf('(') + 1, close),
    });
  }
  return found;
}

/** The live (non-zombie) descendants of a process. */
export async function liveDescendants(root: number): Promise<TProcessInfo[]> {
  const all = await listProcesses();
  const result: TProcessInfo[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const child of all.filter((info) => info.ppid === parent)) {
      queue.push(child.pid);
      if (child.state !== 'Z') result.push(child);
    }
  }
  return result;
}

/** Which of these processes still run (zombies count as gone). */
export async function stillRunning(pids: readonly number[]): Promise<TProcessInfo[]> {
  const all = await listProcesses();
  return all.filter((info) => pids.includes(info.pid) && info.state !== 'Z');
}
