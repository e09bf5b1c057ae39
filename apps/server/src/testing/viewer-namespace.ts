// A viewer on another machine, for tests: a network namespace joined to this host by a veth pair, with its own
// addresses (10.233.0.0/16). A server listening on the host's end is reached from inside at an address that is
// not loopback, as a browser elsewhere reaches a server on the Internet: there, browsers give a page over plain
// HTTP no secure context. Chromium runs inside through a wrapper that playwright-core launches. Needs root and ip.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openVethNamespace } from './veth-namespace';

const run = promisify(execFile);

export interface TViewerNamespace {
  /** The host's end: where a server listens for the viewer. */
  hostAddress: string;
  /** An executable that runs Chromium inside the namespace, with the arguments it is given. */
  chromium: string;
  close(): Promise<void>;
}

export async function canOpenViewerNamespace(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  return run('ip', ['-V']).then(
    () => true,
    () => false,
  );
}

export async function openViewerNamespace(chromiumPath: string): Promise<TViewerNamespace> {
  const link = await openVethNamespace({ namespace: 'rooms-viewer', ends: 'rv', net: 233 });
  const dir = await mkdtemp(join(tmpdir(), 'rooms-viewer-'));
  const close = async () => {
    await link.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const chromium = join(dir, 'chromium-in-namespace');
    // exec keeps the pipes playwright-core drives Chromium through (--remote-debugging-pipe on fds 3 and 4).
    await writeFile(chromium, `#!/bin/sh\nexec ip netns exec ${link.namespace} ${chromiumPath} "$@"\n`);
    await chmod(chromium, 0o755);
    return { hostAddress: link.hostAddress, chromium, close };
  } catch (error) {
    await close();
    throw error;
  }
}
