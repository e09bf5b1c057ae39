// Messages of the `file/…` domain: a file from the controller's own computer handed to the room's page. When a page
// in the room opens a file chooser, the server tells the controller (file/requested); their page picks a file (a
// real file chooser, or a file dropped on the picture) and sends it in chunks on the room socket, so it reaches
// the room whichever gateway and agent it runs on. The server keeps it in the room's own storage under a cleaned
// name and gives it to the page's chooser (or drops it where the controller dropped it). Controller only.
import { z } from 'zod';

/** Sizes as people read them (decimal megabytes), so the limits show as 25 MB and 200 MB. */
const MB = 1000 * 1000;
/** The largest file the controller may hand a room whose owner is on the free plan… */
export const FILE_IN_MAX_BYTES_FREE = 25 * MB;
/** …and on a paid plan (level 2 and above). */
export const FILE_IN_MAX_BYTES_PAID = 200 * MB;
/** The limit for a room whose owner's plan has this level (the free plan is level 1). */
export function fileInMaxBytes(planLevel: number): number {
  return planLevel >= 2 ? FILE_IN_MAX_BYTES_PAID : FILE_IN_MAX_BYTES_FREE;
}
/** Bytes of the file in one file/chunk (base64 in JSON, well inside the socket's 64 KiB per message). */
export const FILE_IN_CHUNK_BYTES = 32 * 1024;
/** Chunks a page sends ahead of the server's file/progress; the server refuses an upload that runs further. */
export const FILE_IN_WINDOW_CHUNKS = 16;
/** A file name as the controller's system gives it; longer ones are refused, the server cuts what it keeps. */
export const FILE_IN_NAME_MAX_LENGTH = 1024;
const BASE64_CHUNK_MAX_LENGTH = Math.ceil(FILE_IN_CHUNK_BYTES / 3) * 4;

const ZRequestId = z.string().max(64);
const ZUploadId = z.string().max(64);
/** 0..1 of the shown picture from its top-left corner, as input/pointer's coordinates. */
const ZPicturePoint = z.number().min(0).max(1);

// Client → server

/**
 * The controller starts handing a file over: to the page's open file chooser (`requestId` of its file/requested),
 * or dropped on the picture at (x, y) (`requestId` null).
 */
export const ZFileBegin = z.object({
  type: z.literal('file/begin'),
  requestId: ZRequestId.nullable(),
  name: z.string().min(1).max(FILE_IN_NAME_MAX_LENGTH),
  size: z.number().int().nonnegative(),
  x: ZPicturePoint.optional(),
  y: ZPicturePoint.optional(),
});
/** The next bytes of an accepted upload, from `offset`, in base64. */
export const ZFileChunk = z.object({
  type: z.literal('file/chunk'),
  uploadId: ZUploadId,
  offset: z.number().int().nonnegative(),
  data: z.string().max(BASE64_CHUNK_MAX_LENGTH),
});
/** The controller stops an upload, or declines the page's file chooser (the page then gets no file). */
export const ZFileCancel = z.object({
  type: z.literal('file/cancel'),
  uploadId: ZUploadId.optional(),
  requestId: ZRequestId.optional(),
});

// Server → controller

/** A page in the room opened a file chooser: the controller may pick a file of at most `maxBytes`. */
export const ZFileRequested = z.object({
  type: z.literal('file/requested'),
  requestId: ZRequestId,
  /** The page accepts several files; one is handed over at a time. */
  multiple: z.boolean(),
  maxBytes: z.number().int(),
});
/** The server takes the file: send its chunks for `uploadId`. */
export const ZFileAccepted = z.object({
  type: z.literal('file/accepted'),
  uploadId: ZUploadId,
  name: z.string(),
});
/** Bytes the server has stored so far: the page keeps at most FILE_IN_WINDOW_CHUNKS chunks beyond them. */
export const ZFileProgress = z.object({
  type: z.literal('file/progress'),
  uploadId: ZUploadId,
  received: z.number().int().nonnegative(),
});
/** The whole file reached the room and was given to its page, under `name` (cleaned). */
export const ZFileDelivered = z.object({
  type: z.literal('file/delivered'),
  uploadId: ZUploadId,
  name: z.string(),
  size: z.number().int().nonnegative(),
});
export const FILE_IN_REFUSALS = [
  /** Larger than the room's plan allows (maxBytes). */
  'too-large',
  /** The room keeps as many files as it may for this run. */
  'room-full',
  /** Only the member in control of the room hands it files. */
  'not-controller',
  /** The page's file chooser is gone (answered, declined, or the page moved on). */
  'no-request',
  /** Another file is on its way to the room. */
  'busy',
  /** The upload broke off (too slow, wrong chunks) or the page could not take the file. */
  'failed',
] as const;
export const ZFileRefused = z.object({
  type: z.literal('file/refused'),
  uploadId: ZUploadId.nullable(),
  name: z.string(),
  reason: z.enum(FILE_IN_REFUSALS),
  maxBytes: z.number().int(),
});

export type TFileInRefusal = (typeof FILE_IN_REFUSALS)[number];
