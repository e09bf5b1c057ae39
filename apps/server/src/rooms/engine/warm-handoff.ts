// The engine's side of the warm pool (./warm-pool.ts): how a warm run is started, how many fit beside the rooms,
// and how a starting room takes one over, or leaves it when one of its processes died while it waited.
import { randomUUID } from 'node:crypto';
import type { TRoomLaunchSpec } from '@rooms/api';
import type { TRoomLogger } from '../room-logger';
import type { TRun } from './room-run';
import type { RoomRuns } from './room-runs';
import type { RunLauncher } from './run-launcher';
import { type TWarmShape, WarmPool } from './warm-pool';

export interface TWarmHandoffOptions {
  /** The most warm runs kept. */
  size: number;
  capacity: number;
  runs: RoomRuns;
  launcher: RunLauncher;
  /** Whether the engine is closing: no warm run starts, none is handed over. */
  closed: () => boolean;
  logger: TRoomLogger;
}

export class WarmHandoff {
  readonly pool: WarmPool<TRun>;

  constructor(private readonly options: TWarmHandoffOptions) {
    this.pool = new WarmPool<TRun>({
      // Never more warm runs than slots; the rooms' own come first (roomForWarm).
      size: Math.min(options.size, options.capacity),
      launch: (shape, lost) => this.launchWarm(shape, lost),
      discard: (run) => options.launcher.teardown(run),
      room: () => this.roomForWarm(),
      logger: options.logger,
    });
  }

  /** A warm run of the room's shape, taken out of the pool; none for a room that keeps its own profile. */
  claim(spec: TRoomLaunchSpec): Promise<TRun | undefined> | undefined {
    // Keep-data rooms start on their saved profile, which no warm browser has open.
    if (spec.keepData || this.options.closed()) return undefined;
    return this.pool.take(shapeOf(spec));
  }

  /** The claimed warm run once it is up, unless one of its parts has ended meanwhile (then it goes). */
  async takeOver(claimed: Promise<TRun | undefined> | undefined): Promise<TRun | undefined> {
    const run = await claimed;
    if (!run) return undefined;
    if (run.exited) {
      this.options.logger.warn(
        { warm: run.id, part: run.exited },
        'a warm room browser had exited: starting cold',
      );
      await this.options.launcher.teardown(run);
      return undefined;
    }
    return run;
  }

  /** A claimed warm run the room does not need after all (it runs already, or cannot start) is ended. */
  release(claimed: Promise<TRun | undefined>): void {
    void claimed.then((run) => run && this.options.launcher.teardown(run));
  }

  /** A run waiting in the pool: a fresh profile and sandbox of its own, under an id no room has. */
  private async launchWarm(shape: TWarmShape, lost: () => void): Promise<TRun> {
    if (this.options.closed()) throw new Error('the engine is closing');
    const problem = await this.options.launcher.preflight();
    if (problem) throw new Error(problem);
    const run = await this.options.launcher.launch(`warm-${randomUUID()}`, shape, undefined);
    run.onExit = lost;
    if (run.exited) lost();
    return run;
  }

  /** Slots the rooms leave for warm runs now; none while a room is starting, so the room gets the CPU. */
  private roomForWarm(): number {
    if (this.options.closed() || this.options.runs.starting()) return 0;
    return this.options.capacity - this.options.runs.occupied();
  }
}

/**
 * The part of a room's settings its processes are started for (the rest is the page's business). On the
 * screencast path only the size matters; matching all four there costs at most a cold start.
 */
export function shapeOf(shape: TWarmShape): TWarmShape {
  return {
    width: shape.width,
    height: shape.height,
    maxFrameRate: shape.maxFrameRate,
    videoBitrateKbps: shape.videoBitrateKbps,
  };
}
