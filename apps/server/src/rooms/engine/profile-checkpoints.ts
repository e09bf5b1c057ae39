// A running room's kept profile saved while it runs (checkpoints, every so often and on request) and once more
// when the run ends, then its volume unmounted. Saves of one run never overlap; the last one is the stop's.
import { freezeProcesses } from '../profiles/profile-archive';
import type { ProfileStore, THold, TProfileSave } from '../profiles/profile-store';
import type { RoomVolumes } from '../profiles/room-volumes';
import type { TRoomLogger } from '../room-logger';
import type { TRun } from './room-run';

export class ProfileCheckpoints {
  constructor(
    private readonly profiles: ProfileStore,
    private readonly volumes: RoomVolumes,
    private readonly logger: TRoomLogger,
  ) {}

  /** Saves the run's kept profile every so often, as the store asks (`save` takes one checkpoint). */
  schedule(run: TRun, save: () => void): void {
    const every = this.profiles.checkpointMs;
    if (!run.profile || every === null) return;
    run.checkpoints = setInterval(save, every);
    run.checkpoints.unref();
  }

  /**
   * Saves the run's kept profile now: the browser is held still for the copy (a crash-consistent snapshot its
   * databases recover from), the upload happens after. Undefined without a kept profile, or when a save of it is
   * already under way. `serving`: whether the run still serves its room (a copy starts only then).
   */
  checkpoint(run: TRun, serving: () => boolean): Promise<TProfileSave | undefined> {
    const profile = run.profile;
    if (!profile || run.saving) return Promise.resolve(undefined);
    const roomId = profile.roomId;
    // Not on the room's queue: a stop waits for the save under way, which would then wait for the stop. Instead
    // the teardown waits for a copy in progress, and no copy starts once the teardown has.
    const hold: THold = (copy) => {
      const pid = run.browser?.pid;
      if (run.closing || !serving() || pid === undefined) {
        return Promise.reject(new Error('the room stopped before its profile was copied'));
      }
      const held = (async () => {
        const thaw = await freezeProcesses(pid);
        try {
          return await copy();
        } finally {
          thaw();
        }
      })();
      run.holding = held.then(
        () => {},
        () => {},
      );
      return held;
    };
    const saving = this.profiles
      .checkpoint(profile, run.profileDir, hold)
      .then((outcome) => {
        // A newer run of the room exists elsewhere: nothing this one saves will be kept.
        if (!outcome.saved) clearInterval(run.checkpoints);
        return outcome;
      })
      .catch((error) => {
        if (serving()) this.logger.error({ err: error, roomId }, 'room profile checkpoint failed');
        return undefined;
      })
      .finally(() => {
        if (run.saving === saving) run.saving = undefined;
      });
    run.saving = saving;
    return saving;
  }

  /**
   * The stopped run's kept profile saved, after any checkpoint still under way (a failure is logged, not thrown),
   * then its volume unmounted: the run's last use of the room's directory.
   */
  async release(run: TRun): Promise<void> {
    if (!run.profile) return;
    await run.saving;
    try {
      await this.profiles.save(run.profile, run.profileDir);
    } catch (error) {
      this.logger.error({ err: error, roomId: run.id }, 'room profile was not saved');
    }
    await this.volumes
      .unmount(run.profile.roomId)
      .catch((error) => this.logger.error({ err: error, roomId: run.id }, 'room volume was not unmounted'));
  }
}
