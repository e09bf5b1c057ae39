// Keep-data rooms' volumes on this machine's loop devices (the server is root here, as a sandboxing server is):
// a profile kept before volumes existed moves into its image, a mount left by a server killed hard is taken up
// again, and the host's directory holds nothing of the room once it is unmounted.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unmountUnder } from '../../testing/rooms/room-volume-files';
import { silentLogger } from '../room-logger';
import { isMountPoint, mountPoints, RoomVolumes } from './room-volumes';

let dataDir: string;
let volumes: RoomVolumes;
const roomId = 'volume-room';

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-volumes-'));
  volumes = new RoomVolumes(dataDir, 64, silentLogger);
});

afterEach(async () => {
  await unmountUnder(dataDir);
  await rm(dataDir, { recursive: true, force: true });
});

const countMounts = async (dir: string) => (await mountPoints()).filter((point) => point === dir).length;

describe('a keep-data room’s volume', () => {
  it('takes in a profile kept on the host’s disk before, and leaves the host’s directory empty', async () => {
    const roomDir = join(dataDir, roomId);
    await mkdir(join(roomDir, 'profile', 'Default'), { recursive: true });
    await writeFile(join(roomDir, 'profile', 'Default', 'Cookies'), 'kept before volumes');

    expect(await volumes.mount(roomId)).toBe(true);
    expect(await isMountPoint(roomDir)).toBe(true);
    expect(await readFile(join(roomDir, 'profile', 'Default', 'Cookies'), 'utf8')).toBe(
      'kept before volumes',
    );

    await volumes.unmount(roomId);
    expect(await isMountPoint(roomDir)).toBe(false);
    expect(await readdir(roomDir)).toEqual([]);

    expect(await volumes.mount(roomId)).toBe(true);
    expect(await readFile(join(roomDir, 'profile', 'Default', 'Cookies'), 'utf8')).toBe(
      'kept before volumes',
    );
  });

  it('goes on with a mount that is already there (a server killed hard left it), mounting nothing twice', async () => {
    expect(await volumes.mount(roomId)).toBe(true);
    await writeFile(join(dataDir, roomId, 'state'), 'running');
    const again = new RoomVolumes(dataDir, 64, silentLogger);
    expect(await again.mount(roomId)).toBe(true);
    expect(await countMounts(join(dataDir, roomId))).toBe(1);
    expect(await readFile(join(dataDir, roomId, 'state'), 'utf8')).toBe('running');
  });

  it('is gone with the room: unmounted and its image deleted', async () => {
    expect(await volumes.mount(roomId)).toBe(true);
    await volumes.remove(roomId);
    expect(await isMountPoint(join(dataDir, roomId))).toBe(false);
    expect(existsSync(join(dataDir, '.volumes', `${roomId}.img`))).toBe(false);
  });
});
