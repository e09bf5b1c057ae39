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

/**
 * Waits until no loop device holds the image. A stop unmounts the room's directory lazily when a process is still in
 * it (a busy machine, a browser slow to exit): until the last one lets go the image stays attached, read-write, and a
 * read-only mount of it fails ("already mounted or mount point busy").
 */
async function imageReleased(image: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { stdout } = await run('losetup', ['--associated', image]);
    if (stdout.trim() === '') return;
    if (Date.now() > deadline)
      throw new Error(`${image} is still attached after ${timeoutMs} ms: ${stdout.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A file of a stopped room's directory, read from its image (mounted read-only for the read). */
export async function readStoppedRoomFile(
  roomsDataDir: string,
  roomId: string,
  name: string,
): Promise<string> {
  const image = join(roomsDataDir, '.volumes', `${roomId}.img`);
  if (!existsSync(image)) return readFile(join(roomsDataDir, roomId, name), 'utf8');
  await imageReleased(image);
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
