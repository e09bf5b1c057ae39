// A room connection for a page: connects once a nickname is known, exposes the room's state to React, and
// paints media frames onto the registered canvas outside React (decoding one at a time, always the newest).
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { TMediaCodecName, TMediaFrame } from '@rooms/api/room-protocol';
import { showToast } from '@rooms/ui/toaster';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { translateServerText } from '../lib/messages';
import { createFrameDecoder, drawPicture, type TFrameDecoder } from '../lib/room/frame-decoder';
import { QualityMeter } from '../lib/room/quality-meter';
import { RoomConnection, type TRoomSnapshot } from '../lib/room/room-connection';

const IDLE: TRoomSnapshot = {
  status: 'connecting',
  you: null,
  members: [],
  controllerId: null,
  queue: [],
  chat: [],
  tabs: [],
  stream: null,
  ended: null,
};

class FramePainter {
  private decoder: TFrameDecoder | null = null;
  private pending: TMediaFrame | null = null;
  private busy = false;
  private unsupported: TMediaCodecName | null = null;
  /** Counts painted frames so tests and the page can tell the picture moves. */
  painted = 0;

  constructor(
    private readonly canvas: () => HTMLCanvasElement | null,
    private readonly onUnsupported: (codec: TMediaCodecName) => void,
  ) {}

  push(frame: TMediaFrame): void {
    this.pending = frame;
    if (!this.busy) void this.drain();
  }

  private async drain(): Promise<void> {
    this.busy = true;
    while (this.pending) {
      const frame = this.pending;
      this.pending = null;
      try {
        const decoder = this.decoderFor(frame.codec);
        if (!decoder) continue;
        const picture = await decoder.decode(frame);
        const canvas = this.canvas();
        if (picture && canvas) {
          drawPicture(canvas, picture);
          this.painted += 1;
          canvas.dataset.frames = String(this.painted);
        } else picture?.close();
      } catch {
        // One bad frame is skipped; the next one repaints the whole picture.
      }
    }
    this.busy = false;
  }

  private decoderFor(codec: TMediaCodecName): TFrameDecoder | null {
    if (codec === 'opus') return null;
    if (this.decoder?.codec === codec) return this.decoder;
    this.decoder?.close();
    this.decoder = null;
    try {
      this.decoder = createFrameDecoder(codec);
    } catch {
      if (this.unsupported !== codec) this.onUnsupported(codec);
      this.unsupported = codec;
    }
    return this.decoder;
  }

  close(): void {
    this.decoder?.close();
    this.pending = null;
  }
}

export function useRoomConnection(i18n: I18n, roomId: string, nickname: string | null) {
  const meter = useMemo(() => new QualityMeter(), []);
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const [connection, setConnection] = useState<RoomConnection | null>(null);

  useEffect(() => {
    if (!nickname) return;
    const frames = new FramePainter(
      () => canvas.current,
      () =>
        showToast({
          severity: 'error',
          summary: i18n._(msg`Error`),
          detail: i18n._(msg`This browser cannot show this room's picture`),
        }),
    );
    const next = new RoomConnection(roomId, nickname, {
      frame: (frame, bytes) => {
        meter.frame(frame.timestamp, bytes, performance.now());
        frames.push(frame);
      },
      pong: (sentAt, serverTime, now) => meter.pong(sentAt, serverTime, now),
      stats: (stats) => meter.stats(stats.framesSkipped),
      error: (error) =>
        showToast({
          severity: 'error',
          summary: i18n._(msg`Error`),
          detail: translateServerText(i18n, error.message),
        }),
    });
    setConnection(next);
    void next.connect();
    return () => {
      next.dispose();
      frames.close();
    };
  }, [roomId, nickname, i18n, meter]);

  const snapshot = useSyncExternalStore(
    connection?.subscribe ?? noSubscribe,
    connection?.getSnapshot ?? idleSnapshot,
  );

  return {
    connection,
    snapshot,
    meter,
    /** The stage hands its canvas over; frames are painted there directly. */
    canvas,
  };
}

const noSubscribe = () => () => {};
const idleSnapshot = () => IDLE;
