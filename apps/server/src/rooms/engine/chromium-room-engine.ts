// The RoomEngine of this server: one Chromium per running room, started and stopped on request, watched for
// crashes, stopped when nobody has been connected for the room's auto-close time, and never more rooms than the
// configured capacity. Operations on one room run one after another; different rooms proceed in parallel.
// Each room streams on one of two paths, chosen once per engine: H.264 + Opus from a headful browser on a virtual
// display (../media) when the server has Xvfb, pulseaudio and ffmpeg, else the headless browser's CDP screencast.
// A small pool of runs started ahead (./warm-pool.ts) lets most starts skip everything but opening the room's page.
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, rm, statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
import type { TRoomMediaMode } from '../../env';
import type { TEgressDoor, TEgressProxy } from '../egress/egress-proxy';
import { probeMediaTools } from '../media/media-tools';
import { RoomMedia } from '../media/room-media';
import { freezeProcesses } from '../profiles/profile-archive';
import {
  LocalProfileStore,
  type ProfileStore,
  type THold,
  type TProfileRun,
  type TProfileSave,
} from '../profiles/profile-store';
import { RoomVolumes } from '../profiles/room-volumes';
import { silentLogger, type TRoomLogger } from '../room-logger';
import { RoomSandbox } from '../sandbox/room-sandbox';
import {
  describeSandboxSupport,
  probeSandboxSupport,
  type TRoomSandboxMode,
  type TSandboxSupport,
} from '../sandbox/sandbox-support';
import { AutoCloseTimer } from './auto-close';
import { ChromiumRoomSession } from './chromium-room-session';
import { makeDownloadsDir, removeDownloadsDir } from './downloads-dir';
import { RoomBrowser } from './room-browser';
import { applyRoomPreferences } from './room-profile-preferences';
import { type TWarmShape, WarmPool } from './warm-pool';

/**
 * Starts the egress proxy the browsers go through (apps/server/src/rooms/egress); each sandboxed room run reaches
 * it on a unix socket of its own (a door, with its own connection cap), the only thing its network namespace can
 * reach.
 */
export type TEgressStarter = (options: {
  allow: string[];
}) => Promise<Pick<TEgressProxy, 'url' | 'openDoor' | 'failure' | 'close'>>;

export interface TRoomSandboxOptions {
  /** 'auto' (the default) isolates rooms where the machine allows it; see ../sandbox/sandbox-support.ts. */
  mode?: TRoomSandboxMode;
  /** The unprivileged user of room processes; 'room-sandbox' by default. */
  user?: string;
  /** The server's directories rooms must not see (the rooms' data directory is always hidden). */
  hide?: string[];
  limits?: { memoryMb: number; pids: number };
  /** The size of a keep-data room's own filesystem, which holds its kept profile (../profiles/room-volumes.ts). */
  profileDiskMb?: number;
}

export interface TChromiumRoomEngineOptions {
  chromiumPath: string;
  /** Kept profiles live in `<roomsDataDir>/<roomId>/profile`, fresh ones in `<roomsDataDir>/.fresh/`. */
  roomsDataDir: string;
  /**
   * Where kept profiles are saved between runs: this disk by default (../profiles/profile-store.ts), or object
   * storage, which restores them on whichever machine starts the room.
   */
  profiles?: ProfileStore;
  /** The most rooms this server runs at once. */
  capacity: number;
  egress: { start: TEgressStarter; allow: string[] };
  /** 'auto' (the default) takes H.264 when the media tools are installed; the others force a path. */
  media?: TRoomMediaMode;
  sandbox?: TRoomSandboxOptions;
  logger?: TRoomLogger;
  /** Chromium flags beyond the room's own, for measuring candidates (bench/room-memory.ts). */
  browserArgs?: string[];
  /**
   * Runs kept started ahead for the shape of the last room started (or the one told to warmFor); each holds a
   * capacity slot until a room takes it or needs the slot. 0 (the default here) keeps none.
   */
  warmPool?: number;
}

export type TMediaPath = 'h264' | 'screencast';

type TRoomPart = 'browser' | 'display' | 'sound';

/** A room's processes: sandbox, display and sound, browser; and while it serves a room, the room's session. */
interface TRun {
  /** Who it is in the log: the room's id, or the warm run's own until a room takes it. */
  id: string;
  /** The room it serves; unset while it waits in the warm pool. */
  spec?: TRoomLaunchSpec;
  profileDir: string;
  /** A fresh profile is deleted when the browser stops; a kept one stays for the next start. */
  fresh: boolean;
  /** The room and run a kept profile is saved for; unset for a fresh profile. */
  profile?: TProfileRun;
  /** Saves the kept profile every so often while the room runs. */
  checkpoints?: NodeJS.Timeout;
  /** The profile save under way, if any: saves of one run never overlap, and the stop's comes last. */
  saving?: Promise<TProfileSave | undefined>;
  /** The copy of the live profile in progress, with the browser held still; the teardown waits for it. */
  holding?: Promise<void>;
  /** Set when the teardown begins: no copy of the live profile starts after it. */
  closing?: boolean;
  sandbox?: RoomSandbox;
  /** Where the run's browser saves downloads until the controller fetches them (./downloads-dir.ts). */
  downloadsDir?: string;
  /** The run's own way to the egress proxy (sandboxed runs), in a directory of its own. */
  egressDoor?: TEgressDoor;
  media?: RoomMedia;
  browser?: RoomBrowser;
  session?: ChromiumRoomSession;
  autoClose?: AutoCloseTimer;
  /** How long its parts took to start, in ms (the log says where a cold start's time goes). */
  startedIn?: { sandbox: number; media: number; browser: number };
  /** The part that ended by itself, once one did. */
  exited?: TRoomPart;
  /** Told when a part ends by itself: the warm pool while the run waits there, then the room's crash handling. */
  onExit?: (part: TRoomPart) => void;
}

interface TRoomEntry {
  roomId: string;
  state: TRoomRuntimeState;
  /** The tail of this room's operation queue. */
  queue: Promise<unknown>;
  /** Starts queued and not yet finished: each holds the room's capacity slot. */
  reserved: number;
  participants: number;
  run?: TRun;
  /** When its browser died lately (performance.now()): a room that keeps dying is left crashed. */
  crashes: number[];
}

/** A room whose browser dies starts again by itself, unless it died this often within this window. */
const CRASH_RESTARTS = 3;
const CRASH_WINDOW_MS = 60_000;
/** Below this much free space in the rooms' data directory no room starts (profiles, media sockets, logs). */
const MIN_FREE_DISK_MB = 200;
// Room ids become directory names; anything else is a bug upstream, not a path to follow.
const ROOM_ID = /^[A-Za-z0-9_-]{1,128}$/;
const LIVE_STATES: ReadonlySet<TRoomRuntimeState> = new Set(['starting', 'running', 'stopping']);
const DEFAULT_LIMITS = { memoryMb: 2048, pids: 2048 };
const DEFAULT_PROFILE_DISK_MB = 2048;
/**
 * A fresh profile's tmpfs, as a share of the room's memory (which its pages count against): 512 MB at the default
 * 2 GB, room for a site's caches and storage while the page itself keeps the rest.
 */
const FRESH_PROFILE_SHARE_OF_MEMORY = 0.25;
/** Open files per room process: Chromium with many tabs needs a few thousand, a runaway page no more. */
const OPEN_FILES = 8192;

export class ChromiumRoomEngine implements RoomEngine {
  private readonly rooms = new Map<string, TRoomEntry>();
  private readonly listeners = new Set<(change: TRoomStateChange) => void>();
  private readonly logger: TRoomLogger;
  private readonly profiles: ProfileStore;
  /** Keep-data rooms' own filesystems; used where rooms run in namespaces (the server is root). */
  private readonly volumes: RoomVolumes;
  private proxy: ReturnType<TEgressStarter> | undefined;
  private freshSwept: Promise<void> | undefined;
  private egressSwept: Promise<void> | undefined;
  private mediaSwept: Promise<void> | undefined;
  private chosenPath: Promise<TMediaPath> | undefined;
  private probedSandbox: Promise<TSandboxSupport> | undefined;
  private readonly pool: WarmPool<TRun>;
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
    this.pool = new WarmPool<TRun>({
      // Never more warm runs than slots; the rooms' own come first (roomForWarm).
      size: Math.min(options.warmPool ?? 0, options.capacity),
      launch: (shape, lost) => this.launchWarm(shape, lost),
      discard: (run) => this.teardown(run),
      room: () => this.roomForWarm(),
      logger: this.logger,
    });
  }

  start(spec: TRoomLaunchSpec): Promise<void> {
    if (this.closed) {
      return Promise.reject(new AppError('ROOM_START_FAILED', { message: 'The server is shutting down' }));
    }
    const entry = this.entry(spec.roomId);
    const holdsSlot = entry.reserved > 0 || LIVE_STATES.has(entry.state);
    // Decided now, not after queueing: a caller beyond capacity gets an answer at once instead of a hang.
    if (!holdsSlot && this.occupied() >= this.options.capacity) {
      this.logger.info({ roomId: spec.roomId, capacity: this.options.capacity }, 'room refused: server full');
      return Promise.reject(new AppError('SERVER_FULL'));
    }
    // Claimed now, with the slot: the warm run's slot becomes the room's, and no other start takes it meanwhile.
    // Without one, a real room wins over a warm run: one is ended if the room would not fit beside them.
    const claimed = holdsSlot ? undefined : this.claimWarm(spec);
    if (!holdsSlot && !claimed && this.occupied() + 1 + this.pool.count() > this.options.capacity) {
      this.pool.evict(shapeOf(spec));
    }
    entry.reserved++;
    return this.enqueue(entry, async () => {
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
    return this.rooms.get(roomId)?.state ?? 'stopped';
  }

  async deleteData(roomId: string): Promise<void> {
    if (!ROOM_ID.test(roomId)) throw new Error(`Invalid room id: ${roomId}`);
    const entry = this.entry(roomId);
    await this.enqueue(entry, async () => {
      await this.stopNow(entry, 'requested');
      await this.volumes.remove(roomId);
      await this.profiles.delete(roomId, join(this.options.roomsDataDir, roomId, 'profile'));
    });
    if (entry.reserved === 0 && entry.state === 'stopped') this.rooms.delete(roomId);
  }

  capacity(): { running: number; max: number } {
    return { running: this.occupied(), max: this.options.capacity };
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
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
    return [...this.rooms.values()].map((entry) => ({
      roomId: entry.roomId,
      state: entry.state,
      participants: entry.participants,
    }));
  }

  /** The running room's picture, input and controls; undefined unless the room is running. */
  session(roomId: string): ChromiumRoomSession | undefined {
    const entry = this.rooms.get(roomId);
    return entry?.state === 'running' ? entry.run?.session : undefined;
  }

  /** The relay reports how many participants are connected; zero for the auto-close time stops the room. */
  participantsChanged(roomId: string, count: number): void {
    const entry = this.entry(roomId);
    entry.participants = count;
    entry.run?.autoClose?.update(count);
  }

  /** The room's browser process id (benchmarks, diagnostics). */
  browserPid(roomId: string): number | undefined {
    return this.rooms.get(roomId)?.run?.browser?.pid;
  }

  /** The room's browser context: every page it holds, adopted as a tab or not (security tests, diagnostics). */
  browserContext(roomId: string): BrowserContext | undefined {
    return this.rooms.get(roomId)?.run?.browser?.context;
  }

  /** The room's display, sound server and running encoders (benchmarks count them with the room). */
  mediaPids(roomId: string): number[] {
    return this.rooms.get(roomId)?.run?.media?.pids() ?? [];
  }

  /** The running room's sandbox: runs a program as one of the room's processes (security tests, diagnostics). */
  sandbox(roomId: string): RoomSandbox | undefined {
    return this.rooms.get(roomId)?.run?.sandbox;
  }

  /**
   * Saves the running room's kept profile now, as its regular checkpoints do: the browser is held still for the
   * copy (a crash-consistent snapshot its databases recover from), the upload happens after. Undefined when the
   * room does not run here with a kept profile, or a save of it is already under way.
   */
  checkpoint(roomId: string): Promise<TProfileSave | undefined> {
    const entry = this.rooms.get(roomId);
    const run = entry?.run;
    if (!entry || !run?.profile || entry.state !== 'running' || run.saving) return Promise.resolve(undefined);
    const profile = run.profile;
    // Not on the room's queue: a stop waits for the save under way, which would then wait for the stop. Instead
    // the teardown waits for a copy in progress, and no copy starts once the teardown has.
    const hold: THold = (copy) => {
      const pid = run.browser?.pid;
      if (run.closing || entry.run !== run || pid === undefined) {
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
        if (entry.run === run) this.logger.error({ err: error, roomId }, 'room profile checkpoint failed');
        return undefined;
      })
      .finally(() => {
        if (run.saving === saving) run.saving = undefined;
      });
    run.saving = saving;
    return saving;
  }

  /** What isolation rooms get on this machine; probed on the first call, said once in the log. */
  sandboxSupport(): Promise<TSandboxSupport> {
    this.probedSandbox ??= probeSandboxSupport(
      this.options.sandbox?.mode ?? 'auto',
      this.options.sandbox?.user ?? 'room-sandbox',
    ).then((support) => {
      const { level, message } = describeSandboxSupport(support);
      this.logger[level]({ isolation: support.kind }, message);
      return support;
    });
    return this.probedSandbox;
  }

  /** How rooms stream on this engine; the media tools are probed on the first call. */
  mediaPath(): Promise<TMediaPath> {
    this.chosenPath ??= this.chooseMediaPath();
    return this.chosenPath;
  }

  /** Stops every room, the warm runs and the egress proxy; later starts are refused. Closing twice closes once. */
  close(): Promise<void> {
    this.closing ??= this.closeNow();
    return this.closing;
  }

  private async closeNow(): Promise<void> {
    this.closed = true;
    const ending: TRoomEnding = { reason: 'server-restart', by: null };
    await Promise.all([
      this.pool.close(),
      ...[...this.rooms.keys()].map((roomId) => this.stopFor(roomId, 'requested', ending)),
    ]);
    const proxy = await this.proxy?.catch(() => undefined);
    await proxy?.close();
  }

  /**
   * Why no room can start here now, in words for the operator, or null: a missing browser or a full disk would
   * otherwise fail each start somewhere deep (or wait on it), and say nothing useful to the owner.
   */
  async preflight(): Promise<string | null> {
    try {
      await access(this.options.chromiumPath, constants.X_OK);
    } catch {
      return `Chromium is missing or not executable at ${this.options.chromiumPath} (CHROMIUM_PATH)`;
    }
    try {
      await mkdir(this.options.roomsDataDir, { recursive: true });
      const disk = await statfs(this.options.roomsDataDir);
      const freeMb = (disk.bavail * disk.bsize) / 1024 / 1024;
      if (freeMb < MIN_FREE_DISK_MB) {
        return `The rooms' disk (${this.options.roomsDataDir}) has ${Math.floor(freeMb)} MB free; rooms need ${MIN_FREE_DISK_MB} MB`;
      }
    } catch (error) {
      return `The rooms' data directory ${this.options.roomsDataDir} cannot be used: ${(error as Error).message}`;
    }
    return null;
  }

  private stopFor(roomId: string, reason: 'requested' | 'auto-close', ending?: TRoomEnding): Promise<void> {
    const entry = this.rooms.get(roomId);
    if (!entry) return Promise.resolve();
    return this.enqueue(entry, () => this.stopNow(entry, reason, ending));
  }

  private async startNow(
    entry: TRoomEntry,
    spec: TRoomLaunchSpec,
    claimed?: Promise<TRun | undefined>,
  ): Promise<void> {
    // Already up: starting again is a no-op (restart = stop + start applies new settings).
    if (entry.state === 'running') {
      if (claimed) void claimed.then((run) => run && this.teardown(run));
      return;
    }
    this.setState(entry, 'starting', 'requested');
    const began = performance.now();
    let run: TRun | undefined;
    const problem = await this.preflight();
    if (problem) {
      this.logger.error({ roomId: spec.roomId, problem }, 'rooms cannot start on this server');
      if (claimed) void claimed.then((warm) => warm && this.teardown(warm));
      this.setState(entry, 'stopped');
      throw new AppError('ROOMS_UNAVAILABLE');
    }
    try {
      run = await this.warmRun(claimed ?? this.claimWarm(spec));
      const warm = run !== undefined;
      if (!ROOM_ID.test(spec.roomId)) throw new Error(`Invalid room id: ${spec.roomId}`);
      // The pool keeps the shape rooms start with (this one is the best guess for the next).
      this.pool.want(shapeOf(spec));
      run ??= await this.launchRun(
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
      // The encoders start with the room rather than with its first viewer: ffmpeg takes a few hundred ms to its
      // first keyframe, done while the page opens and the owner's page comes to the room. With nobody there they
      // stop after their idle time, as after the last viewer.
      const primed = launched.media
        ? [launched.media.video.subscribe(() => {}), launched.media.audio.subscribe(() => {})]
        : [];
      try {
        // What the proxy knows of an address that failed: through the run's door, or any door-less client's.
        const egress = launched.egressDoor ?? (await this.egressProxy());
        launched.session = await ChromiumRoomSession.open(launched.browser!.context, spec, this.logger, {
          encoded: launched.media,
          egressFailure: (address) => egress.failure(address),
          downloadsDir: launched.downloadsDir,
        });
      } finally {
        for (const release of primed) release();
      }
      if (spec.autoCloseMs !== null) {
        launched.autoClose = new AutoCloseTimer(spec.autoCloseMs, () => {
          this.logger.info({ roomId: spec.roomId }, 'auto-closing a room nobody is in');
          this.stopFor(spec.roomId, 'auto-close').catch((error) =>
            this.logger.error({ err: error, roomId: spec.roomId }, 'auto-close failed'),
          );
        });
        launched.autoClose.start(entry.participants);
      }
      const every = this.profiles.checkpointMs;
      if (launched.profile && every !== null) {
        launched.checkpoints = setInterval(() => void this.checkpoint(spec.roomId), every);
        launched.checkpoints.unref();
      }
      this.setState(entry, 'running', 'requested');
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
      if (run) await this.teardown(run);
      if (spec.keepData) await this.volumes.unmount(spec.roomId).catch(() => {});
      entry.run = undefined;
      this.setState(entry, 'stopped');
      throw new AppError('ROOM_START_FAILED', { cause: error });
    }
  }

  /** A warm run of the room's shape, taken out of the pool; none for a room that keeps its own profile. */
  private claimWarm(spec: TRoomLaunchSpec): Promise<TRun | undefined> | undefined {
    // Keep-data rooms start on their saved profile, which no warm browser has open.
    if (spec.keepData || this.closed) return undefined;
    return this.pool.take(shapeOf(spec));
  }

  /** The claimed warm run once it is up, unless one of its parts has ended meanwhile (then it goes). */
  private async warmRun(claimed: Promise<TRun | undefined> | undefined): Promise<TRun | undefined> {
    const run = await claimed;
    if (!run) return undefined;
    if (run.exited) {
      this.logger.warn({ warm: run.id, part: run.exited }, 'a warm room browser had exited: starting cold');
      await this.teardown(run);
      return undefined;
    }
    return run;
  }

  /** A run waiting in the pool: a fresh profile and sandbox of its own, under an id no room has. */
  private async launchWarm(shape: TWarmShape, lost: () => void): Promise<TRun> {
    if (this.closed) throw new Error('the engine is closing');
    const problem = await this.preflight();
    if (problem) throw new Error(problem);
    const run = await this.launchRun(`warm-${randomUUID()}`, shape, undefined);
    run.onExit = lost;
    if (run.exited) lost();
    return run;
  }

  /**
   * Sandbox, display and sound, browser: everything of a room but its page. Nothing of it is left when it fails.
   * `id` names the profile, the sandbox's cgroups and the log lines: the room's own, or a warm run's. `kept`: the
   * run whose kept profile the browser opens; unset, it gets a fresh one.
   */
  private async launchRun(id: string, shape: TWarmShape, kept: TProfileRun | undefined): Promise<TRun> {
    const [support, path] = await Promise.all([this.sandboxSupport(), this.mediaPath()]);
    const proxy = await this.egressProxy();
    const run: TRun = { id, ...(await this.prepareProfile(id, kept, support)) };
    let since = performance.now();
    /** Milliseconds since the last call. */
    const took = () => {
      const now = performance.now();
      const ms = Math.round(now - since);
      since = now;
      return ms;
    };
    try {
      const mediaDir = path === 'h264' ? await this.mediaDir() : undefined;
      run.downloadsDir = await makeDownloadsDir(this.options.roomsDataDir);
      if (support.kind !== 'unconfined')
        run.egressDoor = await this.egressDoor(proxy, () => run.spec?.roomId ?? run.id);
      const limits = this.options.sandbox?.limits ?? DEFAULT_LIMITS;
      run.sandbox = await RoomSandbox.open({
        roomId: id,
        support,
        keep: [...(run.fresh ? [] : [run.profileDir]), ...(mediaDir ? [mediaDir] : []), run.downloadsDir],
        // A fresh profile is thrown away with the run anyway: in the room's memory, what a page stores is bounded
        // by the room's limits instead of filling the host's disk (a page is offered a share of its volume).
        scratch: run.fresh ? [run.profileDir] : [],
        hide: [...(this.options.sandbox?.hide ?? []), this.options.roomsDataDir],
        egress: { url: proxy.url, socketPath: run.egressDoor?.socketPath },
        limits: {
          ...limits,
          openFiles: OPEN_FILES,
          // Chromium keeps its shared memory there (--disable-dev-shm-usage): the room's memory bounds it anyway.
          tmpMb: limits.memoryMb,
          scratchMb: Math.floor(limits.memoryMb * FRESH_PROFILE_SHARE_OF_MEMORY),
        },
      });
      const sandboxMs = took();
      if (mediaDir) run.media = await this.startMedia(id, shape, run.sandbox, mediaDir);
      const mediaMs = took();
      run.browser = await RoomBrowser.launch({
        chromiumPath: this.options.chromiumPath,
        profileDir: run.profileDir,
        width: shape.width,
        height: shape.height,
        sandbox: run.sandbox,
        displayEnv: run.media?.browserEnvironment(),
        extraArgs: this.options.browserArgs,
      });
      run.startedIn = { sandbox: sandboxMs, media: mediaMs, browser: took() };
      const exited = (part: TRoomPart) => {
        if (run.exited) return;
        run.exited = part;
        run.onExit?.(part);
      };
      run.browser.onUnexpectedExit(() => exited('browser'));
      run.media?.onUnexpectedExit(exited);
      return run;
    } catch (error) {
      await this.teardown(run);
      throw error;
    }
  }

  /** Slots the rooms leave for warm runs now; none while a room is starting, so the room gets the CPU. */
  private roomForWarm(): number {
    if (this.closed) return 0;
    for (const entry of this.rooms.values()) {
      if (entry.reserved > 0 || entry.state === 'starting') return 0;
    }
    return this.options.capacity - this.occupied();
  }

  private async stopNow(
    entry: TRoomEntry,
    reason: 'requested' | 'auto-close',
    ending?: TRoomEnding,
  ): Promise<void> {
    const run = entry.run;
    if (!run) {
      // A crashed room has already been cleaned up; stopping it acknowledges the crash.
      if (entry.state === 'crashed') this.setState(entry, 'stopped', reason, ending);
      return;
    }
    this.setState(entry, 'stopping', reason, ending);
    await this.teardown(run);
    entry.run = undefined;
    // Saved before the room counts as stopped: a start elsewhere right after must find this run's last profile.
    await this.releaseProfile(run);
    this.setState(entry, 'stopped', reason, ending);
    // Its slot is free: a warm run may take it.
    this.pool.schedule();
  }

  /** A part of the room died by itself (the browser, its display or its sound server): start it again. */
  private async crashed(entry: TRoomEntry, run: TRun, part: TRoomPart): Promise<void> {
    await this.enqueue(entry, async () => {
      // A start still in progress sees the failure itself; a later run is not this browser.
      if (entry.run !== run || entry.state !== 'running') return;
      const now = performance.now();
      entry.crashes = [...entry.crashes.filter((at) => now - at < CRASH_WINDOW_MS), now];
      const again = entry.crashes.length <= CRASH_RESTARTS && !this.closed;
      this.logger.warn({ roomId: entry.roomId, part, restarting: again }, `room ${part} exited unexpectedly`);
      await this.teardown(run);
      entry.run = undefined;
      // Restarted here, the room goes on with this run's profile on disk; left crashed, it is saved now.
      if (!again) await this.releaseProfile(run);
      // Members are told it restarts (their pages wait and come back), unless it keeps dying.
      this.setState(entry, 'crashed', 'crashed', again ? { reason: 'restarting', by: null } : undefined);
      if (again && run.spec) await this.startNow(entry, run.spec);
    }).catch((error) => this.logger.error({ err: error, roomId: entry.roomId }, 'crash recovery failed'));
  }

  /**
   * The stopped run's kept profile saved, after any checkpoint still under way (a failure is logged, not thrown),
   * then its volume unmounted: the run's last use of the room's directory.
   */
  private async releaseProfile(run: TRun): Promise<void> {
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

  private async teardown(run: TRun): Promise<void> {
    run.autoClose?.cancel();
    clearInterval(run.checkpoints);
    run.closing = true;
    await run.holding;
    run.media?.expectExit();
    await run.session?.close().catch(() => {});
    await run.browser
      ?.close()
      .catch((error) =>
        this.logger.error({ err: error, roomId: run.id }, 'room browser did not close cleanly'),
      );
    // The namespace goes before the media helpers: its end kills them all at once, while the helpers' launchers
    // (nsenter, outside the namespace) still live to reap them. Stopped first, the launchers would leave their
    // dead children to the host's init, and the namespace could not finish until that reaped them (~2 s here).
    await run.sandbox
      ?.close()
      .catch((error) => this.logger.error({ err: error, roomId: run.id }, 'room sandbox did not close'));
    if (run.egressDoor) {
      await run.egressDoor.close();
      await rm(dirname(run.egressDoor.socketPath), { recursive: true, force: true }).catch(() => {});
    }
    await run.media
      ?.stop()
      .catch((error) => this.logger.error({ err: error, roomId: run.id }, 'room media did not stop'));
    if (run.fresh) await rm(run.profileDir, { recursive: true, force: true }).catch(() => {});
    await removeDownloadsDir(run.downloadsDir);
  }

  private async prepareProfile(
    id: string,
    kept: TProfileRun | undefined,
    support: TSandboxSupport,
  ): Promise<{ profileDir: string; fresh: boolean; profile?: TProfileRun }> {
    if (kept) {
      // On the room's own volume where rooms are sandboxed: what a page stores cannot fill the host's disk.
      if (support.kind === 'namespaces') await this.volumes.mount(id);
      const profileDir = join(this.options.roomsDataDir, id, 'profile');
      await mkdir(profileDir, { recursive: true });
      await this.profiles.restore(kept, profileDir);
      await applyRoomPreferences(profileDir);
      return { profileDir, fresh: false, profile: kept };
    }
    const freshRoot = join(this.options.roomsDataDir, '.fresh');
    // Fresh profiles left by a server that was killed hard belong to no running room: cleared once per engine.
    this.freshSwept ??= rm(freshRoot, { recursive: true, force: true });
    await this.freshSwept;
    await mkdir(freshRoot, { recursive: true });
    const profileDir = await mkdtemp(join(freshRoot, `${id}-`));
    await applyRoomPreferences(profileDir);
    return { profileDir, fresh: true };
  }

  private async chooseMediaPath(): Promise<TMediaPath> {
    const mode = this.options.media ?? 'auto';
    if (mode === 'screencast') return 'screencast';
    const probe = await probeMediaTools();
    if (probe.ok) return 'h264';
    if (mode === 'h264') {
      throw new Error(`ROOM_MEDIA=h264 but the media pipeline is missing: ${probe.missing.join(', ')}`);
    }
    this.logger.warn(
      { missing: probe.missing },
      'media pipeline unavailable: rooms stream the JPEG screencast without sound',
    );
    return 'screencast';
  }

  /**
   * The room's display, sound and encoders. When they fail to start and the path was chosen automatically, the
   * room runs on the screencast instead: a room without sound beats a room that does not start.
   */
  private async startMedia(
    id: string,
    shape: TWarmShape,
    launcher: RoomSandbox,
    runtimeDir: string,
  ): Promise<RoomMedia | undefined> {
    try {
      return await RoomMedia.start({
        launcher,
        roomId: id,
        width: shape.width,
        height: shape.height,
        fps: shape.maxFrameRate,
        bitrateKbps: shape.videoBitrateKbps,
        runtimeDir,
        logger: this.logger,
      });
    } catch (error) {
      if (this.options.media === 'h264') throw error;
      this.logger.error({ err: error, roomId: id }, 'room media failed to start: using the screencast');
      return undefined;
    }
  }

  /** A short private directory for the room's sound server socket (a unix socket path has at most 107 bytes). */
  private async mediaDir(): Promise<string> {
    const root = join(this.options.roomsDataDir, '.media');
    // Left by a server that was killed hard: its processes died with it (see ../media/room-process.ts).
    this.mediaSwept ??= rm(root, { recursive: true, force: true });
    await this.mediaSwept;
    await mkdir(root, { recursive: true, mode: 0o700 });
    return mkdtemp(join(root, 'm-'));
  }

  /**
   * A sandboxed run's own door to the proxy, in a directory of its own: its namespace sees that directory only,
   * so one room cannot use another's door, and one room at its door's cap leaves the proxy to the others.
   */
  private async egressDoor(proxy: Pick<TEgressProxy, 'openDoor'>, room: () => string): Promise<TEgressDoor> {
    const root = join(this.options.roomsDataDir, '.egress');
    // Doors left by a server that was killed hard belong to no running room: cleared once per engine.
    this.egressSwept ??= rm(root, { recursive: true, force: true });
    await this.egressSwept;
    await mkdir(root, { recursive: true, mode: 0o755 });
    const dir = await mkdtemp(join(root, 'e-'));
    // The room user passes through to the socket (mkdtemp makes the directory the server's alone).
    await chmod(dir, 0o755);
    try {
      return await proxy.openDoor(join(dir, 'proxy.sock'), room);
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** One proxy for all rooms, started with the first room; a failed start is retried by the next room. */
  private async egressProxy(): Promise<Pick<TEgressProxy, 'url' | 'openDoor' | 'failure' | 'close'>> {
    this.proxy ??= this.options.egress.start({ allow: this.options.egress.allow });
    try {
      return await this.proxy;
    } catch (error) {
      this.proxy = undefined;
      throw error;
    }
  }

  private entry(roomId: string): TRoomEntry {
    let entry = this.rooms.get(roomId);
    if (!entry) {
      entry = {
        roomId,
        state: 'stopped',
        queue: Promise.resolve(),
        reserved: 0,
        participants: 0,
        crashes: [],
      };
      this.rooms.set(roomId, entry);
    }
    return entry;
  }

  private occupied(): number {
    let count = 0;
    for (const entry of this.rooms.values()) {
      if (entry.reserved > 0 || LIVE_STATES.has(entry.state)) count++;
    }
    return count;
  }

  private enqueue<T>(entry: TRoomEntry, operation: () => Promise<T>): Promise<T> {
    const result = entry.queue.then(operation);
    entry.queue = result.catch(() => {});
    return result;
  }

  private setState(
    entry: TRoomEntry,
    state: TRoomRuntimeState,
    reason?: TRoomStateChange['reason'],
    ending?: TRoomEnding,
  ): void {
    if (entry.state === state) return;
    entry.state = state;
    const change: TRoomStateChange = { roomId: entry.roomId, state };
    if (reason) change.reason = reason;
    if (ending) change.ending = ending;
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.logger.error({ err: error, roomId: entry.roomId }, 'a room state listener failed');
      }
    }
  }
}

/**
 * The part of a room's settings its processes are started for (the rest is the page's business). On the
 * screencast path only the size matters; matching all four there costs at most a cold start.
 */
function shapeOf(shape: TWarmShape): TWarmShape {
  return {
    width: shape.width,
    height: shape.height,
    maxFrameRate: shape.maxFrameRate,
    videoBitrateKbps: shape.videoBitrateKbps,
  };
}
