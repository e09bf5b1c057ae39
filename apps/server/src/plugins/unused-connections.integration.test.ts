// A closing server ends the connections that never carried a request (an HTTP client's spare one) at once, as Node
// ends the idle keep-alive ones, instead of waiting ~70 s for their header deadline: over HTTP and over HTTPS.
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { makeTestCertificate } from '../testing/test-certificates';
import { startTestServer, type TTestServer } from '../testing/test-server';

/** Closes `server`, failing long before Node's own deadline for an unused connection would end it. */
async function closeSoon(server: TTestServer) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('the server waited for an unused connection')), 20_000);
  });
  try {
    await Promise.race([server.close(), late]);
  } finally {
    clearTimeout(timer);
  }
}

const ended = (socket: Socket) => (socket.destroyed ? Promise.resolve() : once(socket, 'close'));

describe('a closing server', () => {
  it('ends a connection that never carried a request, and one that had its answer', async () => {
    const server = await startTestServer();
    const { port } = new URL(server.url);
    const unused = connect(Number(port), '127.0.0.1');
    await once(unused, 'connect');
    unused.on('error', () => {});
    // A connection that carried a request and is idle now (Node's own case).
    const asking = connect(Number(port), '127.0.0.1');
    await once(asking, 'connect');
    let answer = '';
    asking.on('data', (chunk) => {
      answer += chunk;
    });
    asking.write('GET /healthz HTTP/1.1\r\nhost: localhost\r\n\r\n');
    await expect.poll(() => answer).toContain('"status":"ok"');
    await closeSoon(server);
    await Promise.all([ended(unused), ended(asking)]);
  }, 30_000);

  it('ends an unused connection over HTTPS too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rooms-unused-'));
    const certificate = await makeTestCertificate(['localhost', '127.0.0.1']);
    await writeFile(join(dir, 'cert.pem'), certificate.cert);
    await writeFile(join(dir, 'key.pem'), certificate.key);
    const server = await startTestServer({
      env: { TLS_CERT_FILE: join(dir, 'cert.pem'), TLS_KEY_FILE: join(dir, 'key.pem') },
    });
    try {
      const unused = connectTls({
        port: Number(new URL(server.url).port),
        host: '127.0.0.1',
        rejectUnauthorized: false,
      });
      await once(unused, 'secureConnect');
      unused.on('error', () => {});
      await closeSoon(server);
      await ended(unused);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
