// A file handed into a room as the controller's page hands it (apps/web's lib/room/file-sender.ts), from a test's
// RoomClient: file/begin, then base64 chunks no further than the window ahead of the server's file/progress, until
// file/delivered or file/refused.
import { FILE_IN_CHUNK_BYTES, FILE_IN_WINDOW_CHUNKS, type TServerMessageOf } from '@rooms/api/room-protocol';
import type { RoomClient } from '../room-client';

export type TUploadOutcome = TServerMessageOf<'file/delivered'> | TServerMessageOf<'file/refused'>;

export async function uploadFile(
  client: RoomClient,
  bytes: Buffer,
  name: string,
  target: { requestId: string } | { x: number; y: number },
  options: { size?: number; timeoutMs?: number } = {},
): Promise<TUploadOutcome> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const refusedBefore = client.of('file/refused').length;
  const acceptedBefore = client.of('file/accepted').length;
  client.send({
    type: 'file/begin',
    requestId: 'requestId' in target ? target.requestId : null,
    name,
    size: options.size ?? bytes.length,
    ...('requestId' in target ? {} : target),
  });
  let accepted: TServerMessageOf<'file/accepted'> | undefined;
  await client.until(
    () => {
      accepted = client.of('file/accepted')[acceptedBefore];
      return accepted !== undefined || client.of('file/refused').length > refusedBefore;
    },
    'file/accepted',
    timeoutMs,
  );
  if (!accepted) return client.of('file/refused').at(-1)!;
  const { uploadId } = accepted;
  const stored = () =>
    client
      .of('file/progress')
      .filter((p) => p.uploadId === uploadId)
      .at(-1)?.received ?? 0;
  const ended = () =>
    client.of('file/delivered').find((d) => d.uploadId === uploadId) ??
    client.of('file/refused').find((r) => r.uploadId === uploadId);
  for (let offset = 0; offset < bytes.length; offset += FILE_IN_CHUNK_BYTES) {
    await client.until(
      () => ended() !== undefined || offset - stored() < FILE_IN_WINDOW_CHUNKS * FILE_IN_CHUNK_BYTES,
      'room in the window',
      timeoutMs,
    );
    if (ended()) break;
    const data = bytes.subarray(offset, offset + FILE_IN_CHUNK_BYTES).toString('base64');
    client.send({ type: 'file/chunk', uploadId, offset, data });
  }
  await client.until(() => ended() !== undefined, 'file/delivered or file/refused', timeoutMs);
  return ended()!;
}

/** What the test page's /upload reports of a file's bytes (a sum modulo 65521). */
export function uploadChecksum(bytes: Buffer): number {
  let sum = 0;
  for (const byte of bytes) sum = (sum + byte) % 65521;
  return sum;
}
