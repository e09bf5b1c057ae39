// The archive of a profile directory (Debian's tar and gzip) and the freeze a live profile is copied under.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTree } from '../process-tree';
import { extractProfile, freezeProcesses, gzipFile, tarProfile } from './profile-archive';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rooms-archive-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The process's state letter from /proc: T when stopped. */
async function stateOf(pid: number): Promise<string> {
  const raw = await readFile(`/proc/${pid}/stat`, 'utf8');
  return raw.slice(raw.lastIndexOf(')') + 2).split(' ')[0] ?? '';
}

describe('profile archives', () => {
  it('carry the profile’s data to another directory, without caches or the links that name this machine', async () => {
    const profile = join(dir, 'profile');
    await mkdir(join(profile, 'Default', 'Local Storage', 'leveldb'), { recursive: true });
    await mkdir(join(profile, 'Default', 'Cache', 'Cache_Data'), { recursive: true });
    await writeFile(join(profile, 'Default', 'Local Storage', 'leveldb', '000003.log'), 'room=kept');
    await writeFile(join(profile, 'Default', 'Cookies'), 'sqlite');
    await writeFile(join(profile, 'Default', 'Cache', 'Cache_Data', 'data_0'), 'cached');
    await symlink('some-host-1234', join(profile, 'SingletonLock'));

    await tarProfile(profile, join(dir, 'a.tar'));
    await gzipFile(join(dir, 'a.tar'), join(dir, 'a.tar.gz'));
    const restored = join(dir, 'restored');
    await mkdir(restored);
    await extractProfile(join(dir, 'a.tar.gz'), restored);

    expect(await readFile(join(restored, 'Default', 'Local Storage', 'leveldb', '000003.log'), 'utf8')).toBe(
      'room=kept',
    );
    expect(await readFile(join(restored, 'Default', 'Cookies'), 'utf8')).toBe('sqlite');
    expect((await readdir(restored)).sort()).toEqual(['Default']);
    expect((await readdir(join(restored, 'Default'))).sort()).toEqual(['Cookies', 'Local Storage']);
  });

  it('hold a process tree still while a copy is taken, and let it go on after', async () => {
    const parent = spawn('sh', ['-c', 'sleep 30 & sleep 30 & wait'], { stdio: 'ignore' });
    let tree: number[] = [];
    try {
      const root = parent.pid!;
      for (let tries = 0; tries < 50 && tree.length < 3; tries++) {
        tree = await processTree(root);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(tree).toHaveLength(3);
      const thaw = await freezeProcesses(root);
      expect(await Promise.all(tree.map(stateOf))).toEqual(['T', 'T', 'T']);
      thaw();
      const states = await Promise.all(tree.map(stateOf));
      expect(states.filter((state) => state === 'T')).toEqual([]);
    } finally {
      for (const pid of tree.reverse()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      parent.kill('SIGKILL');
    }
  });

  // What a room's browser runs under: nsenter into the sandbox's PID namespace, which stops itself when it finds its
  // child stopped (job control), like a shell does.
  it.runIf(process.getuid?.() === 0)(
    'leave a launcher that mirrors its child’s stops running after the thaw',
    async () => {
      const namespace = spawn('unshare', ['--pid', '--fork', '--kill-child', 'sleep', '30'], {
        stdio: 'ignore',
      });
      const launched: number[] = [];
      try {
        const inside = await childOf(namespace.pid!);
        const launcher = spawn('nsenter', ['-t', String(inside), '--pid', '--', 'sleep', '30'], {
          stdio: 'ignore',
        });
        launched.push(launcher.pid!);
        // The browser is the launcher's child, and what a checkpoint freezes (with what it started).
        const browser = await childOf(launcher.pid!);
        const both = [launcher.pid!, browser];

        // Whether the launcher sees its child stopped depends on the scheduler: ten checkpoints, as a room has.
        for (let checkpoint = 0; checkpoint < 10; checkpoint++) {
          const thaw = await freezeProcesses(browser);
          expect(await stateOf(browser)).toBe('T');
          thaw();
          await expect.poll(() => Promise.all(both.map(stateOf)), { timeout: 2000 }).toEqual(['S', 'S']);
        }
        // And they stay running once the launcher has acted on what it saw.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await Promise.all(both.map(stateOf))).toEqual(['S', 'S']);
      } finally {
        for (const pid of launched) process.kill(pid, 'SIGKILL');
        namespace.kill('SIGKILL');
      }
    },
  );
});

async function childOf(pid: number): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const [, child] = await processTree(pid);
    if (child !== undefined) return child;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`process ${pid} started no child`);
}
