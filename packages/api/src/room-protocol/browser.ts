// Messages of the `browser/…` domain: our own browser controls (address bar, history, tabs). Only the current
// controller's are applied.
import { z } from 'zod';
import { FIND_MAX_LENGTH, URL_MAX_LENGTH } from './limits';

const ZUrl = z
  .string()
  .trim()
  .min(1, { error: 'Please enter an address' })
  .max(URL_MAX_LENGTH, { error: 'This address is too long' });
const ZTabId = z.string().min(1).max(128);

export const ZBrowserTab = z.object({
  id: ZTabId,
  url: z.string(),
  title: z.string(),
  active: z.boolean(),
});

// Client → server

export const ZBrowserNavigate = z.object({ type: z.literal('browser/navigate'), url: ZUrl });
export const ZBrowserBack = z.object({ type: z.literal('browser/back') });
export const ZBrowserForward = z.object({ type: z.literal('browser/forward') });
export const ZBrowserReload = z.object({ type: z.literal('browser/reload') });
export const ZBrowserTabOpen = z.object({ type: z.literal('browser/tab-open'), url: ZUrl.optional() });
export const ZBrowserTabActivate = z.object({ type: z.literal('browser/tab-activate'), tabId: ZTabId });
export const ZBrowserTabClose = z.object({ type: z.literal('browser/tab-close'), tabId: ZTabId });
/**
 * Find in the active tab (Ctrl+F in the room): the next match after the current selection, or the one before.
 * Chromium's own find bar is browser UI that typing cannot reach, so the room page has its own.
 */
export const ZBrowserFind = z.object({
  type: z.literal('browser/find'),
  text: z.string().min(1, { error: 'Please enter the text to find' }).max(FIND_MAX_LENGTH),
  backwards: z.boolean().default(false),
});

// Server → client

/** The room browser's tabs (new windows and popups become tabs), on every change and to each joiner. */
export const ZBrowserTabs = z.object({ type: z.literal('browser/tabs'), tabs: z.array(ZBrowserTab) });

/** Whether the finder's text was found, to the finder only. */
export const ZBrowserFound = z.object({
  type: z.literal('browser/found'),
  text: z.string(),
  found: z.boolean(),
});

export type TBrowserTabInfo = z.infer<typeof ZBrowserTab>;
