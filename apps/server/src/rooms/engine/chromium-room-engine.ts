// The RoomEngine of this server: one Chromium per running room, started and stopped on request, watched for
// crashes, stopped when nobody has been connected for the room's auto-close time, and never more rooms than the
// configured capacity. Operations on one room run one after another; different rooms proceed in parallel.
// Each room streams on one of two paths, chosen once per engine: H.264 + Opus from a headful browser on a virtual
// display (../media) when the server has Xvfb, pulseaudio and ffmpeg, else the headless browser's CDP screencast.
// A small pool of runs started ahead (./warm-pool.ts) lets most starts skip everything but opening the room's page.
// Its parts: the rooms and their states (./room-runs.ts), starting and ending runs (./run-launcher.ts), the warm
// pool's hand-off (./warm-handoff.ts), kept profiles' checkpoints (./profile-checkpoints.ts) and when a crashed
// room starts again (./crash-policy.ts).
import { join } from 'node:path';
import {
  AppError,
  type RoomEngine,
  type TRoomLaunchSpec,
  type TRoomMediaStats,
  type TRoomRuntimeState,
  type TRoomStateChange,
} from '@rooms/api';
import type { TRoomEnding } from '@rooms/api/room-protocol';
import type { BrowserContext } from 'playwright-core';
import { LocalProfileStore, type ProfileStore, type TProfileSave } from '../profiles/profile-store';
import { RoomVolumes } from '../profiles/room-volumes';
import { silentLogger, type TRoomLogger } from '../room-logger';
import type { RoomSandbox } from '../sandbox/room-sandbox';
import type { TSandboxSupport } from '../sandbox/sandbox-support';
import { AutoCloseTimer } from './auto-close';
import { ChromiumRoomSession } from './chromium-room-session';
import { afterCrash } from './crash-policy';
import type { TChromiumRoomEngineOptions, TMediaPath } from './engine-options';
import { ProfileCheckpoints } from './profile-checkpoints';
import type { TRoomPart, TRun } from './room-run';
import { RoomRuns, type TRoomEntry } from './room-runs';
import { RunLauncher } from './run-launcher';
import { shapeOf, WarmHandoff } from './warm-handoff';
import type { TWarmShape } from './warm-pool';

export type {
  TChromiumRoomEngineOptions,
  TEgressStarter,
  TMediaPath,
  TRoomSandboxOptions,
} from './engine-options';

// Room ids become directory names; anything else is a bug upstream, not a path to follow.
const ROOM_ID = /^[A-Za-z0-9_-]{1,128}$/;
const DEFAULT_PROFILE_DISK_MB = 2048;

export class ChromiumRoomEngine implements RoomEngine {
  private readonly logger: TRoomLogger;
  private readonly profiles: ProfileStore;
  /** Keep-data rooms' own filesystems; used where rooms run in namespaces (the server is root). */
  private readonly volumes: RoomVolumes;
  private readonly runs: RoomRuns;
  private readonly launcher: RunLauncher;
  private readonly checkpoints: ProfileCheckpoints;
  private readonly warm: WarmHandoff;
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: TChromiumRoomEngineOptions) {
    this.logger = options.logger ?? silentLogger;
    this.profiles = options.profiles ?? new LocalProfileStore();
    this.volumes = new RoomVolumes(
      options.roomsDataDir,
      options.sandbox?.profileDiskMb ?? DEFAULT_PROFILE_DISK_MB,
      this.logger,
    );
    this.runs = new RoomRuns(this.logger);
    this.launcher = new RunLauncher(options, this.logger, this.profiles, this.volumes);
    this.checkpoints = new ProfileCheckpoints(this.profiles, this.volumes, this.logger);
    this.warm = new WarmHandoff({
      size: options.warmPool ?? 0,
      capacity: options.capacity,
      runs: this.runs,
      launcher: this.launcher,
      closed: () => this.closed,
      logger: this.logger,
    });
  }

  private get pool() {
    return this.warm.pool;
  }

  start(spec: TRoomLaunchSpec): Promise<void> {
    if (this.closed) {
      return Promise.reject(new AppError('ROOM_START_FAILED', { message: 'The server is shutting down' }));
    }
    const entry = this.runs.entry(spec.roomId);
    const holdsSlot = this.runs.holdsSlot(entry);
    // Decided now, not after queueing: a caller beyond capacity gets an answer at once instead of a hang.
    if (!holdsSlot && this.runs.occupied() >= this.options.capacity) {
      this.logger.info({ roomId: spec.roomId, capacity: this.options.capacity }, 'room refused: server full');
      return Promise.reject(new AppError('SERVER_FULL'));
    }
    // Claimed now, with the slot: the warm run's slot becomes the room's, and no other start takes it meanwhile.
    // Without one, a real room wins over a warm run: one is ended if the room would not fit beside them.
    const claimed = holdsSlot ? undefined : this.warm.claim(spec);
    if (!holdsSlot && !claimed && this.runs.occupied() + 1 + this.pool.count() > this.options.capacity) {
      this.pool.evict(shapeOf(spec));
    }
    entry.reserved++;
    return this.runs.enqueue(entry, async () => {
      try {
        await this.startNow(entry, spec, claimed);
      } finally {
        entry.reserved--;
        this.pool.schedule();
      }
    });
  }

  stop(roomId: string, ending?: TRoomEnding): Promise<void> {
    return this.stopFor(roomId, 'requested', ending);
  }

  state(roomId: string): TRoomRuntimeState {
    return this.runs.get(roomId)?.state ?? 'stopped';
  }

  async deleteData(roomId: string): Promise<void> {
    if (!ROOM_ID.test(roomId)) throw new Error(`Invalid room id: ${roomId}`);
    const entry = this.runs.entry(roomId);
    await this.runs.enqueue(entry, async () => {
      await this.stopNow(entry, 'requested');
      await this.volumes.remove(roomId);
      await this.profiles.delete(roomId, join(this.options.roomsDataDir, roomId, 'profile'));
    });
    this.runs.forget(entry);
  }

  capacity(): { running: number; max: number } {
    return { running: this.runs.occupied(), max: this.options.capacity };
  }

  /** Warm runs: those up and ready to be taken, and all of them (starting ones included), with the shape kept. */
  warmRuns(): { ready: number; total: number; shape: TWarmShape | undefined } {
    return { ready: this.pool.ready(), total: this.pool.count(), shape: this.pool.wanted() };
  }

  /**
   * Fills the warm pool for this shape now, unless a room has already started (its shape is the better guess).
   * The server calls it once it serves, with the shape of the room started last before it went down.
   */
  warmFor(shape: TWarmShape): void {
    if (this.pool.wanted()) return;
    this.pool.want(shapeOf(shape), { soon: true });
  }

  onStateChange(listener: (change: TRoomStateChange) => void): () => void {
    return this.runs.onStateChange(listener);
  }

  mediaStats(roomId: string): TRoomMediaStats | null {
    const video = this.session(roomId)?.video;
    if (!video) return null;
    return {
      path: video.codec === 'h264' ? 'h264' : 'screencast',
      fps: video.rate?.() ?? 0,
      kbps: video.kbps?.() ?? 0,
      freezes: video.freezes?.() ?? 0,
    };
  }

  /** Every room this engine knows with its state and participants, for the metrics. */
  roomList(): { roomId: string; state: TRoomRuntimeState; participants: number }[] {
    return [...this.runs.all()].map((entry) => ({
      roomId: entry.roomId,
      state: entry.state,
      participants: entry.participants,
    }));
  }

  /** The running room's picture, input and controls; undefined unless the room is running. */
  session(roomId: string): ChromiumRoomSession | undefined {
    const entry = this.runs.get(roomId);
    return entry?.state === 'running' ? entry.run?.session : undefined;
  }

  /** The relay reports how many participants are connected; zero for the auto-close time stops the room. */
  participantsChanged(roomId: string, count: number): void {
    const entry = this.runs.entry(roomId);
    entry.participants = count;
    entry.run?.autoClose?.update(count);
  }

  /** The room's browser process id (benchmarks, diagnostics). */
  browserPid(roomId: string): number | undefined {
    return this.runs.get(roomId)?.run?.browser?.pid;
  }

  /** The room's browser context: every page it holds, adopted as a tab or not (security tests, diagnostics). */
  browserContext(roomId: string): BrowserContext | undefined {
    return this.runs.get(roomId)?.run?.browser?.context;
  }

  /** The room's display, sound server and running encoders (benchmarks count them with the room). */
  mediaPids(roomId: string): number[] {
    return this.runs.get(roomId)?.run?.media?.pids() ?? [];
  }

  /** The running room's sandbox: runs a program as one of the room's processes (security tests, diagnostics). */
  sandbox(roomId: string): RoomSandbox | undefined {
    return this.runs.get(roomId)?.run?.sandbox;
  }

  /**
   * Saves the running room's kept profile now, as its regular checkpoints do (./profile-checkpoints.ts).
   * Undefined when the room does not run here with a kept profile, or a save of it is already under way.
   */
  checkpoint(roomId: string): Promise<TProfileSave | undefined> {
    const entry = this.runs.get(roomId);
    const run = entry?.run;
    if (!entry || !run || entry.state !== 'running') return Promise.resolve(undefined);
    return this.checkpoints.checkpoint(run, () => entry.run === run);
  }

  /** What isolation rooms get on this machine; probed on the first call, said once in the log. */
  sandboxSupport(): Promise<TSandboxSupport> {
    return this.launcher.sandboxSupport();
  }

  /** How rooms stream on this engine; the media tools are probed on the first call. */
  mediaPath(): Promise<TMediaPath> {
    return this.launcher.mediaPath();
  }

  /** Stops every room, the warm runs and the egress proxy; later starts are refused. Closing twice closes once. */
  close(): Promise<void> {
    this.closing ??= this.closeNow();
    return this.closing;
  }

  /**
   * Why no room can start here now, in words for the operator, or null: a missing browser or a full disk would
   * otherwise fail each start somewhere deep (or wait on it), and say nothing useful to the owner.
   */
  preflight(): Promise<string | null> {
    return this.launcher.preflight();
  }

  private async closeNow(): Promise<void> {
    this.closed = true;
    const ending: TRoomEnding = { reason: 'server-restart', by: null };
    await Promise.all([
      this.pool.close(),
      ...this.runs.roomIds().map((roomId) => this.stopFor(roomId, 'requested', ending)),
    ]);
    await this.launcher.close();
  }

  private stopFor(roomId: string, reason: 'requested' | 'auto-close', ending?: TRoomEnding): Promise<void> {
    const entry = this.runs.get(roomId);
    if (!entry) return Promise.resolve();
    return this.runs.enqueue(entry, () => this.stopNow(entry, reason, ending));
  }

  private async startNow(
    entry: TRoomEntry,
    spec: TRoomLaunchSpec,
    claimed?: Promise<TRun | undefined>,
  ): Promise<void> {
    // Already up: starting again is a no-op (restart = stop + start applies new settings).
    if (entry.state === 'running') {
      if (claimed) this.warm.release(claimed);
      return;
    }
    this.runs.setState(entry, 'starting', 'requested');
    const began = performance.now();
    let run: TRun | undefined;
    const problem = await this.launcher.preflight();
    if (problem) {
      this.logger.error({ roomId: spec.roomId, problem }, 'rooms cannot start on this server');
      if (claimed) this.warm.release(claimed);
      this.runs.setState(entry, 'stopped');
      throw new AppError('ROOMS_UNAVAILABLE');
    }
    try {
      run = await this.warm.takeOver(claimed ?? this.warm.claim(spec));
      const warm = run !== undefined;
      if (!ROOM_ID.test(spec.roomId)) throw new Error(`Invalid room id: ${spec.roomId}`);
      // The pool keeps the shape rooms start with (this one is the best guess for the next).
      this.pool.want(shapeOf(spec));
      run ??= await this.launcher.launch(
        spec.roomId,
        spec,
        spec.keepData ? { roomId: spec.roomId, epoch: spec.epoch ?? 0 } : undefined,
      );
      const launched = run;
      launched.spec = spec;
      entry.run = launched;
      launched.onExit = (part) => void this.crashed(entry, launched, part);
      // A part that ended before now is handled as a crash once the start is through (or fails on it).
      if (launched.exited) launched.onExit(launched.exited);
      const ready = performance.now();
      await this.openSession(launched, spec);
      if (spec.autoCloseMs !== null) {
        launched.autoClose = new AutoCloseTimer(spec.autoCloseMs, () => {
          this.logger.info({ roomId: spec.roomId }, 'auto-closing a room nobody is in');
          this.stopFor(spec.roomId, 'auto-close').catch((error) =>
            this.logger.error({ err: error, roomId: spec.roomId }, 'auto-close failed'),
          );
        });
        launched.autoClose.start(entry.participants);
      }
      this.checkpoints.schedule(launched, () => void this.checkpoint(spec.roomId));
      this.runs.setState(entry, 'running', 'requested');
      this.logger.info(
        {
          roomId: spec.roomId,
          warm: warm ? launched.id : false,
          // Cold: preflight, profile, sandbox, media and browser; warm: only the wait for the warm run.
          launchMs: Math.round(ready - began),
          ...(warm ? {} : { launchPartsMs: launched.startedIn }),
          pageMs: Math.round(performance.now() - ready),
        },
        warm ? 'room running on a warm browser' : 'room running',
      );
    } catch (error) {
      this.logger.error({ err: error, roomId: spec.roomId }, 'room failed to start');
      if (run) await this.launcher.teardown(run);
      if (spec.keepData) await this.volumes.unmount(spec.roomId).catch(() => {});
      entry.run = undefined;
      this.runs.setState(entry, 'stopped');
      throw new AppError('ROOM_START_FAILED', { cause: error });
    }
  }

  /** The room's page on the launched run, with its picture, input and controls. */
  private async openSession(launched: TRun, spec: TRoomLaunchSpec): Promise<void> {
    // The encoders start with the room rather than with its first viewer: ffmpeg takes a few hundred ms to its
    // first keyframe, done while the page opens and the owner's page comes to the room. With nobody there they
    // stop after their idle time, as after the last viewer.
    const primed = launched.media
      ? [launched.media.video.subscribe(() => {}), launched.media.audio.subscribe(() => {})]
      : [];
    try {
      // What the proxy knows of an address that failed: through the run's door, or any door-less client's.
      const egress = launched.egressDoor ?? (await this.launcher.egressProxy());
      launched.session = await ChromiumRoomSession.open(launched.browser!.context, spec, this.logger, {
        encoded: launched.media,
        egressFailure: (address) => egress.failure(address),
        downloadsDir: launched.downloadsDir,
      });
    } finally {
      for (const release of primed) release();
    }
  }

  private async stopNow(
    entry: TRoomEntry,
    reason: 'requested' | 'auto-close',
    ending?: TRoomEnding,
  ): Promise<void> {
    const run = entry.run;
    if (!run) {
      // A crashed room has already been cleaned up; stopping it acknowledges the crash.
      if (entry.state === 'crashed') this.runs.setState(entry, 'stopped', reason, ending);
      return;
    }
    this.runs.setState(entry, 'stopping', reason, ending);
    await this.launcher.teardown(run);
    entry.run = undefined;
    // Saved before the room counts as stopped: a start elsewhere right after must find this run's last profile.
    await this.checkpoints.release(run);
    this.runs.setState(entry, 'stopped', reason, ending);
    // Its slot is free: a warm run may take it.
    this.pool.schedule();
  }

  /** A part of the room died by itself (the browser, its display or its sound server): start it again. */
  private async crashed(entry: TRoomEntry, run: TRun, part: TRoomPart): Promise<void> {
    await this.runs
      .enqueue(entry, async () => {
        // A start still in progress sees the failure itself; a later run is not this browser.
        if (entry.run !== run || entry.state !== 'running') return;
        const policy = afterCrash(entry.crashes, performance.now());
        entry.crashes = policy.crashes;
        const again = policy.restart && !this.closed;
        this.logger.warn(
          { roomId: entry.roomId, part, restarting: again },
          `room ${part} exited unexpectedly`,
        );
        await this.launcher.teardown(run);
        entry.run = undefined;
        // Restarted here, the room goes on with this run's profile on disk; left crashed, it is saved now.
        if (!again) await this.checkpoints.release(run);
        // Members are told it restarts (their pages wait and come back), unless it keeps dying.
        this.runs.setState(
          entry,
          'crashed',
          'crashed',
          again ? { reason: 'restarting', by: null } : undefined,
        );
        if (again && run.spec) await this.startNow(entry, run.spec);
      })
      .catch((error) => this.logger.error({ err: error, roomId: entry.roomId }, 'crash recovery failed'));
  }
}
