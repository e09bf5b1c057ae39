// Keeps each room's stored state equal to what this agent's engine says about its browser. The dashboard reads
// the database, so without this a crash or an auto-close would go unseen. The stops of a shutdown are not stored:
// the agent leaves the fleet, its runs are lost, and the control plane starts those rooms again (fleet-duties.ts).
// It writes through packages/api's domains/rooms/room-state.ts, the one writer of rooms.state.
import type { MikroORM } from '@mikro-orm/postgresql';
import { type RoomEngine, storeRoomStates, storeRunState, type TRoomRuntimeState } from '@rooms/api';
import { Room } from '@rooms/db';

interface TSyncLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface TRoomStateSyncOptions {
  orm: MikroORM;
  engine: RoomEngine;
  logger: TSyncLogger;
  /**
   * The epoch of the room's latest run on this agent (0 when it never ran under a run). A state is stored only
   * while the room has no newer run, so an agent the fleet gave up on never overwrites the new agent's word.
   */
  epochOf?: (roomId: string) => number;
  /**
   * Whether to correct, at start, every stored live room this engine does not run: right when this process is
   * the only agent (npm start), never when other agents run rooms of the same database.
   */
  reconcile?: boolean;
  /**
   * Told of the rooms whose state was just stored (in this process, at once: the rows' trigger tells every
   * process too, but its notice arrives moments later, and a dashboard polling here must not read the old state).
   */
  stored?: (roomIds: string[]) => void;
}

export interface RoomStateSync {
  /** Resolves once every state change seen so far is stored (tests, shutdown). */
  settled(): Promise<void>;
  /** Stops listening after the pending writes are stored. */
  close(): Promise<void>;
}

/**
 * Reconciles the stored states with the engine (at a server start the engine runs nothing, so every room of
 * this node that looks live is marked with the engine's answer: stopped), then follows the engine's changes.
 * Writes run one after another in the order the engine reported them, so the last stored state is the last one
 * reported.
 */
export async function startRoomStateSync(options: TRoomStateSyncOptions): Promise<RoomStateSync> {
  const { orm, engine, logger } = options;
  let tail: Promise<void> = Promise.resolve();
  const enqueue = (label: string, write: () => Promise<void>) => {
    tail = tail
      .then(write)
      .catch((error: unknown) => logger.error({ err: error }, `room state sync: ${label}`));
    return tail;
  };

  // Listening before reconciling, and reconciling on the same queue, leaves no gap for a change to slip through.
  const unsubscribe = engine.onStateChange((change) => {
    // A room stopped because this server shuts down stays stored as running: it comes back with the server.
    if (change.ending?.reason === 'server-restart' && change.state !== 'running') return;
    void enqueue(`storing ${change.state} for room ${change.roomId}`, async () => {
      const epoch = options.epochOf?.(change.roomId) ?? 0;
      await storeRunState(orm.em.fork(), change.roomId, change.state, epoch);
      options.stored?.([change.roomId]);
    });
  });

  if (options.reconcile === false) {
    return { settled: () => tail, close: async () => unsubscribe() };
  }
  await enqueue('reconciling at start', async () => {
    const em = orm.em.fork();
    const live = await em.find(Room, { state: { $ne: 'stopped' } }, { fields: ['id', 'state'] });
    const corrections = new Map<TRoomRuntimeState, string[]>();
    for (const room of live) {
      const truth = engine.state(room.id);
      if (truth !== room.state) corrections.set(truth, [...(corrections.get(truth) ?? []), room.id]);
    }
    for (const [state, ids] of corrections) {
      await storeRoomStates(em, ids, state);
      options.stored?.(ids);
      logger.info({ state, rooms: ids.length }, 'room states corrected to what this node runs');
    }
  });

  return {
    settled: () => tail,
    async close() {
      unsubscribe();
      await tail;
    },
  };
}
