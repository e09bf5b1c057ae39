// What tests need of keep-data rooms' volumes (rooms/profiles/room-volumes.ts) that the engine itself never does:
// reading a stopped room's directory, whose data is in its unmounted image, and clearing the mounts a server killed
// hard left behind before the test's data directory is deleted.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { mountPoints } from '../../rooms/profiles/room-volumes';

const run = promisify(execFile);

/** A file of a stopped room's directory, read from its image (mounted read-only for the read). */
export async function readStoppedRoomFile(
  roomsDataDir: string,
  roomId: string,
  name: string,
): Promise<string> {
  const image = join(roomsDataDir, '.volumes', `${roomId}.img`);
  if (!existsSync(image)) return readFile(join(roomsDataDir, roomId, name), 'utf8');
  const mountPoint = await mkdtemp(join(tmpdir(), 'rooms-volume-read-'));
  await run('mount', ['-o', 'loop,ro,noload', image, mountPoint]);
  try {
    return await readFile(join(mountPoint, name), 'utf8');
  } finally {
    await run('umount', [mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  }
}

/** Every filesystem mounted under `dir` unmounted, deepest first (rooms of a server killed hard stay mounted). */
export async function unmountUnder(dir: string): Promise<void> {
  const root = `${resolve(dir)}/`;
  const points = (await mountPoints())
    .filter((point) => point.startsWith(root))
    .sort((a, b) => b.length - a.length);
  for (const point of points) await run('umount', ['--lazy', point]).catch(() => {});
}
