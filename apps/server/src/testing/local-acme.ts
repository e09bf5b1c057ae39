// A local ACME certificate authority for tests: Pebble, Let's Encrypt's test server (Debian's `pebble`, which
// scripts/setup.mjs installs), with its companion answering DNS so that any name resolves to this machine. Pebble
// then checks each HTTP-01 challenge on loopback at `httpPort`, where the server under test must answer.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@rooms/db';
import { makeTestCertificate } from './test-certificates';

export interface TLocalAcme {
  directoryUrl: string;
  /** The certificate of Pebble's own HTTPS (ACME_CA_FILE). */
  caFile: string;
  /** Where Pebble fetches HTTP-01 challenges from (HTTP_PORT). */
  httpPort: number;
  close(): Promise<void>;
}

export function hasPebble(): boolean {
  return ['/usr/bin/pebble', '/usr/bin/pebble-challtestsrv'].every((path) => existsSync(path));
}

export async function startLocalAcme(): Promise<TLocalAcme> {
  const dir = await mkdtemp(join(tmpdir(), 'rooms-pebble-'));
  const [listen, management, httpPort, tlsPort, dnsPort, dnsManagement] = (await Promise.all(
    Array.from({ length: 6 }, () => freePort()),
  )) as [number, number, number, number, number, number];
  const tls = await makeTestCertificate(['localhost', '127.0.0.1']);
  const caFile = join(dir, 'pebble.crt');
  await writeFile(caFile, tls.cert);
  await writeFile(join(dir, 'pebble.key'), tls.key);
  await writeFile(
    join(dir, 'pebble.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${listen}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: join(dir, 'pebble.crt'),
        privateKey: join(dir, 'pebble.key'),
        httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const children: ChildProcess[] = [];
  let output = '';
  const started = (command: string, args: string[], env: Record<string, string> = {}) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const note = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    child.stdout?.on('data', note);
    child.stderr?.on('data', note);
    children.push(child);
  };
  // DNS only: every A query answers 127.0.0.1, and no AAAA answer sends Pebble to ::1, where nothing listens.
  started('pebble-challtestsrv', [
    '-dns01',
    `127.0.0.1:${dnsPort}`,
    '-http01',
    '',
    '-https01',
    '',
    '-tlsalpn01',
    '',
    '-management',
    `127.0.0.1:${dnsManagement}`,
    '-defaultIPv6',
    '',
  ]);
  // No random sleeps before validation, no nonces refused on purpose: a test wants the happy path, fast.
  started('pebble', ['-config', join(dir, 'pebble.json'), '-dnsserver', `127.0.0.1:${dnsPort}`], {
    PEBBLE_VA_NOSLEEP: '1',
    PEBBLE_WFE_NONCEREJECT: '0',
  });
  const close = async () => {
    for (const child of children) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  };
  const directoryUrl = `https://127.0.0.1:${listen}/dir`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const probe = request(directoryUrl, { agent: new Agent({ ca: tls.cert }) }, (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      });
      probe.on('error', () => resolve(false));
      probe.end();
    });
    if (ok) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`Pebble did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { directoryUrl, caFile, httpPort, close };
}
