// The archive of a profile directory (Debian's tar and gzip) and the freeze a live profile is copied under.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTree } from '../engine/process-tree';
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
});
