// Files from the controller's computer into the room, on the hub's side (the protocol: room-protocol's files-in.ts).
// A page's file chooser is told to the controller alone; only the controller may hand a file over, one at a time
// per room, of at most the plan's size (the room's `fileInMaxBytes`), in order, with at most a window of chunks
// ahead of what is written. The file lands in the room's own storage under a cleaned name (../../engine/files-in.ts)
// and goes to the page's chooser, or is dropped where the controller dropped it on the picture.
import { randomUUID } from 'node:crypto';
import {
  FILE_IN_MAX_BYTES_FREE,
  FILE_IN_WINDOW_CHUNKS,
  type TClientMessageOf,
  type TFileInRefusal,
} from '@rooms/api/room-protocol';
import { sanitiseDownloadName } from '../../engine/download-name';
import type { TFileInWriter, TFileRequest, TRoomFilesIn } from '../../room-session';
import type { THubContext, THubMember } from '../hub-context';

/** An upload that sends nothing for this long is given up (its part deleted), so the room is free for the next. */
export const FILE_IN_IDLE_MS = 30_000;
/** What one run keeps of files handed in, in all, as a multiple of the plan's limit for one file. */
export const FILE_IN_KEPT_FACTOR = 4;
/** Chunks received but not yet written beyond which the upload is broken off: a page keeps to the window. */
const MAX_QUEUED_CHUNKS = FILE_IN_WINDOW_CHUNKS * 2;

type TFileMessage =
  | TClientMessageOf<'file/begin'>
  | TClientMessageOf<'file/chunk'>
  | TClientMessageOf<'file/cancel'>;

interface TUpload {
  id: string;
  memberId: string;
  requestId: string | null;
  x: number;
  y: number;
  name: string;
  size: number;
  /** Bytes accepted in chunks so far (the next chunk's offset). */
  expected: number;
  /** Bytes written. */
  received: number;
  queued: number;
  writer: Promise<TFileInWriter>;
  writing: Promise<void>;
  timer: NodeJS.Timeout;
}

export interface TRoomFilesInOptions {
  /** The room browser's side; absent, every file is refused. */
  filesIn?: TRoomFilesIn;
  controllerId(): string | null;
  /** The largest file the room's plan allows. */
  maxBytes?: number;
  idleMs?: number;
}

export class RoomFilesIn {
  private upload: TUpload | undefined;
  /** The page's latest file chooser, told again to whoever takes control while it waits. */
  private waiting: TFileRequest | undefined;
  /** The member the waiting chooser was last told to. */
  private toldTo: string | null = null;
  private kept = 0;
  private closed = false;
  private readonly stopRequests: () => void;

  constructor(
    private readonly hub: THubContext,
    private readonly options: TRoomFilesInOptions,
  ) {
    this.stopRequests = options.filesIn?.onRequest((request) => this.requested(request)) ?? (() => {});
  }

  private get maxBytes(): number {
    return this.options.maxBytes ?? FILE_IN_MAX_BYTES_FREE;
  }

  handle(member: THubMember, message: TFileMessage): void {
    if (this.closed) return;
    if (message.type === 'file/begin') this.begin(member, message);
    else if (message.type === 'file/chunk') this.chunk(member, message);
    else this.cancel(member, message);
  }

  /** The room stopped: an upload under way is deleted. */
  close(): void {
    this.closed = true;
    this.stopRequests();
    if (this.upload) this.abort(this.upload, undefined);
  }

  /** Control moved: a chooser still waiting for a file is the new controller's to answer. */
  controlChanged(): void {
    const waiting = this.waiting;
    // control/state also goes out when only the queue changes: the same controller is not told twice.
    if (!waiting || this.closed || this.options.controllerId() === this.toldTo) return;
    if (this.options.filesIn?.isPending(waiting.requestId)) this.requested(waiting);
    else this.waiting = undefined;
  }

  private requested(request: TFileRequest): void {
    this.waiting = request;
    const controller = this.controller();
    this.toldTo = controller?.info.id ?? null;
    controller?.peer.send({
      type: 'file/requested',
      requestId: request.requestId,
      multiple: request.multiple,
      maxBytes: this.maxBytes,
    });
  }

  private begin(member: THubMember, message: TClientMessageOf<'file/begin'>): void {
    const name = sanitiseDownloadName(message.name);
    const filesIn = this.options.filesIn;
    const refusal = this.beginRefusal(member, message);
    if (refusal || !filesIn) {
      this.refuse(member, null, name, refusal ?? 'failed');
      return;
    }
    const writer = filesIn.create(name);
    const upload: TUpload = {
      id: randomUUID(),
      memberId: member.info.id,
      requestId: message.requestId,
      x: message.x ?? 0.5,
      y: message.y ?? 0.5,
      name,
      size: message.size,
      expected: 0,
      received: 0,
      queued: 0,
      writer,
      writing: writer.then(() => {}),
      timer: this.idleTimer(),
    };
    this.upload = upload;
    upload.writing = upload.writing.catch((error: unknown) => this.failed(upload, error));
    member.peer.send({ type: 'file/accepted', uploadId: upload.id, name });
    if (upload.size === 0) {
      upload.writing = upload.writing
        .then(() => this.finish(upload))
        .catch((error: unknown) => this.failed(upload, error));
    }
  }

  /** Why this file may not be handed over now, checked before anything is stored. */
  private beginRefusal(
    member: THubMember,
    message: TClientMessageOf<'file/begin'>,
  ): TFileInRefusal | undefined {
    const filesIn = this.options.filesIn;
    if (!filesIn) return 'failed';
    if (this.options.controllerId() !== member.info.id) return 'not-controller';
    if (message.size > this.maxBytes) return 'too-large';
    if (this.kept + message.size > this.maxBytes * FILE_IN_KEPT_FACTOR) return 'room-full';
    if (message.requestId !== null && !filesIn.isPending(message.requestId)) return 'no-request';
    if (this.upload) return 'busy';
    return undefined;
  }

  private chunk(member: THubMember, message: TClientMessageOf<'file/chunk'>): void {
    const upload = this.upload;
    // Chunks of an upload that ended (or of someone else's) are late or stray: nothing to answer.
    if (!upload || upload.id !== message.uploadId || upload.memberId !== member.info.id) return;
    const bytes = Buffer.from(message.data, 'base64');
    const refusal = this.chunkRefusal(member, upload, message.offset, bytes.byteLength);
    if (refusal) {
      this.abort(upload, refusal);
      return;
    }
    upload.expected += bytes.byteLength;
    upload.queued += 1;
    upload.timer.refresh();
    upload.writing = upload.writing
      .then(async () => {
        if (this.upload !== upload) return;
        await (await upload.writer).write(bytes);
        upload.queued -= 1;
        upload.received += bytes.byteLength;
        member.peer.send({ type: 'file/progress', uploadId: upload.id, received: upload.received });
        if (upload.received === upload.size) await this.finish(upload);
      })
      .catch((error: unknown) => this.failed(upload, error));
  }

  private chunkRefusal(
    member: THubMember,
    upload: TUpload,
    offset: number,
    length: number,
  ): TFileInRefusal | undefined {
    if (this.options.controllerId() !== member.info.id) return 'not-controller';
    if (offset !== upload.expected || length === 0) return 'failed';
    if (upload.expected + length > upload.size) return 'too-large';
    if (upload.queued >= MAX_QUEUED_CHUNKS) return 'failed';
    return undefined;
  }

  private cancel(member: THubMember, message: TClientMessageOf<'file/cancel'>): void {
    const upload = this.upload;
    if (message.uploadId && upload?.id === message.uploadId && upload.memberId === member.info.id) {
      this.abort(upload, undefined);
    }
    if (message.requestId && this.options.controllerId() === member.info.id) {
      this.options.filesIn?.decline(message.requestId);
      if (this.waiting?.requestId === message.requestId) this.waiting = undefined;
    }
  }

  private async finish(upload: TUpload): Promise<void> {
    if (this.upload !== upload) return;
    clearTimeout(upload.timer);
    const writer = await upload.writer;
    await writer.close();
    const filesIn = this.options.filesIn!;
    if (upload.requestId !== null) {
      if (!(await filesIn.give(upload.requestId, writer.path))) {
        this.abort(upload, 'no-request');
        return;
      }
    } else {
      await filesIn.drop(writer.path, upload.x, upload.y);
    }
    this.upload = undefined;
    this.kept += upload.size;
    this.memberOf(upload)?.peer.send({
      type: 'file/delivered',
      uploadId: upload.id,
      name: upload.name,
      size: upload.size,
    });
  }

  private failed(upload: TUpload, error: unknown): void {
    if (this.upload !== upload) return;
    this.hub.warn(error, 'a file for the room could not be stored or given to its page');
    this.abort(upload, 'failed');
  }

  /** Ends the upload and deletes what it wrote; the uploader is told why, unless it cancelled. */
  private abort(upload: TUpload, reason: TFileInRefusal | undefined): void {
    if (this.upload !== upload) return;
    this.upload = undefined;
    clearTimeout(upload.timer);
    void upload.writer.then((writer) => writer.discard()).catch(() => {});
    const member = this.memberOf(upload);
    if (reason && member) this.refuse(member, upload.id, upload.name, reason);
  }

  private refuse(member: THubMember, uploadId: string | null, name: string, reason: TFileInRefusal): void {
    member.peer.send({ type: 'file/refused', uploadId, name, reason, maxBytes: this.maxBytes });
  }

  private idleTimer(): NodeJS.Timeout {
    const timer = setTimeout(() => {
      if (this.upload?.timer === timer) this.abort(this.upload, 'failed');
    }, this.options.idleMs ?? FILE_IN_IDLE_MS);
    timer.unref();
    return timer;
  }

  private memberOf(upload: TUpload): THubMember | undefined {
    return this.hub.members.get(upload.memberId);
  }

  private controller(): THubMember | undefined {
    const id = this.options.controllerId();
    return id === null ? undefined : this.hub.members.get(id);
  }
}
