// Self-signed certificates made at test time with the machine's openssl: a test's HTTPS server, a renewal of it,
// or the HTTPS of a local ACME authority. Nothing here is trusted by anyone but the test that made it.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TTestCertificate {
  cert: string;
  key: string;
  fingerprint: string;
}

/** A P-256 certificate for `names` (DNS names or IP addresses), valid from now for `days`. */
export async function makeTestCertificate(names: string[], days = 2): Promise<TTestCertificate> {
  const dir = await mkdtemp(join(tmpdir(), 'rooms-cert-'));
  try {
    const san = names.map((name) => (/^[\d.]+$|:/.test(name) ? `IP:${name}` : `DNS:${name}`)).join(',');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      String(days),
      '-subj',
      `/CN=${names[0] ?? 'rooms test'}`,
      '-addext',
      `subjectAltName=${san}`,
    ]);
    const [cert, key] = await Promise.all([
      readFile(join(dir, 'cert.pem'), 'utf8'),
      readFile(join(dir, 'key.pem'), 'utf8'),
    ]);
    return { cert, key, fingerprint: new X509Certificate(cert).fingerprint256 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
