// The room relay as a Fastify plugin, by the process's role: the control plane issues tickets; an agent holds the
// rooms' hubs and takes the sockets gateways forward; a gateway takes participants' sockets and forwards them; a
// single server (npm start) does all of it in one process. Wherever sockets end: a heartbeat that drops dead
// connections, and sockets closed when their session ends. `app.roomRelay`'s ports a test may replace.
import { resolveSession } from '@rooms/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TConfig } from '../env';
import { agentReporter } from '../fleet/agent-reports';
import { registerAgentRoutes } from '../fleet/agent-routes';
import { registerGateway } from '../fleet/gateway';
import { DownloadKeys } from '../rooms/hub/download-keys';
import { createPostgresOnceStore } from '../services/once-store';
import { allowedOrigins } from './allowed-origins';
import { databaseLiveSessions, databaseRoomDirectory, engineLink } from './default-ports';
import { registerSocketHandlers } from './registry';
import type { RoomDirectory, RoomLink, TRelayRoom } from './relay-ports';
import { registerRoomDownloadRoute } from './room-download-route';
import { RoomRelay } from './room-relay';
import type { TSocketAuthDeps } from './socket-auth';
import { TicketBook } from './ticket';
import { registerTicketRoute } from './ticket-route';
import { tokenEntry } from './token-entry';

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
    const { role, appSecret } = options.config;
    const spentTickets = createPostgresOnceStore(app.orm);
    const liveSessions = databaseLiveSessions(app.orm, app.services.now);
    const originAllowed = allowedOrigins(options.config);
    const auth = (
      tickets: TicketBook,
      findRoom: (roomId: string) => Promise<TRelayRoom | null>,
    ): TSocketAuthDeps => ({
      tickets,
      originAllowed,
      tokenEntry: tokenEntry(findRoom, app.services.rateLimiter),
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
    });

    if (role === 'gateway') {
      // The control plane on the private network when given (CONTROL_URL), else at the install's address.
      const controlUrl = options.config.controlUrl ?? options.config.publicUrl;
      // Its calls to agents and reports to the control plane carry the credential it enrolled for.
      const caller = app.fleetAuth.caller;
      if (!caller)
        throw new Error('a gateway needs its join token (FLEET_GATEWAY_JOIN_TOKEN) to reach agents');
      registerGateway(app, {
        orm: app.orm,
        auth: auth(
          new TicketBook(appSecret, spentTickets),
          databaseRoomDirectory(app.orm, app.services.now).find,
        ),
        caller,
        reportAgent: agentReporter(controlUrl, caller, app.log),
        downloadKeys: new DownloadKeys(appSecret),
      });
      dropDeadSockets(app);
      return;
    }

    const relay = new RoomRelay({
      appSecret,
      spentTickets,
      directory: options.directory ?? databaseRoomDirectory(app.orm, app.services.now),
      // The control plane runs no rooms: its relay only issues tickets.
      link: options.link ?? (app.hasDecorator('roomEngine') ? engineLink(app.roomEngine) : NO_ROOMS),
      rateLimiter: app.services.rateLimiter,
      log: app.log,
    });
    app.decorate('roomRelay', relay);
    if (role === 'all' || role === 'control') registerTicketRoute(app, relay);
    if (role === 'control') return;
    if (role === 'agent') registerAgentRoutes(app, { runs: app.agentRuns, relay, auth: app.fleetAuth });
    else
      registerSocketHandlers(app, {
        relay,
        log: app.log,
        // Through the relay: a test that points it at other room data is answered from that data.
        auth: auth(relay.tickets, (roomId) => relay.findRoom(roomId)),
      });
    // Where the hubs are, beside their sockets: a controller saves a room's download (an agent's gateways serve the
    // same path and fetch the file from it: fleet/gateway-downloads.ts).
    if (role === 'all') registerRoomDownloadRoute(app, relay);
    dropDeadSockets(app);

    const stopListening = app.sessionEvents.subscribe((end) => relay.connections.endSessions(end));
    const recheck = setInterval(() => {
      relay.connections.recheckSessions(liveSessions).catch((error: unknown) => {
        app.log.warn({ err: error }, 'room sockets: session re-check failed');
      });
    }, SESSION_RECHECK_MS);
    recheck.unref();

    app.addHook('preClose', async () => {
      clearInterval(recheck);
      stopListening();
      // Already told and closed by app.ts's earlier pre-close when the server shuts down; this stops the rest.
      relay.dispose();
    });
  },
  { name: 'room-relay', dependencies: ['database', 'services', '@fastify/websocket'] },
);

/** A connection that has not answered a ping within HEARTBEAT_MS is gone (laptop closed, network lost). */
function dropDeadSockets(app: FastifyInstance): void {
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
  app.addHook('preClose', async () => clearInterval(heartbeat));
}

/** The ports of a process that runs no rooms. */
const NO_ROOMS: RoomLink = { session: () => undefined, participantsChanged: () => {} };
