// An agent running as an Agones GameServer: Ready once it serves, health pings while it lives, its room slots (the
// `rooms` Counter) kept true while rooms come and go (room-slots.ts), and Shutdown when the agent stops.
import type { FastifyInstance } from 'fastify';
import { startAgonesLifecycle } from './agones-sdk';
import { keepRoomSlots } from './room-slots';

export interface TGameServerOptions {
  sdkPort: number;
  /** The agent's room slots (ROOM_CAPACITY). */
  capacity: number;
  /** Rooms running here. */
  rooms: () => number;
}

export function driveGameServer(app: FastifyInstance, options: TGameServerOptions): void {
  const gameServer = startAgonesLifecycle({ sdkPort: options.sdkPort, log: app.log });
  const stopSlots = keepRoomSlots({
    lifecycle: gameServer,
    capacity: options.capacity,
    rooms: options.rooms,
    log: app.log,
  });
  app.addHook('onReady', async () => {
    gameServer
      .ready()
      .catch((error: unknown) => app.log.error({ err: error }, 'Agones never took the agent as Ready'));
  });
  app.addHook('onClose', async () => {
    stopSlots();
    await gameServer.close();
  });
}
