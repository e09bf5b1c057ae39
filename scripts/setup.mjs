// Runs after `npm install`: makes sure the system packages the room engine drives are present.
// Chromium comes from the operating system (Playwright's own browser download cannot be used here);
// as root on Debian/Ubuntu we install it, otherwise we say exactly what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SKIP = process.env.ROOMS_SKIP_SETUP === '1';
const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  Boolean,
);

function findChromium() {
  return candidates.find((path) => existsSync(path));
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
  if (!findChromium()) {
    const installed = isRoot() && hasApt() && aptInstall(['chromium', 'fonts-noto-cjk']);
    if (!installed || !findChromium()) {
      console.error(
        [
          '[setup] Chromium is required to run rooms and the browser tests, and it is not installed.',
          '        Install it with:   sudo apt-get install -y chromium fonts-noto-cjk',
          '        or point CHROMIUM_PATH at an existing Chromium binary, then run `npm install` again.',
        ].join('\n'),
      );
      process.exit(1);
    }
  }
  console.log(`[setup] Chromium: ${findChromium()}`);
}
