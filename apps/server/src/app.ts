// The whole server as one Fastify plugin tree; server.ts listens, tests call buildApp() and inject or listen on
// port 0.
import websocket from '@fastify/websocket';
import { describeError, isDatabaseOutage } from '@rooms/api';
import Fastify, { type FastifyInstance } from 'fastify';
import { type DestinationStream, destination } from 'pino';
import type { TConfig } from './env';
import { registerControlRoutes } from './fleet/control-routes';
import { redactQuerySecrets, serializeError } from './log-redaction';
import { databasePlugin } from './plugins/database';
import { devMailboxPlugin } from './plugins/dev-mailbox';
import { healthPlugin } from './plugins/health';
import { metricsPlugin } from './plugins/metrics';
import { paymentsPlugin } from './plugins/payments';
import { restPlugin } from './plugins/rest';
import { roomThumbnailsPlugin } from './plugins/room-thumbnails';
import { securityHeadersPlugin } from './plugins/security-headers';
import { servicesPlugin } from './plugins/services';
import { trpcPlugin } from './plugins/trpc';
import { endUnusedConnectionsOnClose } from './plugins/unused-connections';
import { webAppPlugin } from './plugins/web-app';
import { roomRelayPlugin } from './ws/room-relay-plugin';

export const APP_VERSION = '1.0.0';

export interface TBuildOptions {
  /** No logs at all, or another level or destination than the configuration's (tests). */
  logger?: false | { level?: string; stream?: DestinationStream };
  /** Serve HTTPS with this certificate (tls/https-serving.ts replaces it on renewal); plain HTTP without. */
  https?: { cert: string; key: string };
}

export async function buildApp(config: TConfig, options: TBuildOptions = {}): Promise<FastifyInstance> {
  // Typed as the plain-HTTP instance: what the plugins use of the server (upgrades, addresses) is the same on a
  // tls.Server, and only tls/https-serving.ts touches the TLS side.
  const app = Fastify({
    ...(options.https ? { https: options.https } : {}),
    logger:
      options.logger === false
        ? false
        : {
            level: options.logger?.level ?? config.logLevel,
            // Lines leave asynchronously: while one write is on its way the next lines gather behind it, so a busy
            // server does not pay a write syscall per request line. Pino flushes what is left when the process exits.
            stream: options.logger?.stream ?? destination({ dest: 1, sync: false }),
            // Scripts may pass a token, ticket, password or code in the query string; it must not reach the logs.
            serializers: {
              req: (request: { method: string; url: string; ip?: string }) => ({
                method: request.method,
                url: redactQuerySecrets(request.url),
                remoteAddress: request.ip,
              }),
              err: serializeError,
            },
          },
    trustProxy: config.trustProxy > 0 ? config.trustProxy : false,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 512 },
    disableRequestLogging: config.nodeEnv === 'test',
    // Fastify gives a plugin 10 s: a first start's embedded PostgreSQL (initdb, then every migration) takes longer on
    // a busy machine, and the server then refused to start. Each step of it has its own limit.
    pluginTimeout: 120_000,
  });

  endUnusedConnectionsOnClose(app, { tls: Boolean(options.https) });

  // Fastify's own rejections (bad JSON, oversized body) answer in the API's envelope with the right status.
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    // The database out of reach (a route's session lookup, the ticket route…): 503, try again, not a bug.
    if (isDatabaseOutage(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).send({ msg: 'error', data: describeError(error).message });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    const data =
      status >= 500 ? 'Unknown error' : status === 400 ? `Request error: ${error.message}` : error.message;
    return reply.code(status).send({ msg: 'error', data });
  });

  // First, so that every answer carries the headers, the web app's files and the API's errors alike.
  await app.register(securityHeadersPlugin, { config });
  await app.register(databasePlugin, { config });
  await app.register(servicesPlugin, { config });
  // Registered before the WebSocket library, whose own pre-close shuts every socket without a word: the relay first
  // tells its participants that the server is restarting, so their pages wait and join the room when it is back.
  app.addHook('preClose', async () => {
    if (app.hasDecorator('roomRelay')) app.roomRelay.dispose({ reason: 'server-restart', by: null });
  });
  // Room messages are small; refuse anything bigger before it is buffered (the library's default is 100 MiB).
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    // A client breaking the WebSocket protocol (an oversized or malformed frame) is the client's mistake: the
    // library has already sent the close code that says why (1009, 1002…), so it is noted, not logged as ours.
    errorHandler(error, socket, request) {
      if (String((error as { code?: unknown }).code ?? '').startsWith('WS_ERR_')) {
        request.log.debug({ err: error }, 'room socket: protocol error from the client');
        return;
      }
      request.log.error({ err: error }, 'room socket failed');
      socket.terminate();
    },
  });
  await app.register(roomRelayPlugin, { config });
  await app.register(healthPlugin);
  await app.register(metricsPlugin, { config });
  // Agents and gateways serve the install's other processes and the participants' sockets, nothing else.
  if (config.role === 'agent' || config.role === 'gateway') return app;
  registerControlRoutes(app, {
    sink: app.fleetHeartbeats.beat,
    notices: app.sessionEvents,
    auth: app.fleetAuth,
    orm: app.orm,
  });
  await app.register(trpcPlugin);
  await app.register(restPlugin, { config, version: APP_VERSION });
  await app.register(paymentsPlugin, { config });
  await app.register(roomThumbnailsPlugin);
  if (config.devMailbox) await app.register(devMailboxPlugin);
  else if (config.nodeEnv !== 'production' && !config.smtpUrl)
    app.log.info(
      'no SMTP_URL: e-mail is kept and printed in this log; DEV_MAILBOX=on also shows it at /dev/mailbox',
    );
  await app.register(webAppPlugin, { webDist: config.webDist });
  return app;
}
