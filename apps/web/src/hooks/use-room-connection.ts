// A room connection for a page: connects once a nickname is known, exposes the room's state to React, and hands
// media frames to a RoomPlayer that paints the registered canvas and plays the sound outside React.
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { showToast } from '@rooms/ui/toaster';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { translateServerText } from '../lib/messages';
import { QualityMeter } from '../lib/room/quality-meter';
import { RoomConnection } from '../lib/room/room-connection';
import { RoomPlayer } from '../lib/room/room-player';
import { INITIAL_SNAPSHOT } from '../lib/room/room-snapshot';
import { trpcClient } from '../lib/trpc';

/**
 * `options.password` is the share password a guest entered with; it is sent again on every reconnect. `knock`: the
 * knock link's token of a page that knocks (lib/room/knock-state.ts).
 */
export function useRoomConnection(
  i18n: I18n,
  roomId: string,
  nickname: string | null,
  options: { password?: string | undefined; knock?: string | undefined } = {},
) {
  const { password, knock } = options;
  const meter = useMemo(() => new QualityMeter(), []);
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const [connection, setConnection] = useState<RoomConnection | null>(null);
  const [player, setPlayer] = useState<RoomPlayer | null>(null);

  useEffect(() => {
    if (!nickname) return;
    const media = new RoomPlayer(
      () => canvas.current,
      () =>
        showToast({
          severity: 'error',
          summary: i18n._(msg`Error`),
          detail: i18n._(msg`This browser cannot show this room's picture`),
        }),
    );
    const next = new RoomConnection(
      roomId,
      nickname,
      {
        frame: (frame, bytes) => {
          // The meter counts pictures; sound packets would inflate the frame rate.
          if (frame.codec !== 'opus') meter.frame(frame.timestamp, bytes, performance.now());
          media.frame(frame);
        },
        pong: (sentAt, serverTime, now) => meter.pong(sentAt, serverTime, now),
        stats: (stats) => meter.stats(stats.framesSkipped),
        error: (error) =>
          showToast({
            severity: 'error',
            summary: i18n._(msg`Error`),
            detail: translateServerText(i18n, error.message),
          }),
      },
      {
        ...(password ? { password } : {}),
        ...(knock ? { knock } : {}),
        // While the room is away the page asks its state (an answer either way) before asking for a ticket, which
        // a stopped room refuses with a 409 every few seconds.
        roomRuns: async () => {
          const entry = await trpcClient.room.getRoomEntry.query({ id: roomId, password, knock });
          return entry.passwordRequired || entry.room.state === 'running';
        },
      },
    );
    setConnection(next);
    setPlayer(media);
    void next.connect();
    return () => {
      next.dispose();
      media.close();
    };
  }, [roomId, nickname, password, knock, i18n, meter]);

  const snapshot = useSyncExternalStore(
    connection?.subscribe ?? noSubscribe,
    connection?.getSnapshot ?? idleSnapshot,
  );

  return {
    connection,
    snapshot,
    meter,
    /** The picture path, the sound and its controls. */
    player,
    /** The stage hands its canvas over; frames are painted there directly. */
    canvas,
  };
}

const noSubscribe = () => () => {};
const idleSnapshot = () => INITIAL_SNAPSHOT;
