// Per-room resource limits as cgroups: a memory ceiling (a room over it is killed by the kernel, alone) and a
// ceiling on processes and threads (a fork bomb stops at it). Each room gets its own group under the server's own
// group, so whatever limits the operator put on the server still hold above the rooms'. cgroup v1 (one hierarchy
// per controller) and v2 (one unified hierarchy) are both found from /proc/self/cgroup.
import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface TRoomLimits {
  memoryMb: number;
  /** Processes and threads together (Chromium runs dozens of threads per process). */
  pids: number;
}

export type TCgroupLayout =
  | { version: 1; memory: string; pids: string }
  | { version: 2; parent: string }
  | { version: 'none'; reason: string };

const ROOT = '/sys/fs/cgroup';

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The server's own group per controller ("memory" → "/some/path"; "" for the unified v2 hierarchy). */
async function ownGroups(): Promise<Map<string, string>> {
  const groups = new Map<string, string>();
  const text = await readFile('/proc/self/cgroup', 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    const [, controllers, path] = line.split(':');
    if (path === undefined || controllers === undefined) continue;
    for (const controller of controllers.split(',')) groups.set(controller, path);
  }
  return groups;
}

/** Where room groups can be made on this machine, tried by making (and removing) one. */
export async function detectCgroups(): Promise<TCgroupLayout> {
  const groups = await ownGroups();
  const memory = groups.get('memory');
  const pids = groups.get('pids');
  if (memory !== undefined && pids !== undefined) {
    const layout = {
      version: 1 as const,
      memory: join(ROOT, 'memory', memory),
      pids: join(ROOT, 'pids', pids),
    };
    const probe = await tryGroup([join(layout.memory, 'rooms-probe'), join(layout.pids, 'rooms-probe')]);
    return probe ?? layout;
  }
  const unified = groups.get('');
  if (unified !== undefined && (await exists(join(ROOT, 'cgroup.controllers')))) {
    const parent = join(ROOT, unified);
    // v2 lets a group hand controllers to children only while it holds no process itself, so rooms can have
    // limits only when the server runs in a delegated group made for that (systemd Delegate=yes, a container).
    try {
      await writeFile(join(parent, 'cgroup.subtree_control'), '+memory +pids');
    } catch (error) {
      return {
        version: 'none',
        reason: `cannot enable the memory and pids controllers below ${parent} (${(error as Error).message}); run the server in a delegated cgroup`,
      };
    }
    const probe = await tryGroup([join(parent, 'rooms-probe')]);
    return probe ?? { version: 2, parent };
  }
  return { version: 'none', reason: 'no memory and pids cgroup controllers' };
}

async function tryGroup(dirs: string[]): Promise<TCgroupLayout | undefined> {
  try {
    for (const dir of dirs) await mkdir(dir, { recursive: true });
    return undefined;
  } catch (error) {
    return { version: 'none', reason: `cannot create cgroups (${(error as Error).message})` };
  } finally {
    for (const dir of dirs) await rmdir(dir).catch(() => {});
  }
}

/** One room's groups: the directories its first process joins, and their removal once the room is gone. */
export class RoomCgroups {
  private constructor(readonly dirs: string[]) {}

  static async create(layout: TCgroupLayout, name: string, limits: TRoomLimits): Promise<RoomCgroups> {
    if (layout.version === 'none') return new RoomCgroups([]);
    const bytes = String(limits.memoryMb * 1024 * 1024);
    if (layout.version === 1) {
      const memory = join(layout.memory, name);
      const pids = join(layout.pids, name);
      await Promise.all([mkdir(memory, { recursive: true }), mkdir(pids, { recursive: true })]);
      await writeFile(join(memory, 'memory.limit_in_bytes'), bytes);
      // Swap counted in, where the kernel accounts it, so a room cannot swap its way past the ceiling.
      await writeFile(join(memory, 'memory.memsw.limit_in_bytes'), bytes).catch(() => {});
      await writeFile(join(pids, 'pids.max'), String(limits.pids));
      return new RoomCgroups([memory, pids]);
    }
    const dir = join(layout.parent, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'memory.max'), bytes);
    await writeFile(join(dir, 'memory.swap.max'), '0').catch(() => {});
    // The whole room goes when one of its processes is killed for memory: a half-killed browser helps nobody.
    await writeFile(join(dir, 'memory.oom.group'), '1').catch(() => {});
    await writeFile(join(dir, 'pids.max'), String(limits.pids));
    return new RoomCgroups([dir]);
  }

  /** Removes the groups once their processes are gone (the kernel refuses to remove a group in use). */
  async remove(): Promise<void> {
    for (const dir of this.dirs) {
      for (let tries = 0; tries < 50; tries++) {
        const removed = await rmdir(dir).then(
          () => true,
          (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
        );
        if (removed) break;
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    }
  }
}
