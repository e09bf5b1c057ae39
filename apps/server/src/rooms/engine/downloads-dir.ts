// Each run's own downloads directory, under the rooms' data directory (hidden from the room but for its own, which
// the sandbox puts back). It goes with the run; a file waiting for its controller goes with it.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories left by a server that was killed hard belong to no running room: cleared once per data directory. */
const swept = new Map<string, Promise<void>>();

export async function makeDownloadsDir(roomsDataDir: string): Promise<string> {
  const root = join(roomsDataDir, '.downloads');
  let sweep = swept.get(root);
  if (!sweep) {
    sweep = rm(root, { recursive: true, force: true });
    swept.set(root, sweep);
  }
  await sweep;
  await mkdir(root, { recursive: true, mode: 0o700 });
  return mkdtemp(join(root, 'd-'));
}

export async function removeDownloadsDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true }).catch(() => {});
}
