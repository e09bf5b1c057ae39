// Runs after `npm install`: makes sure the system packages the room engine drives are present.
// Chromium comes from the operating system (Playwright's own browser download cannot be used here);
// as root on Debian/Ubuntu we install it, otherwise we say exactly what to install.
// The media pipeline (a virtual display, a sound server and ffmpeg for H.264 + Opus) is installed the same way,
// but its absence only warns: rooms then fall back to the CDP screencast (JPEG pictures, no sound).
// Room isolation (apps/server/src/rooms/sandbox) needs socat, iproute2 and the unprivileged `room-sandbox` user;
// as root both are set up here, otherwise the server says at start-up what rooms lack.
// The tests also run the README's reverse-proxy examples (nginx, Caddy), a local ACME authority (Pebble) and a Redis
// that `.ci/run` starts when the machine has none; these are installed for their programs only, never started as
// services (not at all with NODE_ENV=production).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, unlinkSync, writeFileSync } from 'node:fs';

const SKIP = process.env.ROOMS_SKIP_SETUP === '1';
const MEDIA_PACKAGES = ['xvfb', 'ffmpeg', 'pulseaudio'];
/** The programs the media pipeline runs, by the Debian package that provides them. */
const MEDIA_PROGRAMS = { xvfb: 'Xvfb', ffmpeg: 'ffmpeg', pulseaudio: 'pulseaudio' };
/**
 * What the room sandbox runs besides util-linux, by package (mkfs.ext4: keep-data rooms' own volumes; xwininfo: the
 * isolation tests look at displays).
 */
const SANDBOX_PROGRAMS = { socat: 'socat', iproute2: 'ip', e2fsprogs: 'mkfs.ext4', 'x11-utils': 'xwininfo' };
const SANDBOX_USER = process.env.ROOM_SANDBOX_USER || 'room-sandbox';
/**
 * What the tests run, by package: the reverse proxies of deploy/proxy, Let's Encrypt's test server, and the Redis of
 * the suites about limits shared across processes.
 */
const TEST_PROGRAMS = {
  'nginx-light': 'nginx',
  caddy: 'caddy',
  pebble: 'pebble',
  'redis-server': 'redis-server',
};
/** Their packages' services, which a package install would otherwise start (nginx and Caddy both take port 80). */
const TEST_SERVICES = ['nginx.service', 'caddy.service', 'redis-server.service'];
/** Debian's way to keep a package install from starting its daemon: this script answering "not now". */
const POLICY_RC = '/usr/sbin/policy-rc.d';
const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  Boolean,
);

function findChromium() {
  return candidates.find((path) => existsSync(path));
}

function onPath(program) {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

function missingMediaPackages() {
  return MEDIA_PACKAGES.filter((name) => !onPath(MEDIA_PROGRAMS[name]));
}

function missingSandboxPackages() {
  return Object.entries(SANDBOX_PROGRAMS)
    .filter(([, program]) => !onPath(program) && !existsSync(`/usr/sbin/${program}`))
    .map(([name]) => name);
}

function missingTestPackages() {
  return Object.entries(TEST_PROGRAMS)
    .filter(([, program]) => !onPath(program) && !existsSync(`/usr/sbin/${program}`))
    .map(([name]) => name);
}

/**
 * Installs the test tools without starting them: a policy-rc.d stands in for the install's duration (where the
 * machine has none of its own), and their units are disabled so that no reboot starts them on port 80 either.
 */
function installTestTools(packages) {
  const ownPolicy = !existsSync(POLICY_RC);
  if (ownPolicy) writeFileSync(POLICY_RC, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    return aptInstall(packages);
  } finally {
    if (ownPolicy) unlinkSync(POLICY_RC);
    if (onPath('deb-systemd-helper')) {
      for (const unit of TEST_SERVICES)
        spawnSync('deb-systemd-helper', ['disable', unit], { stdio: 'ignore' });
    }
  }
}

function hasUser(name) {
  return spawnSync('id', ['-u', name], { stdio: 'ignore' }).status === 0;
}

/** The system user every room process runs as: no login, no home, no groups but its own. */
function createSandboxUser() {
  if (hasUser(SANDBOX_USER)) return true;
  console.log(`[setup] creating the system user ${SANDBOX_USER} that room browsers run as`);
  const created = spawnSync(
    'adduser',
    [
      '--system',
      '--group',
      '--no-create-home',
      '--home',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      SANDBOX_USER,
    ],
    { encoding: 'utf8' },
  );
  // adduser warns that /nonexistent cannot be accessed, which is the point; only a failure is worth showing.
  if (created.status !== 0) console.warn(created.stderr.trim());
  return created.status === 0 || hasUser(SANDBOX_USER);
}

function aptInstall(packages) {
  console.log(`[setup] installing ${packages.join(', ')} with apt-get (running as root)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  if (update.status !== 0) return false;
  const install = spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], {
    stdio: 'inherit',
    env,
  });
  return install.status === 0;
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function hasApt() {
  try {
    execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

if (!SKIP) {
  if (process.env.CHROMIUM_PATH && !existsSync(process.env.CHROMIUM_PATH)) {
    console.error(`[setup] CHROMIUM_PATH points to ${process.env.CHROMIUM_PATH}, which does not exist.`);
    process.exit(1);
  }
  // One apt-get run for everything missing (on a fresh machine the index update is the slow part); should it
  // fail, Chromium alone is tried again, as rooms need it and the media packages are optional.
  const canInstall = isRoot() && hasApt();
  const wanted = [
    ...(findChromium() ? [] : ['chromium', 'fonts-noto-cjk']),
    ...missingMediaPackages(),
    ...missingSandboxPackages(),
  ];
  if (wanted.length > 0 && canInstall) aptInstall(wanted);
  if (!findChromium() && canInstall) aptInstall(['chromium', 'fonts-noto-cjk']);
  if (!findChromium()) {
    console.error(
      [
        '[setup] Chromium is required to run rooms and the browser tests, and it is not installed.',
        '        Install it with:   sudo apt-get install -y chromium fonts-noto-cjk',
        '        or point CHROMIUM_PATH at an existing Chromium binary, then run `npm install` again.',
      ].join('\n'),
    );
    process.exit(1);
  }
  console.log(`[setup] Chromium: ${findChromium()}`);

  const missingMedia = missingMediaPackages();
  if (missingMedia.length > 0) {
    console.warn(
      [
        `[setup] The media pipeline needs ${missingMedia.join(', ')}, which could not be installed.`,
        '        Rooms still run, with the JPEG screencast and without sound. For H.264 video and sound:',
        `        sudo apt-get install -y ${missingMedia.join(' ')}`,
      ].join('\n'),
    );
  } else {
    console.log('[setup] Media pipeline: Xvfb, ffmpeg and pulseaudio are installed (H.264 video and sound)');
  }

  const missingTools = missingTestPackages();
  if (missingTools.length > 0 && canInstall && process.env.NODE_ENV !== 'production') {
    installTestTools(missingTools);
  }
  const stillMissingTools = missingTestPackages();
  if (stillMissingTools.length > 0) {
    console.log(
      `[setup] Tests skip what needs ${stillMissingTools.join(', ')} (apt-get install ${stillMissingTools.join(' ')})`,
    );
  }

  if (isRoot() && !createSandboxUser()) {
    console.warn(`[setup] could not create the user ${SANDBOX_USER}: rooms will run without isolation.`);
  }
  const missingSandbox = missingSandboxPackages();
  if (missingSandbox.length > 0 || !hasUser(SANDBOX_USER)) {
    console.warn(
      [
        '[setup] Room isolation needs, as root:',
        ...(missingSandbox.length > 0 ? [`        apt-get install -y ${missingSandbox.join(' ')}`] : []),
        ...(hasUser(SANDBOX_USER)
          ? []
          : [`        adduser --system --group --no-create-home --home /nonexistent ${SANDBOX_USER}`]),
        '        Without it rooms still run; the server says at start-up what they lack (see the README).',
      ].join('\n'),
    );
  } else {
    console.log(`[setup] Room isolation: socat, iproute2 and the user ${SANDBOX_USER} are present`);
  }
}
