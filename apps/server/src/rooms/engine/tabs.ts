// The room browser's tabs as participants see them: every page of the context (popups included) is a tab, the
// newest becomes active, and the room always keeps at least one. Each tab has its own CDP session, used for the
// screencast and input, and a guard that refuses browser-internal and file URLs. A watcher over every target of the
// browser closes at once, before the room adopts it, what a room must never show: a chrome:, devtools:, file: …
// page, a window of its own (with an omnibox) that no page opened, a page of another profile (incognito).
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { TBrowserTab } from '../room-session';
import { BLOCKED_SCHEMES, isBlockedUrl } from './url-policy';

export interface TTab {
  id: string;
  page: Page;
  cdp: CDPSession;
  url: string;
  title: string;
  targetId: string;
  /** The browser window holding the tab, when the browser tells. */
  windowId: number | undefined;
  /** The tab has shown a page (more than blank, error or refused ones): from then on it is the room's own. */
  shown: boolean;
  /** The address the tab's last top-level navigation asked for: shown instead of Chromium's error page. */
  requested?: string;
}

export interface TTabSetHooks {
  /** The active tab changed (the screencast follows it). */
  onActivate(tab: TTab): Promise<void>;
  onError(error: unknown, message: string): void;
  /** A page or window the room must not show was closed. */
  onStrayClosed?(url: string, reason: string): void;
  /** The room's own page for an address that could not be opened, shown over Chromium's; undefined keeps it. */
  failurePage?(address: string): string | undefined;
}

/** What CDP tells about a target (Target.TargetInfo). */
export interface TTargetInfo {
  targetId: string;
  type: string;
  url: string;
  openerId?: string;
  browserContextId?: string;
}

// Fetch interception only for these schemes: http(s) requests never pause, so pages load at full speed.
const GUARD_PATTERNS = BLOCKED_SCHEMES.map((scheme) => ({ urlPattern: `${scheme}*` }));

const TOP_CHROME = /^chrome:\/\/[a-z0-9.-]+\.top-chrome\//i;

/**
 * The browser's own UI: the omnibox popup is a WebUI page in no tab or window of its own. Chromium reports it as
 * `browser_ui`, except while it starts: a browser that launches on a busy machine shows it to Playwright as a page,
 * whose document is already the error page its blocked chrome:// address gets. It is no stray and no tab.
 */
export function isBrowserUi(target: Pick<TTargetInfo, 'type' | 'url'>): boolean {
  return target.type === 'browser_ui' || TOP_CHROME.test(target.url);
}

/**
 * How often the tabs' titles are read again besides their loads: a page renames itself at any time (single-page
 * sites, chats counting unread messages), and Chromium tells DevTools late or not at all.
 */
const TITLE_READ_MS = 1000;

/**
 * Why a page target must be closed at once, or undefined. Windows are judged apart (they need a lookup). A tab that
 * has shown a page is left to its own guard, so a refused link shows the error page as before instead of closing
 * the tab under everyone.
 */
export function strayReason(
  target: TTargetInfo,
  tab: Pick<TTab, 'shown'> | undefined,
  roomContextId: string | undefined,
): string | undefined {
  if (target.type !== 'page' || tab?.shown || isBrowserUi(target)) return undefined;
  if (isBlockedUrl(target.url)) return 'browser-internal or local page';
  if (roomContextId && target.browserContextId && target.browserContextId !== roomContextId) {
    return 'page of another profile';
  }
  return undefined;
}

/** Pages the room has shown something of: not the blank page, nor an error page (a refused address included). */
function showsPage(url: string): boolean {
  const lower = url.toLowerCase();
  return (
    url !== '' && !lower.startsWith('about:') && !lower.startsWith('chrome-error:') && !isBlockedUrl(url)
  );
}

export class TabSet {
  private readonly tabs: TTab[] = [];
  private readonly adding = new Map<Page, Promise<TTab | undefined>>();
  private readonly listeners = new Set<(tabs: TBrowserTab[]) => void>();
  /** Targets being closed as strays: never adopted, never closed twice. */
  private readonly strays = new Set<string>();
  private browserSession: CDPSession | undefined;
  /** The profile of the room's pages (Target.browserContextId), known from the first tab. */
  private contextId: string | undefined;
  /** Pages the room is opening itself: they may open a window of their own when no tab is left. */
  private opening = 0;
  /** init() has adopted the browser's first pages (before, a stray must not make it open a blank one). */
  private ready = false;
  private activeId: string | undefined;
  private previousActiveId: string | undefined;
  private lastEmitted = '';
  private nextId = 1;
  private disposed = false;
  private readonly readingTitle = new Set<TTab>();
  private titleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly context: BrowserContext,
    private readonly hooks: TTabSetHooks,
  ) {}

  /** Watches the browser's targets, adopts the page the browser opened with and follows every page opened later. */
  async init(): Promise<void> {
    // Pages close with the browser; that must not look like "the last tab closed, open a blank one".
    this.context.on('close', () => this.dispose());
    await this.watchTargets();
    this.context.on('page', (page) => void this.tabFor(page));
    for (const page of this.context.pages()) await this.tabFor(page);
    if (this.tabs.length === 0) await this.open();
    this.ready = true;
    this.titleTimer = setInterval(() => {
      for (const tab of this.tabs) void this.refreshTitle(tab);
    }, TITLE_READ_MS);
    this.titleTimer.unref();
  }

  list(): TBrowserTab[] {
    return this.tabs.map((tab) => ({
      id: tab.id,
      url: tab.url,
      title: tab.title,
      active: tab.id === this.activeId,
    }));
  }

  active(): TTab | undefined {
    return this.tabs.find((tab) => tab.id === this.activeId);
  }

  onChange(listener: (tabs: TBrowserTab[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async open(): Promise<TTab | undefined> {
    this.opening++;
    try {
      return await this.tabFor(await this.context.newPage());
    } finally {
      this.opening--;
    }
  }

  async activate(id: string): Promise<void> {
    const tab = this.tabs.find((candidate) => candidate.id === id);
    if (!tab || this.disposed) return;
    if (this.activeId !== tab.id) this.previousActiveId = this.activeId;
    this.activeId = tab.id;
    await tab.page.bringToFront().catch(() => {});
    await this.hooks.onActivate(tab);
    this.emit();
  }

  async close(id: string): Promise<void> {
    const tab = this.tabs.find((candidate) => candidate.id === id);
    await tab?.page.close().catch(() => {});
  }

  dispose(): void {
    this.disposed = true;
    clearInterval(this.titleTimer);
    this.listeners.clear();
    void this.browserSession?.detach().catch(() => {});
  }

  /**
   * One browser-level CDP session sees every target, also those Playwright never reports as pages (a devtools
   * window, an incognito window), and usually before Playwright has attached to them.
   */
  private async watchTargets(): Promise<void> {
    const browser = this.context.browser();
    if (!browser) return;
    const session = await browser.newBrowserCDPSession();
    this.browserSession = session;
    const onTarget = (created: boolean) => (event: { targetInfo: TTargetInfo }) => {
      this.guardTarget(event.targetInfo, created).catch((error) => {
        if (!this.disposed) this.hooks.onError(error, 'could not close a stray page');
      });
    };
    session.on('Target.targetCreated', onTarget(true));
    session.on('Target.targetInfoChanged', onTarget(false));
    session.on('Target.targetDestroyed', (event: { targetId: string }) => this.strays.delete(event.targetId));
    await session.send('Target.setDiscoverTargets', { discover: true });
  }

  private async guardTarget(target: TTargetInfo, created: boolean): Promise<void> {
    if (this.disposed || this.strays.has(target.targetId)) return;
    const tabOf = () => this.tabs.find((tab) => tab.targetId === target.targetId);
    let reason = strayReason(target, tabOf(), this.contextId);
    if (!reason && created && target.type === 'page' && !tabOf() && (await this.isExtraWindow(target))) {
      reason = 'window no page opened';
    }
    if (!reason || this.disposed || this.strays.has(target.targetId)) return;
    this.strays.add(target.targetId);
    this.hooks.onStrayClosed?.(target.url, reason);
    const tab = tabOf();
    if (tab) return this.discard(tab);
    // The room never goes without a tab, and a browser without a window may quit: the blank page comes first.
    if (this.ready && this.tabs.length === 0) await this.open();
    await this.browserSession?.send('Target.closeTarget', { targetId: target.targetId }).catch(() => {});
  }

  /** A window no tab of the room lives in, opened by no page: Ctrl+N, "Open link in new window". */
  private async isExtraWindow(target: TTargetInfo): Promise<boolean> {
    if (target.openerId || this.opening > 0) return false;
    const roomWindows = new Set(this.tabs.map((tab) => tab.windowId).filter((id) => id !== undefined));
    if (roomWindows.size === 0) return false;
    const windowId = await this.windowOf(target.targetId);
    return windowId !== undefined && !roomWindows.has(windowId);
  }

  private async windowOf(targetId: string): Promise<number | undefined> {
    const result = await this.browserSession
      ?.send('Browser.getWindowForTarget', { targetId })
      .catch(() => undefined);
    return result?.windowId;
  }

  /** Closes a tab that must go, opening the blank page first when it is the last one. */
  private async discard(tab: TTab): Promise<void> {
    if (this.tabs.length === 1) await this.open();
    await tab.page.close().catch(() => {});
  }

  /** The tab of a page, adding it (and making it active) the first time the page is seen. */
  private tabFor(page: Page): Promise<TTab | undefined> {
    let adding = this.adding.get(page);
    if (!adding) {
      adding = this.add(page).catch((error) => {
        // A popup that closes at once, or the browser going away, is not an error worth more than a log line.
        if (!page.isClosed() && !this.disposed) this.hooks.onError(error, 'could not follow a new tab');
        return undefined;
      });
      this.adding.set(page, adding);
    }
    return adding;
  }

  private async add(page: Page): Promise<TTab | undefined> {
    const cdp = await this.context.newCDPSession(page);
    cdp.on('Fetch.requestPaused', (event: { requestId: string }) => {
      cdp
        .send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' })
        .catch(() => {});
    });
    const [{ targetInfo }] = await Promise.all([
      cdp.send('Target.getTargetInfo') as Promise<{ targetInfo: TTargetInfo }>,
      cdp.send('Fetch.enable', { patterns: GUARD_PATTERNS }),
    ]);
    // Judged by the target's address: the page's own is the error page a blocked one shows, which hides it. A
    // room that adopted it had a tab no one opened, and keys went astray once it came to the front.
    if (isBrowserUi(targetInfo)) {
      await cdp.detach().catch(() => {});
      return undefined;
    }
    this.contextId ??= targetInfo.browserContextId;
    if (this.disposed || page.isClosed() || this.strays.has(targetInfo.targetId)) return undefined;
    // The watcher may not have judged this page yet: a stray is closed here rather than adopted.
    const reason = strayReason(
      { ...targetInfo, url: page.url() || targetInfo.url },
      undefined,
      this.contextId,
    );
    if (reason) {
      this.strays.add(targetInfo.targetId);
      this.hooks.onStrayClosed?.(page.url(), reason);
      if (this.ready && this.tabs.length === 0) await this.open();
      await page.close().catch(() => {});
      return undefined;
    }

    const tab: TTab = {
      id: `tab-${this.nextId++}`,
      page,
      cdp,
      url: page.url(),
      title: '',
      targetId: targetInfo.targetId,
      windowId: await this.windowOf(targetInfo.targetId),
      shown: showsPage(page.url()),
    };
    this.tabs.push(tab);
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame())
        tab.requested = request.url();
    });
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      // A page that failed to load is Chromium's chrome-error://chromewebdata/; people want to see, and fix,
      // the address they typed.
      const url = frame.url();
      const failed = url.startsWith('chrome-error:') && tab.requested;
      tab.url = failed ? (tab.requested as string) : url;
      if (failed) void this.showFailure(tab, tab.url);
      if (isBlockedUrl(tab.url)) {
        // Second line of defence: whatever reached a blocked scheme despite the request guard goes. A tab that
        // never showed a page is a stray like any other; the room's own tab is sent to the blank page instead.
        if (tab.shown) void page.goto('about:blank').catch(() => {});
        else if (!this.strays.has(tab.targetId)) {
          this.strays.add(tab.targetId);
          this.hooks.onStrayClosed?.(tab.url, 'browser-internal or local page');
          void this.discard(tab);
        }
      } else if (showsPage(tab.url)) {
        tab.shown = true;
      }
      this.emit();
    });
    page.on('domcontentloaded', () => void this.refreshTitle(tab));
    page.on('load', () => void this.refreshTitle(tab));
    page.on('close', () => void this.remove(tab));
    await this.activate(tab.id);
    return tab;
  }

  /**
   * Puts the room's page that says why over Chromium's error page (which can only say "tunnel connection failed"
   * of an address the proxy could not open). The document is replaced in place: the tab stays on the address as
   * typed, and Back and Reload behave as on any error page.
   */
  private async showFailure(tab: TTab, address: string): Promise<void> {
    const html = this.hooks.failurePage?.(address);
    if (!html) return;
    try {
      const { frameTree } = (await tab.cdp.send('Page.getFrameTree')) as {
        frameTree: { frame: { id: string; url: string } };
      };
      // Still the error page of that address: a navigation since has a document of its own.
      if (!frameTree.frame.url.startsWith('chrome-error:') || tab.requested !== address) return;
      await tab.cdp.send('Page.setDocumentContent', { frameId: frameTree.frame.id, html });
      await this.refreshTitle(tab);
    } catch (error) {
      if (!this.disposed && !tab.page.isClosed())
        this.hooks.onError(error, 'could not show the failure page');
    }
  }

  /** Reads the tab's title again (one read at a time: a hung page must not pile them up); told when it changed. */
  private async refreshTitle(tab: TTab): Promise<void> {
    if (this.readingTitle.has(tab)) return;
    this.readingTitle.add(tab);
    try {
      const title = await tab.page.title().catch(() => tab.title);
      if (title === tab.title || this.disposed) return;
      tab.title = title;
      this.emit();
    } finally {
      this.readingTitle.delete(tab);
    }
  }

  private async remove(tab: TTab): Promise<void> {
    const index = this.tabs.indexOf(tab);
    if (index === -1) return;
    this.tabs.splice(index, 1);
    this.adding.delete(tab.page);
    this.strays.delete(tab.targetId);
    await tab.cdp.detach().catch(() => {});
    if (this.disposed) return;
    if (tab.id === this.activeId) {
      this.activeId = undefined;
      // Back to the tab that was active before (a stray that got activated for a moment leaves no trace).
      const next = this.tabs.find((candidate) => candidate.id === this.previousActiveId) ?? this.tabs.at(-1);
      // A room with no tab would show nothing and accept no input; it gets a blank one instead.
      if (next) await this.activate(next.id);
      else await this.open().catch((error) => this.hooks.onError(error, 'could not reopen a tab'));
    }
    this.emit();
  }

  private emit(): void {
    if (this.disposed) return;
    const tabs = this.list();
    const snapshot = JSON.stringify(tabs);
    if (snapshot === this.lastEmitted) return;
    this.lastEmitted = snapshot;
    for (const listener of this.listeners) listener(tabs);
  }
}
