// A keep-data room's directory (`<roomsDataDir>/<roomId>`, its kept profile inside) on a filesystem of its own: an
// ext4 image of a fixed size, sparse, in `<roomsDataDir>/.volumes/<roomId>.img`, loop-mounted on the directory
// from the room's start until its profile is saved at the stop. What a page stores there (IndexedDB, caches,
// service workers) can fill the image, never the host's disk, where Chromium offers a page a share of the volume
// the whole server, its database included, lives on. Chromium sizes its quota and cache from the image too.
//
// Mounting needs root and loop devices, as the namespaced sandbox does; where they are missing the directory stays
// on the host's disk, and the engine says so once. A mount outlives a server killed hard (the kernel keeps it): the
// next start finds it and goes on with it. A profile kept before volumes existed is copied into its new image once.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TRoomLogger } from '../room-logger';

const run = promisify(execFile);

export class RoomVolumes {
  /** Why volumes cannot be made on this machine, once a mount has failed for a reason of the machine's. */
  private unavailable: string | undefined;

  constructor(
    private readonly roomsDataDir: string,
    private readonly sizeMb: number,
    private readonly logger: TRoomLogger,
  ) {}

  /** The room's directory, on its own volume; false when it stays on the host's disk (the reason is logged). */
  async mount(roomId: string): Promise<boolean> {
    if (this.unavailable) return false;
    const dir = this.dir(roomId);
    if (await isMountPoint(dir)) return true;
    const image = this.image(roomId);
    try {
      await mkdir(dir, { recursive: true });
      if (!existsSync(image)) await this.create(roomId);
      await mountImage(image, dir);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/loop|superuser|permission|not permitted|ENOENT|not found/i.test(message)) {
        this.unavailable = message;
        this.logger.warn(
          { err: error },
          'kept room profiles stay on the host disk, unbounded: their volumes cannot be mounted here (root, loop devices and mkfs.ext4 are needed)',
        );
      } else {
        this.logger.error(
          { err: error, roomId },
          'the room’s volume was not mounted: its profile stays on the host disk',
        );
      }
      return false;
    }
  }

  /** The room's directory back on the host's disk, empty (its data stays in the image). */
  async unmount(roomId: string): Promise<void> {
    const dir = this.dir(roomId);
    if (!(await isMountPoint(dir))) return;
    // Lazy when busy: a process still in the directory (a save's archive tool) keeps it until it lets go.
    await run('umount', [dir]).catch(() => run('umount', ['--lazy', dir]));
  }

  /** The room's volume gone with its data (the room is deleted). */
  async remove(roomId: string): Promise<void> {
    await this.unmount(roomId);
    await rm(this.image(roomId), { force: true });
  }

  private dir(roomId: string): string {
    return resolve(this.roomsDataDir, roomId);
  }

  private image(roomId: string): string {
    return join(resolve(this.roomsDataDir), '.volumes', `${roomId}.img`);
  }

  /**
   * A new image; what the directory already holds (kept before volumes existed) is copied in, and only then
   * cleared from the host's disk. An image made with nothing in it yet is never half a copy.
   */
  private async create(roomId: string): Promise<void> {
    const dir = this.dir(roomId);
    const image = this.image(roomId);
    const building = `${image}.new`;
    await mkdir(join(resolve(this.roomsDataDir), '.volumes'), { recursive: true, mode: 0o700 });
    await rm(building, { force: true });
    const file = await open(building, 'w', 0o600);
    await file.truncate(this.sizeMb * 1024 * 1024).finally(() => file.close());
    // No reserved blocks (the room is the only user); a small journal; nothing written ahead (the file stays sparse).
    await run('mkfs.ext4', [
      '-q',
      '-F',
      '-m',
      '0',
      '-J',
      'size=16',
      '-E',
      'nodiscard,lazy_itable_init=1,lazy_journal_init=1',
      building,
    ]);
    const kept = (await readdir(dir)).length > 0;
    if (kept) {
      const staging = `${image}.mnt`;
      await mkdir(staging, { recursive: true });
      await mountImage(building, staging);
      try {
        await run('cp', ['-a', `${dir}/.`, `${staging}/`]);
      } finally {
        await run('umount', [staging]);
        await rm(staging, { recursive: true, force: true });
      }
    }
    await rename(building, image);
    if (kept) {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir);
    }
  }
}

/** nosuid, nodev, noexec: a profile holds data, never programs; discard gives deleted data's space back to the host. */
async function mountImage(image: string, dir: string): Promise<void> {
  await run('mount', ['-o', 'loop,nosuid,nodev,noexec,discard', image, dir]);
}

/** Where filesystems are mounted, as this process's mount table says (a path mounted on twice appears twice). */
export async function mountPoints(): Promise<string[]> {
  const table = await readFile('/proc/self/mountinfo', 'utf8');
  return table
    .split('\n')
    .filter(Boolean)
    .map((line) => unescapeMountPath(line.split(' ')[4] ?? ''));
}

/** Whether `dir` is where a filesystem is mounted. */
export async function isMountPoint(dir: string): Promise<boolean> {
  return (await mountPoints()).includes(resolve(dir));
}

/** Mount tables write a space, tab, newline and backslash in a path as octal escapes. */
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}
