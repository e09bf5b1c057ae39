// The real server for integration tests and browser journeys: its own database, a real SMTP listener, the
// built web app, listening on a random loopback port.
import type { Server as TlsServer } from 'node:tls';
import { createTestDatabase } from '@rooms/db/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { parseEnv, type TConfig } from '../env';
import { openTlsServing, type TTlsServing } from '../tls/https-serving';
import { startSmtpListener, type TSmtpListener } from './smtp-listener';
import { TEST_CAPTCHA_MAX_NUMBER } from './test-captcha';

/** What the TLS side says goes to the test's output: a renewal swap or a refused file is worth seeing there. */
const consoleTlsLog = {
  info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

export interface TTestServer {
  app: FastifyInstance;
  url: string;
  config: TConfig;
  smtp: TSmtpListener;
  /** With TLS_CERT_FILE/TLS_KEY_FILE or ACME_DOMAINS in `env`: the HTTPS side, as server.ts runs it. */
  tls?: TTlsServing | null;
  close(): Promise<void>;
}

export interface TTestServerOptions {
  /** Extra environment, e.g. `{ CAPTCHA_PROVIDER: 'geetest', … }`. */
  env?: Record<string, string>;
  /** Listen on a port (browser journeys) or only serve `app.inject` (API tests). Default true. */
  listen?: boolean;
  /** The address to listen on: loopback unless a test reaches the server from a network namespace. */
  host?: string;
  /** How often certificate files are looked at, with TLS_CERT_FILE. */
  tlsPollMs?: number;
}

export async function startTestServer(options: TTestServerOptions = {}): Promise<TTestServer> {
  const [database, smtp] = await Promise.all([createTestDatabase(), startSmtpListener()]);
  // The test database's own ORM is not needed: the app opens its own, as in production.
  await database.orm.close();
  const config = parseEnv({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    SMTP_URL: smtp.url,
    APP_SECRET: 'test-secret-that-is-long-enough-for-hmac-keys',
    LOG_LEVEL: 'error',
    PORT: '0',
    // The billing job queue (pg-boss) starts only for the tests about it; the others would pay its start-up.
    BILLING_JOBS: 'off',
    // No browsers started ahead: each would cost a launch beside the test's own rooms (the engine's tests cover it).
    ROOM_WARM_POOL: '0',
    CAPTCHA_MAX_NUMBER: TEST_CAPTCHA_MAX_NUMBER,
    ...options.env,
  });
  const host = options.host ?? '127.0.0.1';
  const tls = await openTlsServing({ ...config, host }, consoleTlsLog, { pollMs: options.tlsPollMs });
  const app = await buildApp(config, {
    logger: { level: config.logLevel },
    ...(tls ? { https: tls.https } : {}),
  });
  if (tls) {
    tls.attach(app.server as unknown as TlsServer);
    app.addHook('onClose', () => tls.close());
  }
  let url = 'http://localhost';
  if (options.listen !== false) {
    // A random port unless the test names one (an agent must listen where its AGENT_ADDRESS says).
    await app.listen({ host, port: config.port });
    const address = app.server.address();
    const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    if (address && typeof address === 'object') url = `${tls ? 'https' : 'http'}://${shown}:${address.port}`;
  } else {
    await app.ready();
  }
  return {
    app,
    url,
    config,
    smtp,
    tls,
    async close() {
      await app.close();
      await smtp.close();
      await database.drop();
    },
  };
}
