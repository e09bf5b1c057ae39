// A running room as the relay sees it: its picture (and sound), its controller's input and the browser controls,
// all aimed at the active tab of the room's Chromium. The picture is the room's H.264 stream when the room has the
// media pipeline, with the CDP screencast as the fallback beside it; without the pipeline, the screencast alone.
import type { TRoomLaunchSpec } from '@rooms/api';
import type { TRoomInput } from '@rooms/api/room-protocol';
import type { BrowserContext, Page } from 'playwright-core';
import { failurePage, type TEgressFailure } from '../egress/failure-page';
import type { TRoomLogger } from '../room-logger';
import type { MediaSource, RoomSession, TBrowserTab, TPictureLayer, TRoomFileOut } from '../room-session';
import { ChromiumFilesIn } from './files-in';
import { RoomFilesOut } from './files-out';
import { dispatchInput, isTargetGone } from './input-dispatcher';
import { KeyFilter } from './key-filter';
import { ScreencastSource } from './screencast-source';
import { TabSet } from './tabs';
import { normaliseAddress } from './url-policy';

/** The room's encoded streams (./media), which run on their own; the session only hands them out. */
export interface TEncodedMedia {
  video: MediaSource;
  audio: MediaSource;
  /** The picture's ladder, best first (the first is `video`). */
  layers?: readonly TPictureLayer[];
}

/** What the engine hands a session besides the browser. */
export interface TSessionParts {
  encoded?: TEncodedMedia;
  /** Why the egress proxy could not open an address's host lately, if it could not (../egress/failure-page). */
  egressFailure?: (address: string) => TEgressFailure | undefined;
  /** The run's own downloads directory (./files-out.ts); without it the room downloads nothing. */
  downloadsDir?: string;
}

const NAVIGATION_TIMEOUT_MS = 30_000;
/** Thumbnails are small and looked at briefly: a low quality keeps them a few kilobytes. */
const SNAPSHOT_JPEG_QUALITY = 60;

export class ChromiumRoomSession implements RoomSession {
  readonly roomId: string;
  readonly viewport: { width: number; height: number };
  readonly video: MediaSource;
  readonly audio: MediaSource | undefined;
  readonly layers: readonly TPictureLayer[] | undefined;
  readonly fallbackVideo: ScreencastSource | undefined;
  /** The CDP capture of the active tab: `video` itself, or the fallback beside the H.264 stream. */
  private readonly screencast: ScreencastSource;
  private readonly tabSet: TabSet;
  private readonly keys = new KeyFilter();
  private filesOut: RoomFilesOut | undefined;
  /** Files from the controller, into the run's own directory (./files-in.ts); none without that directory. */
  filesIn: ChromiumFilesIn | undefined;

  private constructor(
    context: BrowserContext,
    spec: TRoomLaunchSpec,
    private readonly logger: TRoomLogger,
    { encoded, egressFailure }: TSessionParts,
  ) {
    this.roomId = spec.roomId;
    this.viewport = { width: spec.width, height: spec.height };
    this.screencast = new ScreencastSource({
      width: spec.width,
      height: spec.height,
      maxFrameRate: spec.maxFrameRate,
      lazy: encoded !== undefined,
      onListenerError: (error) =>
        logger.error({ err: error, roomId: spec.roomId }, 'a frame listener failed'),
    });
    this.video = encoded?.video ?? this.screencast;
    this.audio = encoded?.audio;
    this.layers = encoded?.layers;
    this.fallbackVideo = encoded ? this.screencast : undefined;
    this.tabSet = new TabSet(context, {
      onActivate: (tab) => this.screencast.follow(tab.cdp),
      onError: (error, message) => logger.warn({ err: error, roomId: spec.roomId }, message),
      onStrayClosed: (url, reason) =>
        logger.info({ roomId: spec.roomId, url, reason }, 'closed a page the room must not show'),
      failurePage: (address) => {
        const failure = egressFailure?.(address);
        return failure ? failurePage(address, failure) : undefined;
      },
    });
  }

  /** Follows the browser's tabs, starts the picture and opens the start page. */
  static async open(
    context: BrowserContext,
    spec: TRoomLaunchSpec,
    logger: TRoomLogger,
    parts: TSessionParts = {},
  ): Promise<ChromiumRoomSession> {
    const session = new ChromiumRoomSession(context, spec, logger, parts);
    await session.tabSet.init();
    session.filesOut = await RoomFilesOut.open(context, {
      downloadsDir: parts.downloadsDir,
      onError: (error, message) => logger.warn({ err: error, roomId: spec.roomId }, message),
    });
    if (parts.downloadsDir) {
      session.filesIn = ChromiumFilesIn.open(context, {
        dir: parts.downloadsDir,
        activeCdp: () => session.tabSet.active()?.cdp,
        viewport: session.viewport,
        onError: (error, message) => logger.warn({ err: error, roomId: spec.roomId }, message),
      });
    }
    // The start URL comes from the system image, not from a participant, but passes the same policy.
    await session.navigate(spec.startUrl);
    return session;
  }

  async applyInput(input: TRoomInput): Promise<void> {
    // Browser shortcuts never reach Chromium (./key-filter); the filter sees every key, tab or not, to pair them.
    const allowed = input.type === 'input/key' ? this.keys.apply(input) : input;
    const tab = this.tabSet.active();
    if (tab && allowed) await dispatchInput(tab.cdp, allowed, this.viewport);
  }

  async navigate(url: string): Promise<void> {
    const target = normaliseAddress(url);
    await this.onActivePage((page) =>
      page.goto(target, { waitUntil: 'commit', timeout: NAVIGATION_TIMEOUT_MS }),
    );
  }

  back(): Promise<void> {
    return this.onActivePage((page) => page.goBack({ waitUntil: 'commit', timeout: NAVIGATION_TIMEOUT_MS }));
  }

  forward(): Promise<void> {
    return this.onActivePage((page) =>
      page.goForward({ waitUntil: 'commit', timeout: NAVIGATION_TIMEOUT_MS }),
    );
  }

  async find(text: string, backwards: boolean): Promise<boolean> {
    const tab = this.tabSet.active();
    if (!tab) return false;
    try {
      // window.find: case-insensitive, wrapping, the page's own selection marks the match for everyone.
      return await tab.page.evaluate(
        ([query, back]) =>
          Boolean((window as { find?: (...args: unknown[]) => boolean }).find?.(query, false, back, true)),
        [text, backwards] as const,
      );
    } catch (error) {
      if (isTargetGone(error)) return false;
      throw error;
    }
  }

  reload(): Promise<void> {
    return this.onActivePage((page) => page.reload({ waitUntil: 'commit', timeout: NAVIGATION_TIMEOUT_MS }));
  }

  tabs(): TBrowserTab[] {
    return this.tabSet.list();
  }

  async openTab(url?: string): Promise<void> {
    // Validated before the tab exists, so a refused address leaves no stray blank tab.
    const target = url === undefined ? undefined : normaliseAddress(url);
    await this.tabSet.open();
    if (target && target !== 'about:blank') await this.navigate(target);
  }

  activateTab(tabId: string): Promise<void> {
    return this.tabSet.activate(tabId);
  }

  closeTab(tabId: string): Promise<void> {
    return this.tabSet.close(tabId);
  }

  onTabsChanged(listener: (tabs: TBrowserTab[]) => void): () => void {
    return this.tabSet.onChange(listener);
  }

  async snapshot(maxWidth: number): Promise<Uint8Array | null> {
    const tab = this.tabSet.active();
    if (!tab) return null;
    const { width, height } = this.viewport;
    const scale = Math.min(1, maxWidth / width);
    try {
      const { data } = await tab.cdp.send('Page.captureScreenshot', {
        format: 'jpeg',
        quality: SNAPSHOT_JPEG_QUALITY,
        clip: { x: 0, y: 0, width, height, scale },
      });
      return Buffer.from(data, 'base64');
    } catch (error) {
      if (isTargetGone(error)) return null;
      throw error;
    }
  }

  onFilesOut(listener: (event: TRoomFileOut) => void): () => void {
    return this.filesOut?.on(listener) ?? (() => {});
  }

  async close(): Promise<void> {
    this.filesIn?.close();
    await this.filesOut?.close();
    this.tabSet.dispose();
    await this.screencast.stop();
  }

  /**
   * Runs a navigation on the active tab. A site that fails to load (refused by the egress guard, DNS, timeout)
   * shows Chromium's error page to everyone, which is the answer; only a vanished tab is swallowed silently.
   */
  private async onActivePage(action: (page: Page) => Promise<unknown>): Promise<void> {
    const tab = this.tabSet.active();
    if (!tab) return;
    try {
      await action(tab.page);
    } catch (error) {
      if (isTargetGone(error)) return;
      this.logger.debug({ err: error, roomId: this.roomId }, 'navigation did not complete');
    }
  }
}
