// Where a keep-data room's browser profile lives between its runs. The engine always runs the browser on a local
// directory (`<roomsDataDir>/<roomId>/profile`); a store readies that directory before the browser starts and saves
// it while the room runs and when it stops. This machine's disk is the default store; with a bucket configured the
// profile is kept in object storage (./s3-profile-store.ts), so the room can start on any machine of the fleet.
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The run a profile belongs to. */
export interface TProfileRun {
  roomId: string;
  /** The run's epoch from the fleet's placement; 0 for a room started outside the fleet. */
  epoch: number;
}

/**
 * Runs `copy` while the room's browser is held still (its processes stopped), so that what it copies of the live
 * profile is what the browser had written at one instant; rejects when the room no longer runs this run.
 */
export type THold = <T>(copy: () => Promise<T>) => Promise<T>;

/**
 * A save's outcome. `stale`: a newer run of the room exists, so this one's profile is not the room's any more and
 * was not kept (the epoch fence). Failures to reach the storage throw.
 */
export type TProfileSave = { saved: true; key: string | null } | { saved: false; reason: 'stale' | 'gone' };

export interface ProfileStore {
  /** Milliseconds between saves of a running room's profile; null when running rooms are not saved. */
  readonly checkpointMs: number | null;
  /**
   * Makes `dir` the room's profile for this run: the newest saved one, or what the directory already holds when
   * that is at least as new (this run's own copy after a crash, an unchanged copy of the saved one).
   */
  restore(run: TProfileRun, dir: string): Promise<void>;
  /** Saves the profile of a running browser; `hold` keeps it still while the copy is taken. */
  checkpoint(run: TProfileRun, dir: string, hold: THold): Promise<TProfileSave>;
  /** Saves the profile of a browser that has stopped: the run's last word on the room's profile. */
  save(run: TProfileRun, dir: string): Promise<TProfileSave>;
  /** Forgets everything kept of the room's profile (the room is deleted); `dir` is its local directory. */
  delete(roomId: string, dir: string): Promise<void>;
}

/** Profiles stay on this machine's disk, where the browser writes them: nothing to restore or upload. */
export class LocalProfileStore implements ProfileStore {
  readonly checkpointMs = null;

  async restore(): Promise<void> {}

  async checkpoint(): Promise<TProfileSave> {
    return { saved: true, key: null };
  }

  async save(): Promise<TProfileSave> {
    return { saved: true, key: null };
  }

  async delete(_roomId: string, dir: string): Promise<void> {
    await rm(dirname(dir), { recursive: true, force: true });
  }
}
