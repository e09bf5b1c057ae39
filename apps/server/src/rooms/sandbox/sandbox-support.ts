// What isolation this machine can give a room, found once per engine and said at start-up. Full isolation needs
// the server to run as root (it creates the namespaces and cgroups, then drops every room process to the room
// user), the room user, util-linux's unshare/nsenter/setpriv, iproute2 and socat, and namespaces the kernel allows.
// Without them a room still runs, with less, and the server says exactly what is missing.
import { execFile } from 'node:child_process';
import { detectCgroups, type TCgroupLayout } from './cgroups';

export type TRoomSandboxMode = 'auto' | 'on' | 'off';

export type TSandboxSupport =
  | {
      kind: 'namespaces';
      user: string;
      uid: number;
      gid: number;
      cgroups: TCgroupLayout;
      /** Chromium's own sandbox (user namespaces for the room user); on wherever the kernel allows it. */
      chromiumSandbox: boolean;
    }
  | {
      kind: 'unconfined';
      /** Why rooms are not in namespaces, for the start-up message. */
      reason: string;
      /** Off only as root, where Chromium refuses to start with it. */
      chromiumSandbox: boolean;
    };

function run(command: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 10_000 }, (error, stdout, stderr) =>
      resolve({ ok: !error, output: `${stdout}${stderr}`.trim() }),
    );
  });
}

const PROGRAMS = ['unshare', 'nsenter', 'setpriv', 'pivot_root', 'socat', 'ip'];

async function probeNamespaces(user: string): Promise<TSandboxSupport | string> {
  const missing: string[] = [];
  for (const program of PROGRAMS) {
    if (!(await run('sh', ['-c', `command -v ${program} || test -x /usr/sbin/${program}`])).ok) {
      missing.push(program);
    }
  }
  if (missing.length > 0)
    return `missing programs: ${missing.join(', ')} (apt-get install util-linux iproute2 socat)`;
  const [uid, gid] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  if (!uid.ok || !gid.ok) {
    return `no user ${user} (create it: adduser --system --group --no-create-home --home /nonexistent ${user})`;
  }
  const namespaces = await run('unshare', [
    '--net',
    '--mount',
    '--pid',
    '--ipc',
    '--uts',
    '--fork',
    '--mount-proc',
    'true',
  ]);
  if (!namespaces.ok)
    return `the kernel refuses new network, mount, PID, IPC and UTS namespaces: ${namespaces.output}`;
  // Chromium's sandbox as an ordinary user rests on unprivileged user namespaces.
  const userNamespaces = await run('setpriv', [
    '--reuid',
    user,
    '--regid',
    user,
    '--clear-groups',
    '--',
    'unshare',
    '--user',
    'true',
  ]);
  return {
    kind: 'namespaces',
    user,
    uid: Number(uid.output),
    gid: Number(gid.output),
    cgroups: await detectCgroups(),
    chromiumSandbox: userNamespaces.ok,
  };
}

export async function probeSandboxSupport(mode: TRoomSandboxMode, user: string): Promise<TSandboxSupport> {
  const root = process.getuid?.() === 0;
  if (mode === 'off') {
    return { kind: 'unconfined', reason: 'ROOM_SANDBOX=off', chromiumSandbox: !root };
  }
  if (!root) {
    const reason = 'the server does not run as root, so it cannot give rooms their own namespaces and user';
    if (mode === 'on') throw new Error(`ROOM_SANDBOX=on but ${reason}`);
    return { kind: 'unconfined', reason, chromiumSandbox: true };
  }
  const support = await probeNamespaces(user);
  if (typeof support !== 'string') return support;
  if (mode === 'on') throw new Error(`ROOM_SANDBOX=on but rooms cannot be isolated: ${support}`);
  return { kind: 'unconfined', reason: support, chromiumSandbox: false };
}

/** The start-up line about room isolation: what a room gets, and what the operator must add for the rest. */
export function describeSandboxSupport(support: TSandboxSupport): {
  level: 'info' | 'warn' | 'error';
  message: string;
} {
  if (support.kind === 'namespaces') {
    const limits =
      support.cgroups.version === 'none'
        ? `without memory and process limits (${support.cgroups.reason})`
        : `with memory and process limits (cgroup v${support.cgroups.version})`;
    const chromium = support.chromiumSandbox
      ? "Chromium's sandbox on"
      : "Chromium's sandbox OFF (the kernel refuses user namespaces to the room user)";
    return {
      level: support.cgroups.version === 'none' || !support.chromiumSandbox ? 'warn' : 'info',
      message: `rooms run isolated: user ${support.user}, own network (egress proxy only), mount and PID namespaces, ${chromium}, ${limits}`,
    };
  }
  if (support.chromiumSandbox) {
    return {
      level: 'warn',
      message: `rooms are NOT isolated (${support.reason}): they run as the server's user with Chromium's sandbox on, and only the egress proxy's flags keep them off the server's network`,
    };
  }
  return {
    level: 'error',
    message: `rooms run as ROOT without Chromium's sandbox and without isolation (${support.reason}); a browser bug in a room is root on this server`,
  };
}
