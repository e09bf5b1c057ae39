// A viewer on another machine, for tests: a network namespace joined to this host by a veth pair, with its own
// addresses (10.233.0.0/16). A server listening on the host's end is reached from inside at an address that is
// not loopback, as a browser elsewhere reaches a server on the Internet: there, browsers give a page over plain
// HTTP no secure context. Chromium runs inside through a wrapper that playwright-core launches. Needs root and ip.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TViewerNamespace {
  /** The host's end: where a server listens for the viewer. */
  hostAddress: string;
  /** An executable that runs Chromium inside the namespace, with the arguments it is given. */
  chromium: string;
  close(): Promise<void>;
}

let opened = 0;

export async function canOpenViewerNamespace(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  return run('ip', ['-V']).then(
    () => true,
    () => false,
  );
}

export async function openViewerNamespace(chromiumPath: string): Promise<TViewerNamespace> {
  const id = `${process.pid % 10_000}${opened++}`;
  const namespace = `rooms-viewer-${id}`;
  const hostSide = `rvh${id}`;
  const viewerSide = `rvv${id}`;
  const subnet = (Number(id) % 16_000) * 4;
  const octets = (offset: number) =>
    `10.233.${Math.floor((subnet + offset) / 256)}.${(subnet + offset) % 256}`;
  const hostAddress = octets(1);
  const viewerAddress = octets(2);
  const dir = await mkdtemp(join(tmpdir(), 'rooms-viewer-'));
  const remove = async () => {
    await run('ip', ['link', 'del', hostSide]).catch(() => {});
    await run('ip', ['netns', 'pids', namespace])
      .then(({ stdout }) => {
        for (const pid of stdout.split(/\s+/).filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
      })
      .catch(() => {});
    await run('ip', ['netns', 'del', namespace]).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  const steps: string[][] = [
    ['ip', 'netns', 'add', namespace],
    ['ip', 'link', 'add', hostSide, 'type', 'veth', 'peer', 'name', viewerSide],
    ['ip', 'link', 'set', viewerSide, 'netns', namespace],
    ['ip', 'addr', 'add', `${hostAddress}/30`, 'dev', hostSide],
    ['ip', 'link', 'set', hostSide, 'up'],
    ['ip', 'netns', 'exec', namespace, 'ip', 'addr', 'add', `${viewerAddress}/30`, 'dev', viewerSide],
    ['ip', 'netns', 'exec', namespace, 'ip', 'link', 'set', viewerSide, 'up'],
    ['ip', 'netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up'],
  ];
  try {
    for (const [command, ...args] of steps) await run(command!, args);
    const chromium = join(dir, 'chromium-in-namespace');
    // exec keeps the pipes playwright-core drives Chromium through (--remote-debugging-pipe on fds 3 and 4).
    await writeFile(chromium, `#!/bin/sh\nexec ip netns exec ${namespace} ${chromiumPath} "$@"\n`);
    await chmod(chromium, 0o755);
    return { hostAddress, chromium, close: remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
