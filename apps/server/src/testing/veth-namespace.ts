// A network namespace joined to this host by a veth pair, for tests that need a viewer elsewhere: a /30 of
// `10.<net>.0.0/16` per namespace, the host's end at .1 and the namespace's at .2. Needs root and ip.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TVethNamespace {
  namespace: string;
  /** The host's end of the pair (a shaper attaches there). */
  hostSide: string;
  hostAddress: string;
  viewerAddress: string;
  /** Kills what runs inside, then removes the pair and the namespace. */
  close(): Promise<void>;
}

let opened = 0;

/** `name`: what the namespace and its ends are called after (two letters for the ends); `net`: 10.`net`/16. */
export async function openVethNamespace(name: {
  namespace: string;
  ends: string;
  net: number;
}): Promise<TVethNamespace> {
  const id = `${process.pid % 10_000}${opened++}`;
  const namespace = `${name.namespace}-${id}`;
  const hostSide = `${name.ends}h${id}`;
  const viewerSide = `${name.ends}v${id}`;
  const subnet = (Number(id) % 16_000) * 4;
  const octets = (offset: number) =>
    `10.${name.net}.${Math.floor((subnet + offset) / 256)}.${(subnet + offset) % 256}`;
  const hostAddress = octets(1);
  const viewerAddress = octets(2);
  const close = async () => {
    await run('ip', ['netns', 'pids', namespace])
      .then(({ stdout }) => {
        for (const pid of stdout.split(/\s+/).filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
      })
      .catch(() => {});
    await run('ip', ['link', 'del', hostSide]).catch(() => {});
    await run('ip', ['netns', 'del', namespace]).catch(() => {});
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
  } catch (error) {
    await close();
    throw error;
  }
  return { namespace, hostSide, hostAddress, viewerAddress, close };
}
