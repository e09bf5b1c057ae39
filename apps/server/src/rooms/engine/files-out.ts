// One room browser's ways out to its controller, behind the session's onFilesOut: finished downloads (./downloads)
// and copied text (./copy-out).
import type { BrowserContext } from 'playwright-core';
import type { TRoomFileOut } from '../room-session';
import { CopyOut } from './copy-out';
import { RoomDownloads } from './downloads';

export interface TRoomFilesOutOptions {
  /** The run's downloads directory; without one, downloads stay refused as Playwright set them. */
  downloadsDir?: string;
  onError(error: unknown, message: string): void;
}

export class RoomFilesOut {
  private readonly listeners = new Set<(event: TRoomFileOut) => void>();
  private downloads: RoomDownloads | undefined;
  private readonly copyOut: CopyOut;

  private constructor(context: BrowserContext, options: TRoomFilesOutOptions) {
    this.copyOut = new CopyOut(
      context,
      (text, truncated) => this.emit({ kind: 'copied', text, truncated }),
      options.onError,
    );
  }

  static async open(context: BrowserContext, options: TRoomFilesOutOptions): Promise<RoomFilesOut> {
    const filesOut = new RoomFilesOut(context, options);
    if (options.downloadsDir) {
      filesOut.downloads = await RoomDownloads.open(context, {
        dir: options.downloadsDir,
        emit: (event) => filesOut.emit(event),
        onError: options.onError,
      });
    }
    await filesOut.copyOut.start();
    return filesOut;
  }

  on(listener: (event: TRoomFileOut) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.all([this.downloads?.close(), this.copyOut.close()]);
  }

  private emit(event: TRoomFileOut): void {
    for (const listener of this.listeners) listener(event);
  }
}
