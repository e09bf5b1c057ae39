// Starts and ends room runs: sandbox, display and sound, browser, on a fresh profile or the room's kept one, with
// the run's own door to the egress proxy. Also what every start needs first: the preflight (browser present, disk
// free), the machine's isolation, the media path and the one egress proxy of all rooms.
import { constants } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, rm, statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { TEgressDoor, TEgressProxy } from '../egress/egress-proxy';
import { probeMediaTools } from '../media/media-tools';
import { RoomMedia } from '../media/room-media';
import type { ProfileStore, TProfileRun } from '../profiles/profile-store';
import type { RoomVolumes } from '../profiles/room-volumes';
import type { TRoomLogger } from '../room-logger';
import { RoomSandbox } from '../sandbox/room-sandbox';
import {
  describeSandboxSupport,
  probeSandboxSupport,
  type TSandboxSupport,
} from '../sandbox/sandbox-support';
import { makeDownloadsDir, removeDownloadsDir } from './downloads-dir';
import type { TChromiumRoomEngineOptions, TEgressStarter, TMediaPath } from './engine-options';
import { RoomBrowser } from './room-browser';
import { applyRoomPreferences } from './room-profile-preferences';
import type { TRoomPart, TRun } from './room-run';
import type { TWarmShape } from './warm-pool';

/** Below this much free space in the rooms' data directory no room starts (profiles, media sockets, logs). */
const MIN_FREE_DISK_MB = 200;
const DEFAULT_LIMITS = { memoryMb: 2048, pids: 2048 };
/**
 * A fresh profile's tmpfs, as a share of the room's memory (which its pages count against): 512 MB at the default
 * 2 GB, room for a site's caches and storage while the page itself keeps the rest.
 */
const FRESH_PROFILE_SHARE_OF_MEMORY = 0.25;
/** Open files per room process: Chromium with many tabs needs a few thousand, a runaway page no more. */
const OPEN_FILES = 8192;

type TProxy = Awaited<ReturnType<TEgressStarter>>;

export class RunLauncher {
  private proxy: ReturnType<TEgressStarter> | undefined;
  private freshSwept: Promise<void> | undefined;
  private egressSwept: Promise<void> | undefined;
  private mediaSwept: Promise<void> | undefined;
  private chosenPath: Promise<TMediaPath> | undefined;
  private probedSandbox: Promise<TSandboxSupport> | undefined;

  constructor(
    private readonly options: TChromiumRoomEngineOptions,
    private readonly logger: TRoomLogger,
    private readonly profiles: ProfileStore,
    /** Keep-data rooms' own filesystems; used where rooms run in namespaces (the server is root). */
    private readonly volumes: RoomVolumes,
  ) {}

  /**
   * Sandbox, display and sound, browser: everything of a room but its page. Nothing of it is left when it fails.
   * `id` names the profile, the sandbox's cgroups and the log lines: the room's own, or a warm run's. `kept`: the
   * run whose kept profile the browser opens; unset, it gets a fresh one.
   */
  async launch(id: string, shape: TWarmShape, kept: TProfileRun | undefined): Promise<TRun> {
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

  async teardown(run: TRun): Promise<void> {
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

  /** One proxy for all rooms, started with the first room; a failed start is retried by the next room. */
  async egressProxy(): Promise<TProxy> {
    this.proxy ??= this.options.egress.start({ allow: this.options.egress.allow });
    try {
      return await this.proxy;
    } catch (error) {
      this.proxy = undefined;
      throw error;
    }
  }

  /** Closes the egress proxy, if one was started. */
  async close(): Promise<void> {
    const proxy = await this.proxy?.catch(() => undefined);
    await proxy?.close();
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
}
