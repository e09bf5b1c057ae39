// Keeps each room's stored state equal to what this server's engine says about its browser. The dashboard reads
// the database, so without this a crash or an auto-close would go unseen, and a node that restarted would still
// show the rooms it ran before as "running". Those rooms are the ones it resumes (services.ts): the stops of a
// shutdown are not stored, so a restarted server finds its rooms as it left them.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { RoomEngine, TRoomRuntimeState } from '@rooms/api';
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
   * The regions whose rooms this node runs. Unset: every room (one node serves the whole install). With several
   * nodes, each must name its own, or one node's start would mark another's running rooms stopped.
   */
  regionCodes?: readonly string[];
  /**
   * Told of the rooms whose state was just stored (in this process, at once: the rows' trigger tells every
   * process too, but its notice arrives moments later, and a dashboard polling here must not read the old state).
   */
  stored?: (roomIds: string[]) => void;
}

export interface RoomStateSync {
  /**
   * The rooms this node ran when it last went down (stored as running, a restart's stops left as they were, or
   * a crash): at start they are stored as stopped, and the server starts them again (resumeRoom).
   */
  readonly interrupted: readonly string[];
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
  const interrupted: string[] = [];
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
      await orm.em.fork().nativeUpdate(Room, { id: change.roomId }, { state: change.state });
      options.stored?.([change.roomId]);
    });
  });

  await enqueue('reconciling at start', async () => {
    const em = orm.em.fork();
    const live = await em.find(
      Room,
      {
        state: { $ne: 'stopped' },
        ...(options.regionCodes ? { region: { code: { $in: [...options.regionCodes] } } } : {}),
      },
      { fields: ['id', 'state'] },
    );
    const corrections = new Map<TRoomRuntimeState, string[]>();
    for (const room of live) {
      if (room.state === 'running' || room.state === 'starting') interrupted.push(room.id);
      const truth = engine.state(room.id);
      if (truth !== room.state) corrections.set(truth, [...(corrections.get(truth) ?? []), room.id]);
    }
    for (const [state, ids] of corrections) {
      await em.nativeUpdate(Room, { id: { $in: ids } }, { state });
      options.stored?.(ids);
      logger.info({ state, rooms: ids.length }, 'room states corrected to what this node runs');
    }
  });

  return {
    interrupted,
    settled: () => tail,
    async close() {
      unsubscribe();
      await tail;
    },
  };
}
