// The server's one registry of WebSocket handlers, one file per handler beside this one (steel-browser's
// browser-socket/ layout). Each handler decides before the upgrade who may connect, so refused clients get a
// plain HTTP status and never a socket.
import type { FastifyInstance } from 'fastify';
import { roomSocketHandler } from './room-socket';
import type { TRegisteredSocketHandler, TSocketDeps } from './socket-handler';

export const socketHandlers: readonly TRegisteredSocketHandler[] = [roomSocketHandler];

export function registerSocketHandlers(app: FastifyInstance, deps: TSocketDeps): void {
  for (const handler of socketHandlers) handler.register(app, deps);
}
