// The room browser's downloads: saved, under a name of Chromium's choosing (its GUID), into the run's own downloads
// directory (inside the room's sandbox, never the server's own directories), bounded by DOWNLOAD_MAX_BYTES, and
// reported once finished so the hub can offer them to the controller. Nothing here opens or runs a file.
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DOWNLOAD_MAX_BYTES } from '@rooms/api/room-protocol';
import type { BrowserContext, CDPSession } from 'playwright-core';
import type { TRoomFileOut } from '../room-session';
import { downloadType, sanitiseDownloadName } from './download-name';

/** Downloads one room runs at once: more would only let a page fill its disk faster. */
export const MAX_DOWNLOADS_IN_FLIGHT = 3;

interface TInFlight {
  name: string;
  /** Cancelled here (too large, too many): the cancel event that follows is not a second refusal. */
  refused: boolean;
}

export interface TRoomDownloadsOptions {
  /** The run's downloads directory: the room's user may write it (../sandbox keeps it visible inside). */
  dir: string;
  maxBytes?: number;
  emit(event: TRoomFileOut): void;
  onError(error: unknown, message: string): void;
}

export class RoomDownloads {
  private readonly inFlight = new Map<string, TInFlight>();
  private closed = false;

  private constructor(
    private readonly cdp: CDPSession,
    private readonly options: TRoomDownloadsOptions,
  ) {
    cdp.on('Browser.downloadWillBegin', (event) => this.began(event.guid, event.suggestedFilename));
    cdp.on('Browser.downloadProgress', (event) => void this.progressed(event));
  }

  /** Turns downloads on for the browser's (persistent, default) context, into `options.dir`. */
  static async open(context: BrowserContext, options: TRoomDownloadsOptions): Promise<RoomDownloads> {
    const browser = context.browser();
    if (!browser) throw new Error('the room browser has no browser-level session for downloads');
    const cdp = await browser.newBrowserCDPSession();
    const downloads = new RoomDownloads(cdp, options);
    // Playwright set 'deny' (acceptDownloads: false); this session's behaviour replaces it, with the events here.
    await cdp.send('Browser.setDownloadBehavior', {
      behavior: 'allowAndName',
      downloadPath: options.dir,
      eventsEnabled: true,
    });
    return downloads;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.cdp.detach().catch(() => {});
  }

  private get maxBytes(): number {
    return this.options.maxBytes ?? DOWNLOAD_MAX_BYTES;
  }

  private began(guid: string, suggested: string): void {
    const name = sanitiseDownloadName(suggested);
    if (this.inFlight.size >= MAX_DOWNLOADS_IN_FLIGHT) {
      this.inFlight.set(guid, { name, refused: true });
      this.refuse(guid, name, 'failed');
      return;
    }
    this.inFlight.set(guid, { name, refused: false });
  }

  private async progressed(event: {
    guid: string;
    totalBytes: number;
    receivedBytes: number;
    state: 'inProgress' | 'completed' | 'canceled';
  }): Promise<void> {
    const download = this.inFlight.get(event.guid);
    if (!download) return;
    const path = join(this.options.dir, event.guid);
    if (event.state === 'inProgress') {
      // The announced size refuses a big file at once; the bytes received so far catch one sent without a size.
      if (!download.refused && (event.totalBytes > this.maxBytes || event.receivedBytes > this.maxBytes)) {
        download.refused = true;
        this.refuse(event.guid, download.name, 'too-large');
      }
      return;
    }
    this.inFlight.delete(event.guid);
    if (event.state === 'canceled') {
      await rm(path, { force: true }).catch(() => {});
      if (!download.refused && !this.closed) {
        this.options.emit({ kind: 'download-refused', name: download.name, reason: 'failed' });
      }
      return;
    }
    try {
      const { size } = await stat(path);
      // A file that grew past the limit between two progress events is refused all the same.
      if (size > this.maxBytes || download.refused) {
        await rm(path, { force: true });
        if (!download.refused)
          this.options.emit({ kind: 'download-refused', name: download.name, reason: 'too-large' });
        return;
      }
      if (this.closed) return;
      this.options.emit({
        kind: 'download',
        path,
        name: download.name,
        size,
        mime: downloadType(download.name),
      });
    } catch (error) {
      this.options.onError(error, 'a finished download could not be read');
    }
  }

  private refuse(guid: string, name: string, reason: 'too-large' | 'failed'): void {
    this.options.emit({ kind: 'download-refused', name, reason });
    this.cdp
      .send('Browser.cancelDownload', { guid })
      .catch((error) => this.options.onError(error, 'a download could not be cancelled'));
  }
}
