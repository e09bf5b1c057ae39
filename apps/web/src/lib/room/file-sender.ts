// One file from this computer into the room (the protocol: room-protocol's files-in.ts): announced with its name
// and size, then sent in base64 chunks on the room socket, never more than FILE_IN_WINDOW_CHUNKS ahead of what the
// server says it stored, until the server says the room's page has it, or why not.
import {
  FILE_IN_CHUNK_BYTES,
  FILE_IN_WINDOW_CHUNKS,
  type TClientMessageInput,
  type TFileInRefusal,
  type TServerMessageOf,
} from '@rooms/api/room-protocol';

/** A file's way into the room, told to this page while it controls the room (room-connection.ts's onFilesIn, room-moments.ts). */
export type TFilesInEvent =
  | TServerMessageOf<'file/requested'>
  | TServerMessageOf<'file/accepted'>
  | TServerMessageOf<'file/progress'>
  | TServerMessageOf<'file/delivered'>
  | TServerMessageOf<'file/refused'>;

export type TFileSent =
  | { ok: true; name: string; size: number }
  | { ok: false; name: string; reason: TFileInRefusal | 'disconnected'; maxBytes: number | null };

export interface TFileSendPort {
  send(message: TClientMessageInput): boolean;
  onFilesIn(listener: (event: TFilesInEvent) => void): () => void;
}

/** Where the file goes: the page's open chooser, or dropped on the picture at (x, y), 0..1. */
export type TFileTarget = { requestId: string } | { x: number; y: number };

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x2000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x2000));
  }
  return btoa(binary);
}

export function sendFileToRoom(
  port: TFileSendPort,
  file: File,
  target: TFileTarget,
  onProgress?: (sent: number, size: number) => void,
): Promise<TFileSent> {
  return new Promise((resolve) => {
    let uploadId: string | null = null;
    let sent = 0;
    let stored = 0;
    let pumping = false;
    let done = false;
    const finish = (result: TFileSent) => {
      if (done) return;
      done = true;
      stop();
      resolve(result);
    };
    const disconnected = () => finish({ ok: false, name: file.name, reason: 'disconnected', maxBytes: null });
    const pump = async () => {
      if (pumping || uploadId === null) return;
      pumping = true;
      try {
        while (!done && sent < file.size && sent - stored < FILE_IN_WINDOW_CHUNKS * FILE_IN_CHUNK_BYTES) {
          const offset = sent;
          const bytes = new Uint8Array(await file.slice(offset, offset + FILE_IN_CHUNK_BYTES).arrayBuffer());
          if (done) return;
          sent += bytes.byteLength;
          if (!port.send({ type: 'file/chunk', uploadId, offset, data: base64Of(bytes) }))
            return disconnected();
        }
      } finally {
        pumping = false;
      }
    };
    const stop = port.onFilesIn((event) => {
      switch (event.type) {
        case 'file/accepted':
          if (uploadId !== null) return;
          uploadId = event.uploadId;
          void pump();
          return;
        case 'file/progress':
          if (event.uploadId !== uploadId) return;
          stored = event.received;
          onProgress?.(stored, file.size);
          void pump();
          return;
        case 'file/delivered':
          if (event.uploadId === uploadId) finish({ ok: true, name: event.name, size: event.size });
          return;
        case 'file/refused':
          // Refused at once (no upload yet) or this upload broken off.
          if (event.uploadId === null ? uploadId === null : event.uploadId === uploadId) {
            finish({ ok: false, name: event.name, reason: event.reason, maxBytes: event.maxBytes });
          }
          return;
      }
    });
    const begun = port.send({
      type: 'file/begin',
      requestId: 'requestId' in target ? target.requestId : null,
      name: file.name,
      size: file.size,
      ...('requestId' in target ? {} : { x: target.x, y: target.y }),
    });
    if (!begun) disconnected();
  });
}
