// The room browser's tabs as participants see them: every page of the context (new windows and popups
// included) is a tab, the newest becomes active, and the room always keeps at least one. Each tab has its own
// CDP session, used for the screencast and input, and a guard that refuses browser-internal and file URLs.
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { TBrowserTab } from '../room-session';
import { BLOCKED_SCHEMES, isBlockedUrl } from './url-policy';

export interface TTab {
  id: string;
  page: Page;
  cdp: CDPSession;
  url: string;
  title: string;
}

export interface TTabSetHooks {
  /** The active tab changed (the screencast follows it). */
  onActivate(tab: TTab): Promise<void>;
  onError(error: unknown, message: string): void;
}

// Fetch interception only for these schemes: http(s) requests never pause, so pages load at full speed.
const GUARD_PATTERNS = BLOCKED_SCHEMES.map((scheme) => ({ urlPattern: `${scheme}*` }));

export class TabSet {
  private readonly tabs: TTab[] = [];
  private readonly adding = new Map<Page, Promise<TTab | undefined>>();
  private readonly listeners = new Set<(tabs: TBrowserTab[]) => void>();
  private activeId: string | undefined;
  private lastEmitted = '';
  private nextId = 1;
  private disposed = false;

  constructor(
    private readonly context: BrowserContext,
    private readonly hooks: TTabSetHooks,
  ) {}

  /** Adopts the page the browser opened with and follows every page opened later. */
  async init(): Promise<void> {
    // Pages close with the browser; that must not look like "the last tab closed, open a blank one".
    this.context.on('close', () => this.dispose());
    this.context.on('page', (page) => void this.tabFor(page));
    for (const page of this.context.pages()) await this.tabFor(page);
    if (this.tabs.length === 0) await this.tabFor(await this.context.newPage());
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
    return this.tabFor(await this.context.newPage());
  }

  async activate(id: string): Promise<void> {
    const tab = this.tabs.find((candidate) => candidate.id === id);
    if (!tab || this.disposed) return;
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
    this.listeners.clear();
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
    await cdp.send('Fetch.enable', { patterns: GUARD_PATTERNS });
    if (this.disposed || page.isClosed()) return undefined;

    const tab: TTab = { id: `tab-${this.nextId++}`, page, cdp, url: page.url(), title: '' };
    this.tabs.push(tab);
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      tab.url = frame.url();
      // Second line of defence: whatever reached a blocked scheme despite the request guard is replaced.
      if (isBlockedUrl(tab.url)) void page.goto('about:blank').catch(() => {});
      this.emit();
    });
    const refreshTitle = async () => {
      tab.title = await page.title().catch(() => tab.title);
      this.emit();
    };
    page.on('domcontentloaded', refreshTitle);
    page.on('load', refreshTitle);
    page.on('close', () => void this.remove(tab));
    await this.activate(tab.id);
    return tab;
  }

  private async remove(tab: TTab): Promise<void> {
    const index = this.tabs.indexOf(tab);
    if (index === -1) return;
    this.tabs.splice(index, 1);
    this.adding.delete(tab.page);
    await tab.cdp.detach().catch(() => {});
    if (this.disposed) return;
    if (tab.id === this.activeId) {
      this.activeId = undefined;
      const next = this.tabs.at(-1);
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
