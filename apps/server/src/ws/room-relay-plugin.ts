// The room relay as a Fastify plugin: the ticket route, the WebSocket handlers of ./registry, a heartbeat that
// drops dead connections, sockets closed when their session ends, and `app.roomRelay` (whose ports a test or
// another engine may replace).
import { resolveSession } from '@rooms/api';
import fp from 'fastify-plugin';
import type { TConfig } from '../env';
import { databaseLiveSessions, databaseRoomDirectory, engineLink } from './default-ports';
import { registerSocketHandlers } from './registry';
import type { RoomDirectory, RoomLink } from './relay-ports';
import { RoomRelay } from './room-relay';
import { registerTicketRoute } from './ticket-route';

declare module 'fastify' {
  interface FastifyInstance {
    roomRelay: RoomRelay;
  }
}

export interface TRoomRelayPluginOptions {
  config: TConfig;
  directory?: RoomDirectory;
  link?: RoomLink;
}

/** A connection that has not answered a ping within this long is gone (laptop closed, network lost). */
const HEARTBEAT_MS = 30_000;
/**
 * Session ends reach the sockets at once through app.sessionEvents; this re-check is the safety net for what it
 * cannot see: a notification lost while the database connection was down, a session that simply expired.
 */
const SESSION_RECHECK_MS = 60_000;

export const roomRelayPlugin = fp(
  async (app, options: TRoomRelayPluginOptions) => {
    const relay = new RoomRelay({
      appSecret: options.config.appSecret,
      directory: options.directory ?? databaseRoomDirectory(app.orm),
      link: options.link ?? engineLink(app.roomEngine),
      rateLimiter: app.services.rateLimiter,
      log: app.log,
    });
    app.decorate('roomRelay', relay);

    const liveSessions = databaseLiveSessions(app.orm, app.services.now);
    registerTicketRoute(app, relay);
    registerSocketHandlers(app, {
      relay,
      log: app.log,
      auth: {
        tickets: relay.tickets,
        publicUrl: options.config.publicUrl,
        now: Date.now,
        async sessionOfToken(token) {
          const session = await resolveSession(
            app.orm.em.fork(),
            token,
            app.services.now(),
            app.services.sessionCache,
          );
          return session ? { userId: session.user.id, sessionId: session.sessionId } : null;
        },
        liveSessions,
      },
    });

    const alive = new WeakSet<object>();
    const heartbeat = setInterval(() => {
      for (const socket of app.websocketServer.clients) {
        if (!alive.has(socket)) {
          socket.terminate();
          continue;
        }
        alive.delete(socket);
        socket.ping();
      }
    }, HEARTBEAT_MS);
    heartbeat.unref();
    app.websocketServer.on('connection', (socket) => {
      alive.add(socket);
      socket.on('pong', () => alive.add(socket));
    });

    const stopListening = app.sessionEvents.subscribe((end) => relay.connections.endSessions(end));
    const recheck = setInterval(() => {
      relay.connections.recheckSessions(liveSessions).catch((error: unknown) => {
        app.log.warn({ err: error }, 'room sockets: session re-check failed');
      });
    }, SESSION_RECHECK_MS);
    recheck.unref();

    app.addHook('preClose', async () => {
      clearInterval(heartbeat);
      clearInterval(recheck);
      stopListening();
      // Already told and closed by app.ts's earlier pre-close when the server shuts down; this stops the rest.
      relay.dispose();
    });
  },
  { name: 'room-relay', dependencies: ['database', 'services', '@fastify/websocket'] },
);
