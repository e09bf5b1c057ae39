// A RoomSession without a browser: a page whose whole state (clicks, keys, address) is drawn into every frame,
// produced by a timer. The relay's tests run on it, so "the controller's click shows in later frames" is
// checked end to end without Chromium; it is also a load source for relay benchmarks.
// Frames are labelled 'jpeg' (each one stands alone, as JPEG frames do) but carry JSON, which tests decode.
import type { TRoomInput } from '@rooms/api/room-protocol';
import type { MediaSource, RoomSession, TBrowserTab, TMediaChunk } from '../../rooms/room-session';

export interface TLocalPicture {
  seq: number;
  clicks: number;
  keys: string;
  url: string;
}

class TimerMediaSource implements MediaSource {
  readonly codec = 'jpeg' as const;
  private readonly listeners = new Set<(chunk: TMediaChunk) => void>();
  private latest: TMediaChunk | undefined;

  subscribe(listener: (chunk: TMediaChunk) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  latestKeyframe(): TMediaChunk | undefined {
    return this.latest;
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  emit(chunk: TMediaChunk): void {
    this.latest = chunk;
    for (const listener of this.listeners) listener(chunk);
  }
}

export class LocalRoomSession implements RoomSession {
  readonly video = new TimerMediaSource();
  readonly viewport: { width: number; height: number };
  /** Every input applied, in order. */
  readonly inputs: TRoomInput[] = [];
  private readonly picture: TLocalPicture = { seq: 0, clicks: 0, keys: '', url: 'about:blank' };
  private readonly tabList: TBrowserTab[] = [
    { id: 'tab-1', url: 'about:blank', title: 'New Tab', active: true },
  ];
  private readonly tabListeners = new Set<(tabs: TBrowserTab[]) => void>();
  private readonly history: string[] = ['about:blank'];
  private timer: NodeJS.Timeout | undefined;
  private nextTabId = 2;

  constructor(
    readonly roomId: string,
    options: { width?: number; height?: number; fps?: number; frameBytes?: number } = {},
  ) {
    this.viewport = { width: options.width ?? 1280, height: options.height ?? 720 };
    const fps = options.fps ?? 20;
    const padding = options.frameBytes ?? 0;
    this.timer = setInterval(() => this.draw(padding), 1000 / fps);
    this.draw(padding);
  }

  /** How many subscriptions the relay holds on the picture (one per room, or none when nobody is in). */
  get videoSubscribers(): number {
    return this.video.subscribers;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The newest frame stands in for a still: the local picture is already a small image. */
  async snapshot(): Promise<Uint8Array | null> {
    return this.video.latestKeyframe()?.data ?? null;
  }

  async applyInput(input: TRoomInput): Promise<void> {
    this.inputs.push(input);
    if (input.type === 'input/pointer' && input.action === 'down') this.picture.clicks += 1;
    if (input.type === 'input/key' && input.action === 'down' && input.key.length === 1)
      this.picture.keys += input.key;
    if (input.type === 'input/text') this.picture.keys += input.text;
  }

  async navigate(url: string): Promise<void> {
    if (!/^https?:\/\//.test(url))
      throw Object.assign(new Error('This address is not allowed'), { appCode: 'BAD_INPUT' });
    this.history.push(url);
    this.setUrl(url);
  }

  async back(): Promise<void> {
    if (this.history.length > 1) this.history.pop();
    this.setUrl(this.history.at(-1) ?? 'about:blank');
  }

  async forward(): Promise<void> {}

  /** The local page is its address: a find matches in the current URL. */
  async find(text: string): Promise<boolean> {
    return this.picture.url.toLowerCase().includes(text.toLowerCase());
  }

  async reload(): Promise<void> {}

  tabs(): TBrowserTab[] {
    return this.tabList.map((tab) => ({ ...tab }));
  }

  async openTab(url = 'about:blank'): Promise<void> {
    for (const tab of this.tabList) tab.active = false;
    this.tabList.push({ id: `tab-${this.nextTabId++}`, url, title: url, active: true });
    this.tabsChanged();
  }

  async activateTab(tabId: string): Promise<void> {
    for (const tab of this.tabList) tab.active = tab.id === tabId;
    this.tabsChanged();
  }

  async closeTab(tabId: string): Promise<void> {
    const index = this.tabList.findIndex((tab) => tab.id === tabId);
    if (index !== -1) this.tabList.splice(index, 1);
    this.tabsChanged();
  }

  onTabsChanged(listener: (tabs: TBrowserTab[]) => void): () => void {
    this.tabListeners.add(listener);
    return () => this.tabListeners.delete(listener);
  }

  private setUrl(url: string): void {
    this.picture.url = url;
    const active = this.tabList.find((tab) => tab.active);
    if (active) active.url = url;
    this.tabsChanged();
  }

  private tabsChanged(): void {
    const tabs = this.tabs();
    for (const listener of this.tabListeners) listener(tabs);
  }

  private draw(padding: number): void {
    this.picture.seq += 1;
    const json = new TextEncoder().encode(JSON.stringify(this.picture));
    const data = new Uint8Array(json.byteLength + padding);
    data.set(json);
    // Padding is spaces, so the picture still parses as JSON.
    data.fill(0x20, json.byteLength);
    this.video.emit({
      codec: 'jpeg',
      keyframe: true,
      timestamp: performance.now(),
      data,
      width: this.viewport.width,
      height: this.viewport.height,
    });
  }
}

export function readLocalPicture(data: Uint8Array): TLocalPicture {
  return JSON.parse(new TextDecoder().decode(data)) as TLocalPicture;
}
