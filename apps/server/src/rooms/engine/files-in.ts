// Files from the controller's computer into the room's browser (the hub's side: ../hub/files-in). Every page's
// file chooser is intercepted (Playwright's `filechooser`, CDP Page.setInterceptFileChooserDialog), so no dialog
// opens on the room's display; each becomes a request the controller answers. A file arrives in the run's own
// directory (inside the room's sandbox, gone with the run), in a directory of its own so the page sees its name,
// and is given to the chooser (DOM.setFileInputFiles) or dropped on the page where the controller dropped it
// (Input.dispatchDragEvent with the file).
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, type FileHandle, lstat, mkdtemp, open, realpath, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BrowserContext, CDPSession, FileChooser, Page } from 'playwright-core';
import type { TFileInWriter, TFileRequest, TRoomFilesIn } from '../room-session';

export interface TFilesInOptions {
  /** The run's own directory, which the room's browser may read (../sandbox keeps it visible inside). */
  dir: string;
  /** The active tab's CDP session, where a dropped file lands. */
  activeCdp(): CDPSession | undefined;
  viewport: { width: number; height: number };
  onError(error: unknown, message: string): void;
}

export class ChromiumFilesIn implements TRoomFilesIn {
  private readonly choosers = new Map<string, FileChooser>();
  private readonly listeners = new Set<(request: TFileRequest) => void>();
  private readonly watched = new WeakSet<Page>();
  private readonly onPage = (page: Page) => this.watch(page);

  private constructor(
    private readonly context: BrowserContext,
    private readonly options: TFilesInOptions,
  ) {}

  /** Intercepts the file choosers of every page, those open now and those to come (Playwright's `filechooser`). */
  static open(context: BrowserContext, options: TFilesInOptions): ChromiumFilesIn {
    const filesIn = new ChromiumFilesIn(context, options);
    context.on('page', filesIn.onPage);
    for (const page of context.pages()) filesIn.watch(page);
    return filesIn;
  }

  onRequest(listener: (request: TFileRequest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  isPending(requestId: string): boolean {
    return this.choosers.has(requestId);
  }

  decline(requestId: string): void {
    this.choosers.delete(requestId);
  }

  /**
   * A new, empty file named `name` (already cleaned) in a directory of its own. The run's directory belongs to the
   * room's user, who could swap that directory for a link between its creation and the file's: the file is created
   * without following links, and the directory is checked to be the one made before a byte is written.
   */
  async create(name: string): Promise<TFileInWriter> {
    const dir = await mkdtemp(join(this.options.dir, 'in-'));
    const path = join(dir, name);
    let handle: FileHandle | undefined;
    try {
      // The room's browser runs as the room's user: it reads the file, and writes nothing here.
      await chmod(dir, 0o755);
      handle = await open(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o644,
      );
      const [info, where, opened] = await Promise.all([lstat(dir), realpath(dir), handle.stat()]);
      const placed = await lstat(path);
      if (!info.isDirectory() || where !== dir || placed.ino !== opened.ino || placed.dev !== opened.dev) {
        throw new Error('the upload directory was replaced while the file was created');
      }
      await handle.chmod(0o644);
    } catch (error) {
      await handle?.close().catch(() => {});
      await rm(dir, { recursive: true, force: true }).catch(() => {});
      throw error;
    }
    return fileWriter(path, handle);
  }

  /** Gives the file to the page's chooser; false when that chooser is gone. */
  async give(requestId: string, path: string): Promise<boolean> {
    const chooser = this.choosers.get(requestId);
    if (!chooser) return false;
    this.choosers.delete(requestId);
    if (chooser.page().isClosed()) return false;
    await chooser.setFiles(path);
    return true;
  }

  /** Drags the file onto the active tab at (x, y), 0..1 of the picture, and drops it there. */
  async drop(path: string, x: number, y: number): Promise<void> {
    const cdp = this.options.activeCdp();
    if (!cdp) throw new Error('the room has no tab to drop a file on');
    const at = { x: x * this.options.viewport.width, y: y * this.options.viewport.height };
    // Copy, move and link: whichever the page's dropEffect asks for.
    const data = { items: [], files: [path], dragOperationsMask: 1 | 2 | 16 };
    for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
      await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
    }
  }

  close(): void {
    this.context.off('page', this.onPage);
    this.listeners.clear();
    this.choosers.clear();
  }

  private watch(page: Page): void {
    if (this.watched.has(page)) return;
    this.watched.add(page);
    page.on('filechooser', (chooser) => this.requested(chooser));
    page.on('close', () => {
      for (const [id, chooser] of this.choosers) if (chooser.page() === page) this.choosers.delete(id);
    });
  }

  private requested(chooser: FileChooser): void {
    // A page asks again (a second click): the newer chooser replaces the older one of the same page.
    for (const [id, other] of this.choosers) if (other.page() === chooser.page()) this.choosers.delete(id);
    const requestId = randomUUID();
    this.choosers.set(requestId, chooser);
    for (const listener of this.listeners) {
      try {
        listener({ requestId, multiple: chooser.isMultiple() });
      } catch (error) {
        this.options.onError(error, 'a file request listener failed');
      }
    }
  }
}

function fileWriter(path: string, handle: FileHandle): TFileInWriter {
  let closed = false;
  return {
    path,
    async write(bytes) {
      await handle.write(bytes);
    },
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
    async discard() {
      if (!closed) {
        closed = true;
        await handle.close().catch(() => {});
      }
      await rm(dirname(path), { recursive: true, force: true }).catch(() => {});
    },
  };
}
