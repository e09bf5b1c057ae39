// The whole server as one Fastify plugin tree; server.ts listens, tests call buildApp() and inject or listen on
// port 0.
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TConfig } from './env';
import { databasePlugin } from './plugins/database';
import { devMailboxPlugin } from './plugins/dev-mailbox';
import { healthPlugin } from './plugins/health';
import { restPlugin } from './plugins/rest';
import { servicesPlugin } from './plugins/services';
import { trpcPlugin } from './plugins/trpc';
import { webAppPlugin } from './plugins/web-app';

export const APP_VERSION = '1.0.0';

export interface TBuildOptions {
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(config: TConfig, options: TBuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 512 },
    disableRequestLogging: config.nodeEnv === 'test',
  });

  // Fastify's own rejections (bad JSON, oversized body) answer in the API's envelope with the right status.
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    const data =
      status >= 500 ? 'Unknown error' : status === 400 ? `Request error: ${error.message}` : error.message;
    return reply.code(status).send({ msg: 'error', data });
  });

  await app.register(databasePlugin, { config });
  await app.register(servicesPlugin, { config });
  await app.register(websocket);
  await app.register(healthPlugin);
  await app.register(trpcPlugin);
  await app.register(restPlugin, { config, version: APP_VERSION });
  if (config.nodeEnv !== 'production' && !config.smtpUrl) await app.register(devMailboxPlugin);
  await app.register(webAppPlugin, { webDist: config.webDist });
  return app;
}
