// A slow link between this machine and a viewer, for tests: a network namespace joined by a veth pair whose
// host end shapes what flows towards the namespace with `tc tbf` (netem is not in this kernel). A socat in the
// namespace forwards a port to a server on this host, so a client here that connects to `address` receives the
// server's bytes through the shaped direction, as a viewer at home would. Needs root (ip, tc) and socat.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { openVethNamespace } from './veth-namespace';

const run = promisify(execFile);

export interface TShapedLink {
  /** host:port to connect to: the namespace's forwarder. */
  address: string;
  /** Changes the link's rate (kbit/s) while it is in use. */
  setRate(kbps: number): Promise<void>;
  close(): Promise<void>;
}

/** Whether this process may build links (root, with ip, tc and socat). */
export async function canShapeLinks(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  try {
    await Promise.all([run('ip', ['-V']), run('tc', ['-V']), run('socat', ['-V'])]);
    return true;
  } catch {
    return false;
  }
}

/**
 * `queueMs`: how much the link queues before it drops, as a home router's buffer would (tbf's latency).
 * `serverPort`: the server's port on this host, which must listen on an address the namespace reaches.
 */
export async function openShapedLink(options: {
  kbps: number;
  serverPort: number;
  queueMs?: number;
}): Promise<TShapedLink> {
  const link = await openVethNamespace({ namespace: 'rooms-link', ends: 'rl', net: 232 });
  const { namespace, hostSide, hostAddress, viewerAddress } = link;
  const queueMs = options.queueMs ?? 100;
  const tbf = (verb: 'add' | 'change', kbps: number) =>
    run('tc', [
      'qdisc',
      verb,
      'dev',
      hostSide,
      'root',
      'tbf',
      'rate',
      `${kbps}kbit`,
      // A burst of a few packets, as a shaper at these rates allows.
      'burst',
      `${Math.max(4, Math.round(kbps / 250))}kb`,
      'latency',
      `${queueMs}ms`,
    ]);
  const remove = () => link.close();
  try {
    await tbf('add', options.kbps);
  } catch (error) {
    await remove();
    throw error;
  }
  const port = 9000;
  const forwarder = spawn(
    'ip',
    [
      'netns',
      'exec',
      namespace,
      'socat',
      `TCP-LISTEN:${port},bind=${viewerAddress},fork,reuseaddr`,
      `TCP:${hostAddress}:${options.serverPort}`,
    ],
    { stdio: 'ignore' },
  );
  // Listening once a connection is accepted.
  const deadline = Date.now() + 5000;
  for (;;) {
    const probe = await run('ip', ['netns', 'exec', namespace, 'ss', '-ltn']).catch(() => ({ stdout: '' }));
    if (probe.stdout.includes(`${viewerAddress}:${port}`)) break;
    if (Date.now() > deadline) {
      forwarder.kill('SIGKILL');
      await remove();
      throw new Error('the shaped link’s forwarder did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    address: `${viewerAddress}:${port}`,
    setRate: async (kbps) => {
      await tbf('change', kbps);
    },
    async close() {
      forwarder.kill('SIGKILL');
      await remove();
    },
  };
}
