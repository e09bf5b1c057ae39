// The live picture and the controller's input. The canvas is letterboxed inside the stage; pointer positions
// are normalised to the shown picture (0..1), so any window size drives the same browser pixels. Keys go
// through a hidden textarea that holds focus, which is what lets IME composition and paste work. Presses and
// key presses are also told to the player, which measures how long each takes to show (quality-meter.ts).
import { Trans, useLingui } from '@lingui/react/macro';
import type { TClientMessageInput } from '@rooms/api/room-protocol';
import { cn } from '@rooms/ui/lib/utils';
import { Spinner } from '@rooms/ui/spinner';
import { type RefObject, useEffect, useRef, useState } from 'react';
import {
  fitPicture,
  modifierBits,
  normalisePoint,
  pointerButton,
  type TSize,
  wheelPixels,
} from '../../../lib/room/picture-geometry';
import type { QualityMeter } from '../../../lib/room/quality-meter';
import type { RoomPlayer } from '../../../lib/room/room-player';
import { QualityIndicator } from './quality-indicator';
import { SoundControls } from './sound-controls';

const DOUBLE_CLICK_MS = 400;
const DOUBLE_CLICK_PX = 6;

export function RoomStage({
  canvasRef,
  picture,
  controlling,
  send,
  meter,
  player = null,
  waiting,
}: {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  picture: TSize | null;
  controlling: boolean;
  send: (message: TClientMessageInput) => boolean;
  meter: QualityMeter;
  /** Plays the media: its path shows in the quality indicator, its sound gets the volume controls. */
  player?: RoomPlayer | null;
  waiting: boolean;
}) {
  const { t } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  const keys = useRef<HTMLTextAreaElement>(null);
  const [size, setSize] = useState<TSize>({ width: 0, height: 0 });
  const [focused, setFocused] = useState(false);
  // The latest controller flag, sender and player, read by the native listeners below without re-binding them.
  const live = useRef({ controlling, send, player });
  live.current = { controlling, send, player };

  // The player reports its paints and this participant's measured inputs to the meter the indicator reads.
  useEffect(() => {
    player?.attach(meter);
    return () => player?.attach(null);
  }, [player, meter]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Pointer, wheel and keyboard listeners are native: wheel must be non-passive to keep the page from scrolling,
  // and moves are coalesced to one message per animation frame.
  useEffect(() => {
    const canvas = canvasRef.current;
    const textarea = keys.current;
    if (!canvas || !textarea) return;
    let pendingMove: TClientMessageInput | null = null;
    let moveFrame = 0;
    let lastDown = { at: 0, x: 0, y: 0, count: 0 };

    const position = (event: { clientX: number; clientY: number }) =>
      normalisePoint({ x: event.clientX, y: event.clientY }, canvas.getBoundingClientRect());
    const flushMove = () => {
      moveFrame = 0;
      if (pendingMove) live.current.send(pendingMove);
      pendingMove = null;
    };

    const onPointerDown = (event: PointerEvent) => {
      event.preventDefault();
      textarea.focus({ preventScroll: true });
      if (!live.current.controlling) return;
      canvas.setPointerCapture(event.pointerId);
      const now = performance.now();
      const near =
        Math.abs(event.clientX - lastDown.x) < DOUBLE_CLICK_PX &&
        Math.abs(event.clientY - lastDown.y) < DOUBLE_CLICK_PX;
      const count = near && now - lastDown.at < DOUBLE_CLICK_MS ? Math.min(3, lastDown.count + 1) : 1;
      lastDown = { at: now, x: event.clientX, y: event.clientY, count };
      flushMove();
      const button = event.pointerType === 'touch' ? 'left' : pointerButton(event.button);
      const point = position(event);
      const sent = live.current.send({
        type: 'input/pointer',
        action: 'down',
        ...point,
        button,
        buttons: event.pointerType === 'touch' ? 1 : event.buttons,
        clickCount: count,
        modifiers: modifierBits(event),
      });
      if (sent) live.current.player?.input(event.timeStamp, point);
    };
    const onPointerMove = (event: PointerEvent) => {
      if (!live.current.controlling) return;
      pendingMove = {
        type: 'input/pointer',
        action: 'move',
        ...position(event),
        buttons: event.pointerType === 'touch' ? (event.buttons ? 1 : 0) : event.buttons,
        modifiers: modifierBits(event),
      };
      if (!moveFrame) moveFrame = requestAnimationFrame(flushMove);
    };
    const onPointerUp = (event: PointerEvent) => {
      if (!live.current.controlling) return;
      flushMove();
      live.current.send({
        type: 'input/pointer',
        action: 'up',
        ...position(event),
        button: event.pointerType === 'touch' ? 'left' : pointerButton(event.button),
        buttons: event.pointerType === 'touch' ? 0 : event.buttons,
        clickCount: lastDown.count,
        modifiers: modifierBits(event),
      });
    };
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      if (!live.current.controlling) return;
      live.current.send({
        type: 'input/wheel',
        ...position(event),
        ...wheelPixels(event, canvas.getBoundingClientRect().height),
        modifiers: modifierBits(event),
      });
    };
    const onContextMenu = (event: Event) => event.preventDefault();

    const composing = (event: KeyboardEvent) => event.isComposing || event.keyCode === 229;
    // Ctrl/⌘+V pastes this computer's clipboard (the paste event below), not the room browser's.
    const isPaste = (event: KeyboardEvent) =>
      (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v';
    const onKey = (event: KeyboardEvent) => {
      if (!live.current.controlling || composing(event) || isPaste(event)) return;
      if (event.key === 'Unidentified' || event.key.length > 32) return;
      event.preventDefault();
      const down = event.type === 'keydown';
      const sent = live.current.send({
        type: 'input/key',
        action: down ? 'down' : 'up',
        key: event.key,
        code: event.code.slice(0, 32),
        modifiers: modifierBits(event),
        repeat: event.repeat,
      });
      if (sent && down && !event.repeat) live.current.player?.input(event.timeStamp, null);
    };
    // Text the keys did not carry: phone keyboards and the end of an IME composition.
    const onInput = (event: Event) => {
      const input = event as InputEvent;
      if (input.isComposing) return;
      if (
        live.current.controlling &&
        input.data &&
        live.current.send({ type: 'input/text', text: input.data })
      ) {
        live.current.player?.input(event.timeStamp, null);
      }
      textarea.value = '';
    };
    const onCompositionUpdate = (event: CompositionEvent) => {
      if (!live.current.controlling) return;
      const text = event.data.slice(0, 1000);
      live.current.send({
        type: 'input/composition',
        text,
        selectionStart: text.length,
        selectionEnd: text.length,
      });
    };
    const onCompositionEnd = (event: CompositionEvent) => {
      if (live.current.controlling && event.data) live.current.send({ type: 'input/text', text: event.data });
      textarea.value = '';
    };
    const onPaste = (event: ClipboardEvent) => {
      event.preventDefault();
      const text = event.clipboardData?.getData('text/plain').slice(0, 10_000);
      if (live.current.controlling && text) live.current.send({ type: 'input/text', text });
    };

    canvas.addEventListener('pointerdown', onPointerDown);
    canvas.addEventListener('pointermove', onPointerMove);
    canvas.addEventListener('pointerup', onPointerUp);
    canvas.addEventListener('pointercancel', onPointerUp);
    canvas.addEventListener('wheel', onWheel, { passive: false });
    canvas.addEventListener('contextmenu', onContextMenu);
    textarea.addEventListener('keydown', onKey);
    textarea.addEventListener('keyup', onKey);
    textarea.addEventListener('input', onInput);
    textarea.addEventListener('compositionupdate', onCompositionUpdate);
    textarea.addEventListener('compositionend', onCompositionEnd);
    textarea.addEventListener('paste', onPaste);
    return () => {
      cancelAnimationFrame(moveFrame);
      canvas.removeEventListener('pointerdown', onPointerDown);
      canvas.removeEventListener('pointermove', onPointerMove);
      canvas.removeEventListener('pointerup', onPointerUp);
      canvas.removeEventListener('pointercancel', onPointerUp);
      canvas.removeEventListener('wheel', onWheel);
      canvas.removeEventListener('contextmenu', onContextMenu);
      textarea.removeEventListener('keydown', onKey);
      textarea.removeEventListener('keyup', onKey);
      textarea.removeEventListener('input', onInput);
      textarea.removeEventListener('compositionupdate', onCompositionUpdate);
      textarea.removeEventListener('compositionend', onCompositionEnd);
      textarea.removeEventListener('paste', onPaste);
    };
  }, [canvasRef]);

  const shown = picture ? fitPicture(size, picture) : null;

  return (
    <div
      ref={box}
      className={cn(
        'relative min-h-0 flex-1 overflow-hidden bg-black',
        focused && controlling && 'ring-2 ring-primary ring-inset',
      )}
      data-testid="room-stage"
    >
      <canvas
        ref={canvasRef}
        tabIndex={-1}
        aria-label={t`Room browser`}
        data-testid="room-canvas"
        className={cn(
          'absolute touch-none select-none outline-none',
          controlling ? 'cursor-default' : 'cursor-not-allowed',
        )}
        style={
          shown && shown.width > 0
            ? { left: shown.left, top: shown.top, width: shown.width, height: shown.height }
            : { left: 0, top: 0, width: '100%', height: '100%' }
        }
        onFocus={() => keys.current?.focus({ preventScroll: true })}
      />
      <textarea
        ref={keys}
        aria-label={t`Keyboard input for the room browser`}
        data-testid="room-keys"
        autoCapitalize="off"
        autoComplete="off"
        autoCorrect="off"
        spellCheck={false}
        className="absolute bottom-0 left-0 h-px w-px resize-none overflow-hidden border-0 p-0 opacity-0"
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
      />
      {waiting ? (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 text-muted-foreground">
          <Spinner />
          <Trans>Waiting for the picture…</Trans>
        </div>
      ) : null}
      <QualityIndicator meter={meter} player={player} />
      <SoundControls player={player} />
    </div>
  );
}
