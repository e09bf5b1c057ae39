// Findings 1, 3 and 7 of the security review (issue 10): a room's browser is a stranger's code. Before the
// sandbox, WebRTC sent STUN straight from the server to any address (the flag that should stop it was misspelt),
// and the room's Chromium, Xvfb, pulseaudio and ffmpeg ran as root, without Chromium's sandbox, with the server's
// whole environment, on the server's network and file system. Each test runs a real room (H.264 path: every
// kind of room process) and tries what a hostile page, or a page that broke out of its renderer, would try.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TRoomLaunchSpec } from '@rooms/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startListeners,
  startPages,
  type TListeners,
  type TPages,
  targets,
} from '../../testing/rooms/hostile-page';
import { runInRoom } from '../../testing/rooms/run-in-room';
import { startEgressProxy } from '../egress/egress-proxy';
import { ChromiumRoomEngine } from '../engine/chromium-room-engine';
import type { RoomSandbox } from './room-sandbox';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** A variable only the server has: it must not reach any room process. */
const CANARY = `room-isolation-canary-${process.pid}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every process of the room: in its cgroups and in its PID namespace (or one nested in it, as Chromium's
 * renderers are). The root-owned helpers that made the namespaces or entered them (unshare, nsenter) stay in
 * the server's PID namespace, where they only wait for their child; no room process can see or signal them.
 */
async function roomProcesses(sandbox: RoomSandbox): Promise<number[]> {
  const dir = sandbox.cgroupDirs.find((path) => path.includes('/pids')) ?? sandbox.cgroupDirs[0]!;
  const pids = (await readFile(join(dir, 'cgroup.procs'), 'utf8')).split('\n').filter(Boolean).map(Number);
  const inside: number[] = [];
  for (const pid of pids) {
    const levels = /^NSpid:\s+(.*)$/m.exec(await status(pid).catch(() => ''))?.[1]?.split(/\s+/) ?? [];
    if (levels.length >= 2) inside.push(pid);
  }
  return inside;
}

async function status(pid: number): Promise<string> {
  return readFile(`/proc/${pid}/status`, 'utf8');
}
// Chromium rewrites its children's command lines into one space-separated string.
const cmdline = async (pid: number) =>
  (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split(/[\0 ]/).filter(Boolean);

let listeners: TListeners;
let pages: TPages;
let dataDir: string;
let serverDir: string;
let engine: ChromiumRoomEngine;
let sandbox: RoomSandbox;
const roomId = `isolation-${process.pid}`;

beforeAll(async () => {
  process.env.ROOMS_ISOLATION_CANARY = CANARY;
  listeners = await startListeners();
  pages = await startPages(listeners);
  dataDir = await mkdtemp(join(tmpdir(), 'rooms-isolation-'));
  // Stands in for the server's data directory: what a room must not read.
  serverDir = await mkdtemp(join(tmpdir(), 'rooms-isolation-server-'));
  await writeFile(join(serverDir, 'app-secret'), CANARY);
  engine = new ChromiumRoomEngine({
    chromiumPath: CHROMIUM,
    roomsDataDir: dataDir,
    capacity: 1,
    media: 'h264',
    sandbox: { mode: 'on', hide: [serverDir] },
    egress: { start: startEgressProxy, allow: [pages.hostPort] },
  });
  const spec: TRoomLaunchSpec = {
    roomId,
    width: 800,
    height: 600,
    maxFrameRate: 10,
    videoBitrateKbps: 1000,
    startUrl: `${pages.origin}/`,
    keepData: false,
    autoCloseMs: null,
  };
  await engine.start(spec);
  sandbox = engine.sandbox(roomId)!;
  expect(sandbox.rootPid).toBeDefined();
});

afterAll(async () => {
  delete process.env.ROOMS_ISOLATION_CANARY;
  await engine?.close();
  await pages?.close();
  await listeners?.close();
  for (const dir of [dataDir, serverDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a room page cannot reach the host around the egress proxy', () => {
  it('WebRTC STUN/TURN, DoH to a literal address, WebSockets and WebTransport to the host: nothing arrives', async () => {
    await pages.fired;
    // ICE keeps trying for a while after the page has fired everything.
    await sleep(2000);
    expect(listeners.seen).toEqual([]);
  });
});

describe('a process that broke out of its renderer', () => {
  it('has no network but the egress proxy: UDP and TCP to the host fail, the proxy answers', async () => {
    for (const host of targets) {
      const udp = await runInRoom(
        sandbox,
        'socat',
        ['-u', '-', `UDP-SENDTO:${host}:${listeners.udpPort}`],
        'x',
      );
      // The room's own loopback takes the datagram (and drops it); any other address has no route at all.
      if (host !== '127.0.0.1') expect(udp.code, `UDP to ${host}: ${udp.output}`).not.toBe(0);
      const tcp = await runInRoom(sandbox, 'socat', [
        '-u',
        '-',
        `TCP:${host}:${listeners.tcpPort},connect-timeout=2`,
      ]);
      expect(tcp.code, `TCP to ${host}: ${tcp.output}`).not.toBe(0);
    }
    await sleep(300);
    expect(listeners.seen).toEqual([]);
    // The one way out works, and still applies the egress policy.
    // The request stays open until the answer is in (an HTTP server closes a half-closed request unanswered).
    const proxied = await runInRoom(sandbox, 'sh', [
      '-c',
      `(printf 'GET %s HTTP/1.0\\r\\n\\r\\n' "$0"; sleep 2) | socat - TCP:127.0.0.1:3128`,
      `${pages.origin}/`,
    ]);
    expect(proxied.output).toMatch(/^HTTP\/1\.[01] 200/);
    expect(proxied.output).toContain('hostile');
  });

  it('sees neither the server’s data nor its sockets, and cannot become root', async () => {
    const secret = await runInRoom(sandbox, 'cat', [join(serverDir, 'app-secret')]);
    expect(secret.code).not.toBe(0);
    expect(secret.output).not.toContain(CANARY);
    const run = await runInRoom(sandbox, 'ls', ['-A', '/run', '/dev/shm']);
    expect(run.output).not.toMatch(/postgresql|dbus|\.s\.PGSQL/);
    const su = await runInRoom(sandbox, 'sh', ['-c', 'grep NoNewPrivs /proc/self/status; id -u']);
    expect(su.output).toMatch(/NoNewPrivs:\s+1/);
    expect(su.output).not.toMatch(/^0$/m);
  });

  it('writes nothing that outlives the room or reaches the host: /var/tmp and the terminals are its own', async () => {
    const canary = `room-canary-${process.pid}-${Date.now()}`;
    const written = await runInRoom(sandbox, 'sh', [
      '-c',
      `echo ${canary} > /var/tmp/${canary} && cat /var/tmp/${canary}`,
    ]);
    expect(written.output).toContain(canary);
    expect(existsSync(join('/var/tmp', canary))).toBe(false);
    // A size of the room's own, not the host disk's.
    const size = await runInRoom(sandbox, 'df', ['-k', '--output=size', '/var/tmp']);
    expect(Number(size.output.trim().split('\n').at(-1))).toBeLessThanOrEqual(64 * 1024);
    // Pseudo-terminals from an instance of the room's own, not the host's (where other rooms' would be too).
    const terminals = await runInRoom(sandbox, 'stat', ['-c', '%d', '/dev/pts']);
    expect(terminals.code).toBe(0);
    expect(Number(terminals.output.trim())).not.toBe(statSync('/dev/pts').dev);
  });
});

describe('what a page stores', () => {
  it('stays in the room’s memory, bounded, and never reaches the host’s disk (the profile of a room that keeps no data)', async () => {
    const [name] = (await readdir(join(dataDir, '.fresh'))).filter((entry) => entry.startsWith(roomId));
    expect(name).toBeDefined();
    const profile = join(dataDir, '.fresh', name!);
    // The browser writes a page's storage (IndexedDB, caches) into its profile; whatever writes there lands here.
    const filled = await runInRoom(sandbox, 'sh', [
      '-c',
      'dd if=/dev/zero of="$0/filler" bs=1M count=8 2>/dev/null; ls "$0"; df -k --output=size "$0"',
      profile,
    ]);
    expect(filled.output).toContain('filler');
    expect(existsSync(join(profile, 'filler'))).toBe(false);
    // A share of the room's memory (2 GB here), not of the host's disk, which Chromium offers pages a share of.
    expect(Number(filled.output.trim().split('\n').at(-1))).toBeLessThanOrEqual(1024 * 1024);
  });
});

describe('what a page stores in a room that keeps its data', () => {
  it('fills the room’s own volume at most, never the host’s disk, and is there again at the next start', async () => {
    const keptDir = await mkdtemp(join(tmpdir(), 'rooms-isolation-kept-'));
    const keptId = `isolation-kept-${process.pid}`;
    const kept = new ChromiumRoomEngine({
      chromiumPath: CHROMIUM,
      roomsDataDir: keptDir,
      capacity: 1,
      media: 'screencast',
      sandbox: { mode: 'on', hide: [serverDir], profileDiskMb: 64 },
      egress: { start: startEgressProxy, allow: [pages.hostPort] },
    });
    const spec: TRoomLaunchSpec = {
      roomId: keptId,
      width: 800,
      height: 600,
      maxFrameRate: 10,
      videoBitrateKbps: 1000,
      startUrl: `${pages.origin}/`,
      keepData: true,
      autoCloseMs: null,
    };
    const roomDir = join(keptDir, keptId);
    const profile = join(roomDir, 'profile');
    try {
      await kept.start(spec);
      // The browser writes a page's storage (IndexedDB, caches) into its profile; a process of the room writes
      // past what the room may keep.
      const filled = await runInRoom(kept.sandbox(keptId)!, 'sh', [
        '-c',
        'dd if=/dev/zero of="$0/filler" bs=1M count=100 2>&1; df -k --output=size "$0" | tail -n 1',
        profile,
      ]);
      expect(filled.output).toContain('No space left on device');
      expect(Number(filled.output.trim().split('\n').at(-1))).toBeLessThanOrEqual(64 * 1024);
      await kept.stop(keptId);
      // Stopped, the room's directory on the host's disk holds nothing: the profile is in the room's image.
      expect(await readdir(roomDir)).toEqual([]);
      const [image] = await readdir(join(keptDir, '.volumes'));
      expect(statSync(join(keptDir, '.volumes', image!)).blocks * 512).toBeLessThanOrEqual(64 * 1024 * 1024);

      await kept.start(spec);
      expect(existsSync(join(profile, 'filler')), 'what the room kept is there again').toBe(true);
      await kept.deleteData(keptId);
      expect(await readdir(join(keptDir, '.volumes'))).toEqual([]);
    } finally {
      await kept.close();
      await rm(keptDir, { recursive: true, force: true });
    }
  });
});

describe('the room’s processes', () => {
  it('run as the room user, never root, without the server’s environment', async () => {
    const pids = await roomProcesses(sandbox);
    const names = await Promise.all(pids.map(async (pid) => (await cmdline(pid))[0] ?? ''));
    for (const program of ['chromium', 'Xvfb', 'pulseaudio', 'socat']) {
      expect(
        names.some((name) => name.includes(program)),
        `${program} among ${names.join(', ')}`,
      ).toBe(true);
    }
    for (const pid of pids) {
      // A process may end between the listing and now (an encoder nobody watches stops after a while).
      const text = await status(pid).catch(() => undefined);
      if (text === undefined) continue;
      const uids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(text)!.slice(1).map(Number);
      expect(
        uids.every((uid) => uid !== 0),
        `${names[pids.indexOf(pid)]} runs as ${uids}`,
      ).toBe(true);
      const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
      expect(environ).not.toContain(CANARY);
      expect(environ).not.toMatch(/(^|\0)(APP_SECRET|DATABASE_URL|SMTP_URL|STRIPE_SECRET_KEY)=/);
    }
  });

  it('keep Chromium’s own sandbox on: renderers in their own namespaces under seccomp', async () => {
    const pids = await roomProcesses(sandbox);
    const lines = await Promise.all(pids.map(async (pid) => ({ pid, args: await cmdline(pid) })));
    const browser = lines.find(
      ({ args }) => args[0]?.includes('chromium') && !args.some((a) => a.startsWith('--type=')),
    );
    expect(browser).toBeDefined();
    expect(browser!.args).not.toContain('--no-sandbox');
    const renderers = lines.filter(({ args }) => args.includes('--type=renderer'));
    expect(renderers.length).toBeGreaterThan(0);
    const browserUserNs = await readlink(`/proc/${browser!.pid}/ns/user`);
    for (const renderer of renderers) {
      expect(await status(renderer.pid)).toMatch(/^Seccomp:\s+2$/m);
      expect(await readlink(`/proc/${renderer.pid}/ns/user`)).not.toBe(browserUserNs);
    }
  });

  it('draw on a display only the room’s own processes can reach', async () => {
    const inside = await runInRoom(sandbox, 'sh', ['-c', 'ls /tmp/.X11-unix']);
    const display = /X(\d+)/.exec(inside.output)?.[1];
    expect(display, inside.output).toBeDefined();
    expect((await runInRoom(sandbox, 'xwininfo', ['-root', '-display', `:${display}`])).code).toBe(0);
    // The server itself, and so any other room, cannot open it.
    const outside = await new Promise<number>((resolve) =>
      execFile('xwininfo', ['-root', '-display', `:${display}`], { timeout: 10_000 }, (error) =>
        resolve(error ? 1 : 0),
      ),
    );
    expect(outside).not.toBe(0);
  });

  it('live in the room’s cgroups, whose memory and process limits hold', async () => {
    expect(sandbox.cgroupDirs.length).toBeGreaterThan(0);
    const limits = await Promise.all(
      sandbox.cgroupDirs.map(async (dir) => {
        const files = await readdir(dir);
        const file = ['memory.limit_in_bytes', 'memory.max', 'pids.max'].find((name) => files.includes(name));
        return file ? (await readFile(join(dir, file), 'utf8')).trim() : '';
      }),
    );
    expect(limits).toContain(String(2048 * 1024 * 1024));
    expect(limits).toContain('2048');
    // A runaway process of the room (a 3 GiB buffer filled) is killed by the kernel at the room's ceiling, not
    // the host's; the room's browser runs on.
    // The kernel reclaims what it can of the room's memory first: on a busy machine that took 13 s.
    const hog = await runInRoom(
      sandbox,
      'dd',
      ['if=/dev/zero', 'of=/dev/null', 'bs=3G', 'count=1'],
      undefined,
      45_000,
    );
    expect(hog.signal, hog.output).toBe('SIGKILL');
    expect(engine.state(roomId)).toBe('running');
  });
});
