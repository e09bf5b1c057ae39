// The real server for integration tests and browser journeys: its own database, a real SMTP listener, the
// built web app, listening on a random loopback port.
import { createTestDatabase } from '@rooms/db/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { parseEnv, type TConfig } from '../env';
import { startSmtpListener, type TSmtpListener } from './smtp-listener';
import { TEST_CAPTCHA_MAX_NUMBER } from './test-captcha';

export interface TTestServer {
  app: FastifyInstance;
  url: string;
  config: TConfig;
  smtp: TSmtpListener;
  close(): Promise<void>;
}

export interface TTestServerOptions {
  /** Extra environment, e.g. `{ CAPTCHA_PROVIDER: 'geetest', … }`. */
  env?: Record<string, string>;
  /** Listen on a port (browser journeys) or only serve `app.inject` (API tests). Default true. */
  listen?: boolean;
  /** The address to listen on: loopback unless a test reaches the server from a network namespace. */
  host?: string;
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
  const app = await buildApp(config, { logger: { level: config.logLevel } });
  let url = 'http://localhost';
  if (options.listen !== false) {
    // A random port unless the test names one (an agent must listen where its AGENT_ADDRESS says).
    await app.listen({ host: options.host ?? '127.0.0.1', port: config.port });
    const address = app.server.address();
    if (address && typeof address === 'object') url = `http://127.0.0.1:${address.port}`;
  } else {
    await app.ready();
  }
  return {
    app,
    url,
    config,
    smtp,
    async close() {
      await app.close();
      await smtp.close();
      await database.drop();
    },
  };
}
