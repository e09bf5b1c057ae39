// What a WebSocket handler is: a path, a check before the upgrade, and what to do with the socket. The room's public
// socket (here, and on a gateway, which forwards it) and an agent's socket for gateways are all defined this way,
// each with the dependencies it needs.
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { RoomRelay } from './room-relay';
import type { TSocketAuthDeps } from './socket-auth';

export interface TSocketDeps {
  relay: RoomRelay;
  auth: TSocketAuthDeps;
  log: FastifyBaseLogger;
}

export type TAuthResult<TContext> =
  | { ok: true; context: TContext }
  | { ok: false; status: 400 | 401 | 403 | 404 | 429; message: string };

export interface TSocketHandler<TContext, TDeps = TSocketDeps> {
  /** A Fastify route path, e.g. `/ws/room/:roomId`. */
  path: string;
  authenticate(request: FastifyRequest, deps: TDeps): Promise<TAuthResult<TContext>>;
  /** Must attach its message listener synchronously: messages sent right after the upgrade are not replayed. */
  handle(socket: WebSocket, request: FastifyRequest, context: TContext, deps: TDeps): void;
}

export interface TRegisteredSocketHandler<TDeps = TSocketDeps> {
  path: string;
  register(app: FastifyInstance, deps: TDeps): void;
}

/** Keeps each handler's context type between its authenticate and handle, behind one registrable shape. */
export function defineSocketHandler<TContext, TDeps = TSocketDeps>(
  handler: TSocketHandler<TContext, TDeps>,
): TRegisteredSocketHandler<TDeps> {
  return {
    path: handler.path,
    register(app, deps) {
      const contexts = new WeakMap<FastifyRequest, TContext>();
      app.route({
        method: 'GET',
        url: handler.path,
        websocket: true,
        preValidation: async (request, reply) => {
          const result = await handler.authenticate(request, deps);
          if (!result.ok) return reply.code(result.status).send({ msg: 'error', data: result.message });
          contexts.set(request, result.context);
        },
        // A plain HTTP GET (no upgrade header) is answered by @fastify/websocket with 404 before reaching here.
        handler: (socket, request) => {
          const context = contexts.get(request);
          if (context === undefined) {
            socket.close(1011, 'unauthenticated');
            return;
          }
          handler.handle(socket, request, context, deps);
        },
      });
    },
  };
}
