// Messages of the `download/…` and `clipboard/…` domains: what leaves the room for the controller's own computer.
// A file the room's browser downloads is offered to whoever controls the room (never run or opened on the server);
// text copied in the room is handed to the controller's clipboard. Server → controller only.
import { z } from 'zod';

/** The largest file a room downloads and offers: a bigger one is cancelled in the room and refused. */
export const DOWNLOAD_MAX_BYTES = 100 * 1024 * 1024;
/** A file's name as offered: at most this many characters (the extension is kept when one is cut). */
export const DOWNLOAD_NAME_MAX_LENGTH = 120;
/** Text copied in the room reaches the controller's clipboard up to this many characters. */
export const COPIED_TEXT_MAX_LENGTH = 100_000;

/**
 * A finished download the controller may fetch: its name (no path, no control characters), size in bytes and
 * type as the room saw them, and where to fetch it once (a path on the room's socket host, with its single-use key:
 * a single server, or in a fleet a gateway, which fetches it from the room's agent).
 */
export const ZDownloadOffered = z.object({
  type: z.literal('download/offered'),
  id: z.string(),
  name: z.string().max(DOWNLOAD_NAME_MAX_LENGTH),
  size: z.number().int().nonnegative().max(DOWNLOAD_MAX_BYTES),
  mime: z.string(),
  url: z.string(),
  /** Epoch milliseconds after which the file is gone. */
  expiresAt: z.number(),
});

/**
 * A download the room did not keep: larger than DOWNLOAD_MAX_BYTES, failed in the room's browser, or finished where
 * nothing serves the controller's fetch (`unavailable`; a single server and an agent's gateways both serve it).
 */
export const ZDownloadRefused = z.object({
  type: z.literal('download/refused'),
  name: z.string().max(DOWNLOAD_NAME_MAX_LENGTH),
  reason: z.enum(['too-large', 'failed', 'unavailable']),
  maxBytes: z.number().int(),
});

/** Text the controller copied (or cut) in the room's page. */
export const ZClipboardCopied = z.object({
  type: z.literal('clipboard/copied'),
  text: z.string().max(COPIED_TEXT_MAX_LENGTH),
  /** The copy was longer than COPIED_TEXT_MAX_LENGTH and was cut. */
  truncated: z.boolean(),
});

export type TDownloadOffer = Omit<z.infer<typeof ZDownloadOffered>, 'type'>;
