// HTTPS served by the server itself: a given certificate answers, a renewed one written over the files is served
// without a restart (a broken one is refused and the served one stays), the plain-HTTP port sends browsers to
// HTTPS, an operator's mistake stops the server with one clear sentence, and certificates come from an ACME
// authority (Pebble, Let's Encrypt's test server, where it is installed) and are renewed in place.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SERVER_BUNDLE } from '../bundle';
import { SERVER_ROOT } from '../env';
import { hasPebble, startLocalAcme, type TLocalAcme } from '../testing/local-acme';
import { makeTestCertificate } from '../testing/test-certificates';
import { startTestServer, type TTestServer } from '../testing/test-server';
import { AcmeCertificates } from './acme-certificates';
import { TlsSetupError } from './certificate-pair';
import { openTlsServing } from './https-serving';
import { startPlainHttpListener } from './plain-http-listener';

const run = promisify(execFile);

/** The certificate a TLS handshake with host:port presents (not verified: the tests check which one it is). */
function servedCertificate(port: number, servername = 'localhost'): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      resolve(new X509Certificate(raw));
    });
    socket.on('error', reject);
  });
}

function get(url: string, ca: string): Promise<{ status: number; body: string; hsts?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          hsts: response.headers['strict-transport-security'],
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rooms-https-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('HTTPS from certificate files', () => {
  let server: TTestServer;
  let first: Awaited<ReturnType<typeof makeTestCertificate>>;
  const certFile = () => join(dir, 'fullchain.pem');
  const keyFile = () => join(dir, 'privkey.pem');

  beforeAll(async () => {
    first = await makeTestCertificate(['localhost', '127.0.0.1']);
    await writeFile(certFile(), first.cert);
    await writeFile(keyFile(), first.key);
    server = await startTestServer({
      env: { TLS_CERT_FILE: certFile(), TLS_KEY_FILE: keyFile(), HTTP_PORT: '0' },
      tlsPollMs: 100,
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('serves the app over HTTPS with the given certificate, and sends plain HTTP there', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const health = await get(`${server.url}/health`, first.cert);
    expect(health.status).toBe(200);
    const port = Number(new URL(server.url).port);
    expect((await servedCertificate(port)).fingerprint256).toBe(first.fingerprint);
    // Browsers are told to come back over HTTPS only.
    expect(health.hsts).toMatch(/max-age=\d+/);

    const plain = await fetch(`http://127.0.0.1:${server.tls?.plainHttp?.port}/room/abc?x=1`, {
      redirect: 'manual',
    });
    expect(plain.status).toBe(308);
    expect(plain.headers.get('location')).toBe(`https://127.0.0.1:${port}/room/abc?x=1`);
  });

  it('serves a renewed certificate written over the files without a restart, and keeps it over a broken one', async () => {
    const port = Number(new URL(server.url).port);
    const renewed = await makeTestCertificate(['localhost', '127.0.0.1']);
    // Written as a renewal tool does: the certificate first, the key a moment later.
    await writeFile(certFile(), renewed.cert);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await writeFile(keyFile(), renewed.key);
    await expect.poll(async () => (await servedCertificate(port)).fingerprint256).toBe(renewed.fingerprint);
    expect((await get(`${server.url}/health`, renewed.cert)).status).toBe(200);

    // A key of another certificate: refused, and the renewed pair is still what browsers get.
    const other = await makeTestCertificate(['localhost']);
    const errors = vi.spyOn(console, 'error');
    try {
      await writeFile(keyFile(), other.key);
      // Until the watch has read the files and said it keeps the served pair, rather than a fixed wait.
      await expect
        .poll(() => errors.mock.calls.some(([message]) => String(message).includes('are not used')))
        .toBe(true);
    } finally {
      errors.mockRestore();
    }
    expect((await servedCertificate(port)).fingerprint256).toBe(renewed.fingerprint);
  });
});

describe('an operator’s mistake in the TLS settings', () => {
  const config = (tls: { certFile: string; keyFile: string }) => ({
    tls: { kind: 'files' as const, ...tls, httpPort: undefined },
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'https://localhost',
    fixedUrls: { publicUrl: false, shareUrl: false },
  });
  const quiet = { info() {}, warn() {}, error() {} };

  it('says which file is missing, which is not PEM, and which key is not the certificate’s', async () => {
    const pair = await makeTestCertificate(['localhost']);
    const other = await makeTestCertificate(['localhost']);
    await writeFile(join(dir, 'good.crt'), pair.cert);
    await writeFile(join(dir, 'other.key'), other.key);
    await writeFile(join(dir, 'garbage.crt'), 'not a certificate');
    const attempt = (certFile: string, keyFile: string) =>
      openTlsServing(config({ certFile: join(dir, certFile), keyFile: join(dir, keyFile) }), quiet);
    await expect(attempt('missing.crt', 'other.key')).rejects.toThrow(
      new TlsSetupError(`cannot read TLS_CERT_FILE ${join(dir, 'missing.crt')}: no such file`),
    );
    await expect(attempt('garbage.crt', 'other.key')).rejects.toThrow(
      /garbage\.crt holds no PEM certificate/,
    );
    await expect(attempt('good.crt', 'other.key')).rejects.toThrow(
      `the private key in TLS_KEY_FILE ${join(dir, 'other.key')} does not belong to the certificate in TLS_CERT_FILE ${join(dir, 'good.crt')}`,
    );
  });

  it('stops `npm start` with one line, not a stack trace', async () => {
    const result = await run(process.execPath, [SERVER_BUNDLE], {
      cwd: SERVER_ROOT,
      env: {
        ...process.env,
        TLS_CERT_FILE: join(dir, 'missing.crt'),
        TLS_KEY_FILE: join(dir, 'missing.key'),
      },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `HTTPS cannot be served: cannot read TLS_CERT_FILE ${join(dir, 'missing.crt')}: no such file`,
    );
  });
});

describe.runIf(hasPebble())('HTTPS with certificates from an ACME authority', () => {
  let acme: TLocalAcme;

  beforeAll(async () => {
    acme = await startLocalAcme();
  });

  afterAll(async () => {
    await acme?.close();
  });

  it('orders a certificate over HTTP-01 before serving, keeps it across a restart, and renews it in place', async () => {
    const env = {
      ACME_DOMAINS: 'rooms.test',
      ACME_EMAIL: 'operator@example.com',
      ACME_DIRECTORY_URL: acme.directoryUrl,
      ACME_CA_FILE: acme.caFile,
      HTTP_PORT: String(acme.httpPort),
      PORT: '0',
      DATA_DIR: join(dir, 'data'),
    };
    const server = await startTestServer({ env });
    const port = Number(new URL(server.url).port);
    const issued = await servedCertificate(port, 'rooms.test');
    expect(issued.subjectAltName).toBe('DNS:rooms.test');
    expect(issued.issuer).toMatch(/Pebble/);
    await server.close();

    // A restart serves the kept certificate: nothing is ordered again.
    const again = await startTestServer({ env });
    expect((await servedCertificate(Number(new URL(again.url).port), 'rooms.test')).fingerprint256).toBe(
      issued.fingerprint256,
    );
    await again.close();

    // Renewal: a third of its lifetime left, a new certificate is ordered and the running server serves it.
    const challenges = new Map<string, string>();
    const challengeListener = await startPlainHttpListener({
      host: '127.0.0.1',
      port: acme.httpPort,
      challenges,
      httpsOrigin: null,
      httpsPort: () => 443,
    });
    const log = { info() {}, warn() {}, error: (message: string) => console.error(message) };
    const certificates = await AcmeCertificates.open({
      domains: ['rooms.test'],
      email: undefined,
      directoryUrl: acme.directoryUrl,
      caFile: acme.caFile,
      stateDir: join(dir, 'data', 'acme'),
      challenges,
      log,
    });
    const https = createServer({ cert: certificates.current.cert, key: certificates.current.key });
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
    certificates.start((pair) => https.setSecureContext({ cert: pair.cert, key: pair.key }));
    const httpsPort = (https.address() as { port: number }).port;
    const before = certificates.current;
    expect(await certificates.renewIfDue(new Date(before.notAfter.getTime() - 1000))).toBe(true);
    const after = await servedCertificate(httpsPort, 'rooms.test');
    expect(after.fingerprint256).not.toBe(before.fingerprint);
    expect(after.fingerprint256).toBe(certificates.current.fingerprint);
    certificates.stop();
    https.close();
    await challengeListener.close();
  });
});
