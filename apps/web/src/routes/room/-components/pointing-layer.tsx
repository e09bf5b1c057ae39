// Pointing and reactions over the picture: the others' pointers as labelled ghosts that fade 3 s after their last
// move, reactions floating up (still, and only fading, for those who ask for reduced motion), and a line for
// screen readers when someone reacts. The board (lib/room/pointing-board.ts) says what shows; this draws it.
import { useLingui } from '@lingui/react/macro';
import {
  POINTER_SEND_INTERVAL_MS,
  type TClientMessageInput,
  type TReactionEmoji,
} from '@rooms/api/room-protocol';
import { cn } from '@rooms/ui/lib/utils';
import { showToast } from '@rooms/ui/toaster';
import { type CSSProperties, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PointingBoard } from '../../../lib/room/pointing-board';
import type { RoomConnection } from '../../../lib/room/room-connection';

/** The board of this page's room, fed by the connection and redrawn while something shows. */
export function usePointingBoard(
  connection: RoomConnection | null,
  memberIds: readonly string[],
  send: (message: TClientMessageInput) => boolean,
) {
  const { t } = useLingui();
  const board = useMemo(() => new PointingBoard(), []);
  const [, redraw] = useState(0);
  const frame = useRef(0);
  const [announced, setAnnounced] = useState<{ nickname: string; emoji: TReactionEmoji } | null>(null);

  // Redrawn on every animation frame while anything shows: ghosts fade and reactions expire on their own.
  const wake = useCallback(() => {
    if (frame.current) return;
    const tick = () => {
      redraw((n) => n + 1);
      frame.current = board.empty ? 0 : requestAnimationFrame(tick);
    };
    frame.current = requestAnimationFrame(tick);
  }, [board]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  useEffect(() => {
    if (!connection) return;
    return connection.onPointing((event) => {
      board.show(event, performance.now());
      if (event.type === 'reaction/shown') setAnnounced({ nickname: event.nickname, emoji: event.emoji });
      wake();
    });
  }, [connection, board, wake]);

  const present = memberIds.join(' ');
  useEffect(() => {
    board.keepOnly(new Set(present.split(' ')));
  }, [board, present]);

  /**
   * Sends a reaction and shows it here at once (the room passes it to the others only); beyond the room's limit it
   * says so instead, in the words the room would use.
   */
  const react = (emoji: TReactionEmoji, nickname: string) => {
    if (!board.mayReact(performance.now())) {
      showToast({
        severity: 'error',
        summary: t`Error`,
        detail: t`You are sending reactions too fast; wait a few seconds`,
      });
      return;
    }
    if (!send({ type: 'reaction/send', emoji })) return;
    board.react(emoji, nickname, performance.now());
    wake();
  };
  return { board, react, announced };
}

/** Sends where this member points over the canvas while `active`, at most every POINTER_SEND_INTERVAL_MS. */
export function usePointerSharing(
  canvasRef: { current: HTMLCanvasElement | null },
  active: boolean,
  send: (message: TClientMessageInput) => boolean,
) {
  const sender = useRef(send);
  sender.current = send;
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!active || !canvas) return;
    let last = 0;
    let pending: { x: number; y: number } | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      if (!pending) return;
      last = performance.now();
      sender.current({ type: 'pointer/move', ...pending });
      pending = null;
    };
    const onMove = (event: PointerEvent) => {
      const shown = canvas.getBoundingClientRect();
      if (shown.width <= 0 || shown.height <= 0) return;
      const clamp = (value: number) => Math.min(1, Math.max(0, value));
      pending = {
        x: clamp((event.clientX - shown.left) / shown.width),
        y: clamp((event.clientY - shown.top) / shown.height),
      };
      // The latest point always goes, a moment later if the last one just went.
      const wait = POINTER_SEND_INTERVAL_MS - (performance.now() - last);
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    };
    canvas.addEventListener('pointermove', onMove);
    canvas.addEventListener('pointerdown', onMove);
    return () => {
      clearTimeout(timer);
      canvas.removeEventListener('pointermove', onMove);
      canvas.removeEventListener('pointerdown', onMove);
    };
  }, [canvasRef, active]);
}

/** Beyond this share of the picture's width a ghost's name shows on the left of its dot. */
const FLIP_LABEL_ABOVE = 0.8;

/** A colour per member, the same on every screen, so a ghost is told apart from another at a glance. */
function hueOf(memberId: string): number {
  let hash = 0;
  for (const char of memberId) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

export function PointingLayer({
  board,
  announced,
}: {
  board: PointingBoard;
  announced: { nickname: string; emoji: TReactionEmoji } | null;
}) {
  const { t } = useLingui();
  const now = performance.now();
  const ghosts = board.ghosts(now);
  const reactions = board.reactions(now);
  const { nickname, emoji } = announced ?? { nickname: '', emoji: '' };
  return (
    <div className="pointer-events-none absolute inset-0 overflow-hidden" data-testid="room-pointing-layer">
      {ghosts.map((ghost) => (
        <div
          key={ghost.memberId}
          className={cn(
            'absolute flex items-start gap-1 transition-[left,top] duration-75 ease-linear motion-reduce:transition-none',
            // Near the right edge the name goes on the left of the dot, where the picture still shows it.
            ghost.x > FLIP_LABEL_ABOVE && '-translate-x-full flex-row-reverse',
          )}
          style={
            {
              left: `${ghost.x * 100}%`,
              top: `${ghost.y * 100}%`,
              opacity: ghost.opacity,
              '--ghost-colour': `hsl(${hueOf(ghost.memberId)} 80% 55%)`,
            } as CSSProperties
          }
          aria-hidden="true"
          data-testid="room-pointer-ghost"
          data-member={ghost.memberId}
        >
          <span
            className={cn(
              '-translate-y-1/2 size-3.5 shrink-0 rounded-full border-2 border-white bg-(--ghost-colour) shadow',
              ghost.x > FLIP_LABEL_ABOVE ? 'translate-x-1/2' : '-translate-x-1/2',
            )}
          />
          <span className="-translate-y-1/2 max-w-40 truncate rounded bg-(--ghost-colour) px-1.5 py-0.5 font-medium text-white text-xs shadow">
            {ghost.nickname}
          </span>
        </div>
      ))}
      {reactions.map((reaction) => (
        <div
          key={reaction.id}
          className="absolute bottom-4 flex -translate-x-1/2 flex-col items-center motion-safe:animate-reaction-float motion-reduce:animate-reaction-fade"
          style={{ left: `${reaction.lane * 100}%` }}
          aria-hidden="true"
          data-testid="room-reaction"
          data-emoji={reaction.emoji}
        >
          <span className="text-4xl drop-shadow">{reaction.emoji}</span>
          <span className="max-w-32 truncate rounded bg-black/60 px-1.5 text-white text-xs">
            {reaction.nickname}
          </span>
        </div>
      ))}
      <p className="sr-only" aria-live="polite" data-testid="room-reaction-announcement">
        {announced ? t`${nickname} reacted ${emoji}` : ''}
      </p>
    </div>
  );
}
