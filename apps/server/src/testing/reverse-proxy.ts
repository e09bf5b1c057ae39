// The README's reverse-proxy examples (deploy/proxy) run for a test: each file as an operator copies it, with only
// the addresses changed (the proxy's ports, the app's port, a test certificate), so what is checked is the example
// itself. The proxies come from Debian's packages (scripts/setup.mjs installs them); tests skip a missing one.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@rooms/db';
import { REPO_ROOT } from '../env';
import type { TTestCertificate } from './test-certificates';

export const PROXY_EXAMPLES = join(REPO_ROOT, 'deploy/proxy');

export interface TRunningProxy {
  /** https://localhost:port, the proxy's TLS side under the name its certificate (and Caddy's site) has. */
  url: string;
  close(): Promise<void>;
}

export function onPath(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/** Replaces `from` in the example, failing loudly if the example no longer has it (the test would test nothing). */
function substitute(text: string, from: string | RegExp, to: string, file: string): string {
  const replaced = text.replace(from, to);
  if (replaced === text)
    throw new Error(`${file} no longer contains ${from}: update the test's substitutions`);
  return replaced;
}

async function started(name: string, child: ChildProcess, url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const probe = request(url, { rejectUnauthorized: false }, (response) => {
        response.resume();
        resolve(true);
      });
      probe.on('error', () => resolve(false));
      probe.end();
    });
    if (up) return;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not start:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function spawnLogged(command: string, args: string[], env: Record<string, string> = {}) {
  let output = '';
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const note = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', note);
  child.stderr?.on('data', note);
  return { child, output: () => output };
}

/** deploy/proxy/nginx.conf in front of the app on 127.0.0.1:`appPort`, with `certificate` for its HTTPS. */
export async function startNginx(appPort: number, certificate: TTestCertificate): Promise<TRunningProxy> {
  const dir = await mkdtemp(join(tmpdir(), 'rooms-nginx-'));
  const [httpPort, tlsPort] = await Promise.all([freePort(), freePort()]);
  const file = 'deploy/proxy/nginx.conf';
  let site = await readFile(join(PROXY_EXAMPLES, 'nginx.conf'), 'utf8');
  site = substitute(site, 'server 127.0.0.1:3000;', `server 127.0.0.1:${appPort};`, file);
  site = substitute(site, /^\s*listen \[::\]:.*\n/gm, '', file);
  site = substitute(site, 'listen 80;', `listen 127.0.0.1:${httpPort};`, file);
  site = substitute(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${tlsPort} ssl http2;`, file);
  site = substitute(site, /ssl_certificate \S+;/, `ssl_certificate ${join(dir, 'cert.pem')};`, file);
  site = substitute(site, /ssl_certificate_key \S+;/, `ssl_certificate_key ${join(dir, 'key.pem')};`, file);
  await writeFile(join(dir, 'cert.pem'), certificate.cert);
  await writeFile(join(dir, 'key.pem'), certificate.key);
  await writeFile(join(dir, 'rooms.conf'), site);
  await mkdir(join(dir, 'temp'));
  // What /etc/nginx/nginx.conf gives the site on Debian, in the test's own folder; workers as root so that they
  // write their temporary files there.
  await writeFile(
    join(dir, 'nginx.conf'),
    `daemon off;
user root;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
	access_log off;
	client_body_temp_path ${join(dir, 'temp/body')};
	proxy_temp_path ${join(dir, 'temp/proxy')};
	fastcgi_temp_path ${join(dir, 'temp/fastcgi')};
	uwsgi_temp_path ${join(dir, 'temp/uwsgi')};
	scgi_temp_path ${join(dir, 'temp/scgi')};
	include ${join(dir, 'rooms.conf')};
}
`,
  );
  const { child, output } = spawnLogged('nginx', [
    '-p',
    dir,
    '-c',
    join(dir, 'nginx.conf'),
    '-e',
    join(dir, 'error.log'),
  ]);
  return running('nginx', child, output, tlsPort, dir);
}

/** deploy/proxy/Caddyfile in front of the app on 127.0.0.1:`appPort`, for `localhost` with Caddy's own local CA. */
export async function startCaddy(appPort: number): Promise<TRunningProxy> {
  const dir = await mkdtemp(join(tmpdir(), 'rooms-caddy-'));
  const [httpPort, tlsPort] = await Promise.all([freePort(), freePort()]);
  const file = 'deploy/proxy/Caddyfile';
  let site = await readFile(join(PROXY_EXAMPLES, 'Caddyfile'), 'utf8');
  site = substitute(site, 'reverse_proxy 127.0.0.1:3000', `reverse_proxy 127.0.0.1:${appPort}`, file);
  // localhost instead of the public name: Caddy then issues the certificate from its own local authority, as it
  // would get one from Let's Encrypt for a public name; no ACME authority is reachable from a test.
  site = substitute(site, /^rooms\.example\.com \{/m, `localhost:${tlsPort} {`, file);
  const caddyfile = `{
	admin off
	skip_install_trust
	http_port ${httpPort}
	https_port ${tlsPort}
	storage file_system ${join(dir, 'data')}
}

${site}`;
  await writeFile(join(dir, 'Caddyfile'), caddyfile);
  const { child, output } = spawnLogged(
    'caddy',
    ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'],
    {
      HOME: dir,
      XDG_DATA_HOME: join(dir, 'data'),
      XDG_CONFIG_HOME: join(dir, 'config'),
    },
  );
  return running('caddy', child, output, tlsPort, dir);
}

/** The proxy once it answers on its HTTPS port; closing it stops it and removes its directory. */
async function running(
  name: string,
  child: ReturnType<typeof spawnLogged>['child'],
  output: ReturnType<typeof spawnLogged>['output'],
  tlsPort: number,
  dir: string,
): Promise<TRunningProxy> {
  const url = `https://localhost:${tlsPort}`;
  await started(name, child, `${url}/healthz`, output);
  return {
    url,
    async close() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
