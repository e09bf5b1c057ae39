// Turns media frames into pictures, chosen by codec. 'jpeg' frames are whole pictures (createImageBitmap).
// The H.264 path (WebCodecs VideoDecoder, waiting for a keyframe after a gap) plugs in here next: the socket,
// the meter and the canvas stay as they are.
import type { TMediaCodecName, TMediaFrame } from '@rooms/api/room-protocol';

export type TPicture = ImageBitmap | VideoFrame;

export interface TFrameDecoder {
  readonly codec: TMediaCodecName;
  /** Resolves with the picture to draw, or null when this frame yields none (dropped, or not a picture). */
  decode(frame: TMediaFrame): Promise<TPicture | null>;
  close(): void;
}

class JpegDecoder implements TFrameDecoder {
  readonly codec = 'jpeg' as const;
  private closed = false;

  async decode(frame: TMediaFrame): Promise<TPicture | null> {
    if (this.closed) return null;
    const blob = new Blob([frame.data as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' });
    const bitmap = await createImageBitmap(blob);
    if (this.closed) {
      bitmap.close();
      return null;
    }
    return bitmap;
  }

  close(): void {
    this.closed = true;
  }
}

export class UnsupportedCodecError extends Error {
  override name = 'UnsupportedCodecError';
}

/** The decoder for a stream's codec (from stream/config); throws for codecs this client cannot show yet. */
export function createFrameDecoder(codec: TMediaCodecName): TFrameDecoder {
  switch (codec) {
    case 'jpeg':
      return new JpegDecoder();
    case 'h264':
      // Next issue: a WebCodecs VideoDecoder ('avc1…', Annex B) behind this same interface.
      throw new UnsupportedCodecError('This browser cannot show H.264 pictures yet');
    case 'opus':
      throw new UnsupportedCodecError('Audio is not a picture');
  }
}

/** Draws a picture onto the canvas, resizing the canvas to the picture's own pixels. */
export function drawPicture(canvas: HTMLCanvasElement, picture: TPicture): void {
  const width = 'displayWidth' in picture ? picture.displayWidth : picture.width;
  const height = 'displayHeight' in picture ? picture.displayHeight : picture.height;
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  canvas.getContext('2d')?.drawImage(picture, 0, 0);
  picture.close();
}
