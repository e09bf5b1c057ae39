// Finding 17 of the security review (issue 29): a room saw the host's files. Only the server's data, rooms and code
// directories were covered in its mount namespace; everything else (a checkout on the machine, /home, a fresh
// directory in the host's /tmp) was readable by the room's processes, and the room had the host's name. Each test
// runs a real room on the H.264 path (Chromium, Xvfb, pulseaudio, ffmpeg) and plants files on the host, readable by
// anyone there, that neither the room's processes nor its browser may read.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../env';
import { runInRoom } from '../../testing/rooms/run-in-room';
import { startTestPages, type TTestPages } from '../../testing/rooms/test-pages';
import { startEgressProxy } from '../egress/egress-proxy';
import { ChromiumRoomEngine } from '../engine/chromium-room-engine';
import type { RoomSandbox } from './room-sandbox';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CANARY = `room-filesystem-canary-${process.pid}-${Date.now()}`;
/** What the room's root may hold: the system's programs and libraries, and the room's own places. */
const ROOT_ENTRIES = new Set([
  'bin',
  'dev',
  'etc',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'proc',
  'run',
  'sbin',
  'tmp',
  'usr',
  'var',
]);

let pages: TTestPages;
let dataDir: string;
let engine: ChromiumRoomEngine;
let sandbox: RoomSandbox;
/** Host files no room may read, each world-readable on the host. */
let canaries: string[];
const cleanup: string[] = [];
const roomId = `filesystem-${process.pid}`;

/** The room's page (not the omnibox popup a browser starting on a busy machine may list as a page too). */
function roomPage() {
  const page = engine
    .browserContext(roomId)!
    .pages()
    .find((candidate) => candidate.url() === pages.url('/form'));
  if (!page) throw new Error('the room’s page is gone');
  return page;
}

/** A fresh directory under `parent` holding a world-readable file with the canary. */
async function plant(parent: string): Promise<string> {
  const dir = await mkdtemp(join(parent, 'rooms-host-files-'));
  cleanup.push(dir);
  await chmod(dir, 0o755);
  const file = join(dir, 'secret.txt');
  await writeFile(file, `${CANARY}\n`, { mode: 0o644 });
  return file;
}

beforeAll(async () => {
  pages = await startTestPages();
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-filesystem-'));
  cleanup.push(dataDir);
  // The host's /tmp (other programs' scratch files), and a home directory as a checkout or a user's files would be.
  canaries = [await plant(tmpdir()), await plant('/home')];
  engine = new ChromiumRoomEngine({
    chromiumPath: CHROMIUM,
    roomsDataDir: dataDir,
    capacity: 1,
    media: 'h264',
    sandbox: { mode: 'on' },
    egress: { start: startEgressProxy, allow: [pages.hostPort] },
  });
  await engine.start({
    roomId,
    width: 800,
    height: 600,
    maxFrameRate: 10,
    videoBitrateKbps: 1000,
    startUrl: pages.url('/form'),
    keepData: false,
    autoCloseMs: null,
  });
  sandbox = engine.sandbox(roomId)!;
  expect(sandbox.rootPid).toBeDefined();
  await pages.waitForEvent('ready:form', 15_000);
});

afterAll(async () => {
  await engine?.close();
  await pages?.close();
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

describe('a process of the room', () => {
  it('reads none of the host’s files: a fresh directory in /tmp, /home, this checkout', async () => {
    for (const file of [...canaries, join(REPO_ROOT, 'package.json')]) {
      const read = await runInRoom(sandbox, 'cat', [file]);
      expect(read.code, `${file}: ${read.output}`).not.toBe(0);
      expect(read.output).not.toContain(CANARY);
      expect(read.output).not.toContain('"workspaces"');
    }
  });

  it('sees a root of the system’s programs and its own places only', async () => {
    const listed = await runInRoom(sandbox, 'ls', ['-A', '/']);
    expect(listed.code, listed.output).toBe(0);
    const entries = listed.output.split('\n').filter(Boolean);
    expect(entries.filter((entry) => !ROOT_ENTRIES.has(entry))).toEqual([]);
    // Written only by root, as the host's own are: the room writes in its /tmp, its home and its profile only.
    const written = await runInRoom(sandbox, 'sh', ['-c', 'touch /usr/room-file || touch /etc/room-file']);
    expect(written.code).not.toBe(0);
  });

  it('has a name of its own, not the host’s', async () => {
    const name = await runInRoom(sandbox, 'sh', ['-c', 'uname -n; cat /etc/hostname']);
    expect(name.code, name.output).toBe(0);
    expect(name.output.split('\n').filter(Boolean)).toEqual(['room', 'room']);
    expect(name.output).not.toContain(hostname());
  });
});

describe('the room’s browser', () => {
  it('reads none of the host’s files, even handed their paths', async () => {
    const page = roomPage();
    // What the browser process itself can read, as a browser bug would: a file given to a page by its path.
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'probe';
      document.body.append(input);
    });
    for (const file of canaries) {
      await page.setInputFiles('#probe', file);
      const read = await page.evaluate(async () => {
        const chosen = (document.getElementById('probe') as HTMLInputElement).files?.[0];
        return chosen ? chosen.text().catch((error: Error) => `refused: ${error.name}`) : 'no file';
      });
      expect(read, file).not.toContain(CANARY);
    }
  });

  it('shows none of them at a file: address', async () => {
    const page = roomPage();
    // Refused by the browser's policy, and the room closes a tab that shows a file: address: whatever the page got
    // before that, it is not the file.
    const shown = await page
      .goto(`file://${canaries[0]}`)
      .then(() => page.content())
      .catch((error: Error) => error.message);
    expect(shown).not.toContain(CANARY);
  });
});
