// Text the controller copies or cuts in the room's page, for the controller's own clipboard. The room's clipboard
// itself stays shut to pages (DefaultClipboardSetting in ./room-browser-policy.ts), so the text is taken from the
// copy event: a listener in an isolated world of every frame, reporting through a binding only that world has.
// The page's own scripts see neither: they cannot call the binding, so only a real copy (Ctrl+C, Ctrl+X, a
// page's copy button, which Chromium allows only on the controller's click or key) sends anything.
import { COPIED_TEXT_MAX_LENGTH } from '@rooms/api/room-protocol';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

const WORLD = 'rooms-copy-out';
const BINDING = '__roomsCopied';

/**
 * Runs in the isolated world. On window, bubbling: after the page's own handlers, so a page that puts its own text
 * on the clipboard (and cancels the default copy) is read for that text. A password field's selection is never
 * sent (Chromium does not copy it either).
 */
const LISTENER = `(() => {
  if (globalThis.__roomsCopyOut) return;
  globalThis.__roomsCopyOut = true;
  const send = globalThis[${JSON.stringify(BINDING)}];
  if (typeof send !== 'function') return;
  const selected = () => {
    const field = document.activeElement;
    if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) {
      if (field.type === 'password') return '';
      if (typeof field.selectionStart === 'number')
        return field.value.slice(field.selectionStart, field.selectionEnd ?? field.selectionStart);
    }
    return String(document.getSelection() ?? '');
  };
  const onCopy = (event) => {
    let text = '';
    try {
      if (event.defaultPrevented) text = event.clipboardData?.getData('text/plain') ?? '';
    } catch {}
    if (!text) text = selected();
    if (text) send(text.slice(0, ${COPIED_TEXT_MAX_LENGTH + 1}));
  };
  addEventListener('copy', onCopy);
  addEventListener('cut', onCopy);
})()`;

export class CopyOut {
  private readonly sessions = new Map<Page, CDPSession>();
  private closed = false;
  private readonly onPage = (page: Page) => void this.watch(page);

  constructor(
    private readonly context: BrowserContext,
    private readonly emit: (text: string, truncated: boolean) => void,
    private readonly onError: (error: unknown, message: string) => void,
  ) {}

  async start(): Promise<void> {
    this.context.on('page', this.onPage);
    await Promise.all(this.context.pages().map((page) => this.watch(page)));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.context.off('page', this.onPage);
    await Promise.all([...this.sessions.values()].map((cdp) => cdp.detach().catch(() => {})));
    this.sessions.clear();
  }

  private async watch(page: Page): Promise<void> {
    if (this.closed || this.sessions.has(page)) return;
    try {
      const cdp = await this.context.newCDPSession(page);
      this.sessions.set(page, cdp);
      page.once('close', () => this.sessions.delete(page));
      cdp.on('Runtime.bindingCalled', (event) => {
        if (event.name !== BINDING || this.closed) return;
        const truncated = event.payload.length > COPIED_TEXT_MAX_LENGTH;
        this.emit(truncated ? event.payload.slice(0, COPIED_TEXT_MAX_LENGTH) : event.payload, truncated);
      });
      await cdp.send('Page.enable');
      await cdp.send('Runtime.enable');
      await cdp.send('Runtime.addBinding', { name: BINDING, executionContextName: WORLD });
      // Every document from now on, and (runImmediately) the ones already open.
      await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
        source: LISTENER,
        worldName: WORLD,
        runImmediately: true,
      });
    } catch (error) {
      // A tab closed while it was being set up needs nothing.
      if (!page.isClosed()) this.onError(error, 'copying out of a tab could not be set up');
    }
  }
}
