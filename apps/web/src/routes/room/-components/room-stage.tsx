// The live picture and the controller's input. The canvas is letterboxed inside the stage; pointer positions
// are normalised to the shown picture (0..1), so any window size drives the same browser pixels. Keys go
// through a hidden textarea that holds focus, which is what lets IME composition and paste work; Tab goes to the
// room's page too, and Escape then Tab leaves the picture, as a hint on it says (lib/room/picture-keys.ts).
// Presses and key presses are also told to the player, which measures how long each takes to show (quality-meter.ts).
// A finger is read as a phone reads it (lib/room/touch-gesture.ts): a tap clicks, a swipe scrolls the room's page,
// a long press drags.
import { Trans, useLingui } from '@lingui/react/macro';
import type { TClientMessageInput, TStreamLayer } from '@rooms/api/room-protocol';
import { cn } from '@rooms/ui/lib/utils';
import { Spinner } from '@rooms/ui/spinner';
import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import {
  boundScroll,
  fitPicture,
  modifierBits,
  normalisePoint,
  pointerButton,
  type TSize,
  wheelPixels,
} from '../../../lib/room/picture-geometry';
import { PictureKeys } from '../../../lib/room/picture-keys';
import type { QualityMeter } from '../../../lib/room/quality-meter';
import type { RoomPlayer } from '../../../lib/room/room-player';
import { LONG_PRESS_MS, TouchGesture } from '../../../lib/room/touch-gesture';
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
  layer = null,
  automatic = true,
  connected = true,
  pointing = false,
  overlay = null,
}: {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  picture: TSize | null;
  controlling: boolean;
  send: (message: TClientMessageInput) => boolean;
  meter: QualityMeter;
  /** Plays the media: its path shows in the quality indicator, its sound gets the volume controls. */
  player?: RoomPlayer | null;
  waiting: boolean;
  /** The picture layer received now and whether the room picks it (the viewer's choice is Auto). */
  layer?: TStreamLayer | null;
  automatic?: boolean;
  /** False while the connection is down: the quality indicator says so. */
  connected?: boolean;
  /** A watcher pointing at the picture (pointing-layer.tsx): the cursor says moving it shows. */
  pointing?: boolean;
  /** Drawn over the shown picture, letterbox excluded (the others' pointers and reactions). */
  overlay?: ReactNode;
}) {
  const { t } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  const keys = useRef<HTMLTextAreaElement>(null);
  const [size, setSize] = useState<TSize>({ width: 0, height: 0 });
  const [focused, setFocused] = useState(false);
  // The hint on leaving the picture shows when the keyboard brought the focus here, or after Escape: a click
  // brings it too, and a mouse leaves with a click.
  const [byKeyboard, setByKeyboard] = useState(false);
  const [armed, setArmed] = useState(false);
  const pressing = useRef(false);
  const hintId = useId();
  // The latest controller flag, sender, player and picture size, read by the native listeners below without
  // re-binding them.
  const live = useRef({ controlling, send, player, picture });
  live.current = { controlling, send, player, picture };

  // Control just arrived: the keyboard goes to the picture at once. The focus is then usually on the button that
  // asked for control (gone now, so on the page's body): the first keys typed would reach nothing. Someone typing
  // elsewhere (the chat, the address bar) keeps their field.
  useEffect(() => {
    if (!controlling) return;
    const active = document.activeElement;
    const typing =
      active instanceof HTMLElement &&
      active !== keys.current &&
      (active.isContentEditable ||
        active instanceof HTMLTextAreaElement ||
        active instanceof HTMLInputElement);
    if (!typing) keys.current?.focus({ preventScroll: true });
  }, [controlling]);

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
    let pendingScroll: { x: number; y: number; deltaX: number; deltaY: number } | null = null;
    let moveFrame = 0;
    let lastDown = { at: 0, x: 0, y: 0, count: 0 };
    // The finger on the picture, if any, and the timer that turns it into a drag when it stays still.
    let touch: TouchGesture | null = null;
    let holdTimer: ReturnType<typeof setTimeout> | undefined;
    // Where each key goes, and the Escape that opens the way out of the picture.
    const keyboard = new PictureKeys();

    const position = (event: { clientX: number; clientY: number }) =>
      normalisePoint({ x: event.clientX, y: event.clientY }, canvas.getBoundingClientRect());
    const flushMove = () => {
      moveFrame = 0;
      if (pendingMove) live.current.send(pendingMove);
      pendingMove = null;
      if (pendingScroll) live.current.send({ type: 'input/wheel', ...pendingScroll, modifiers: 0 });
      pendingScroll = null;
    };

    /** A press at a client position: counts double and triple clicks, sends it, and has the player time it. */
    const press = (
      client: { clientX: number; clientY: number },
      timeStamp: number,
      input: { button: ReturnType<typeof pointerButton>; buttons: number; modifiers: number },
    ) => {
      const now = performance.now();
      const near =
        Math.abs(client.clientX - lastDown.x) < DOUBLE_CLICK_PX &&
        Math.abs(client.clientY - lastDown.y) < DOUBLE_CLICK_PX;
      const count = near && now - lastDown.at < DOUBLE_CLICK_MS ? Math.min(3, lastDown.count + 1) : 1;
      lastDown = { at: now, x: client.clientX, y: client.clientY, count };
      flushMove();
      const point = position(client);
      const sent = live.current.send({
        type: 'input/pointer',
        action: 'down',
        ...point,
        ...input,
        clickCount: count,
      });
      if (sent) live.current.player?.input(timeStamp, point);
    };
    const release = (
      client: { clientX: number; clientY: number },
      input: { button: ReturnType<typeof pointerButton>; buttons: number; modifiers: number },
    ) => {
      flushMove();
      live.current.send({
        type: 'input/pointer',
        action: 'up',
        ...position(client),
        ...input,
        clickCount: lastDown.count,
      });
    };
    const TOUCH_DOWN = { button: 'left', buttons: 1, modifiers: 0 } as const;
    const TOUCH_UP = { button: 'left', buttons: 0, modifiers: 0 } as const;

    const onPointerDown = (event: PointerEvent) => {
      event.preventDefault();
      pressing.current = true;
      textarea.focus({ preventScroll: true });
      pressing.current = false;
      // Only a Tab straight after Escape leaves: a press in between closes the way out again.
      keyboard.disarm();
      setArmed(false);
      if (!live.current.controlling) return;
      if (event.pointerType === 'touch') {
        // One finger at a time: a second one (a pinch) is not passed on.
        if (touch || !event.isPrimary) return;
        canvas.setPointerCapture(event.pointerId);
        const gesture = new TouchGesture(event.pointerId, { x: event.clientX, y: event.clientY });
        touch = gesture;
        holdTimer = setTimeout(() => {
          if (touch === gesture && gesture.hold() && live.current.controlling) {
            press({ clientX: gesture.start.x, clientY: gesture.start.y }, performance.now(), TOUCH_DOWN);
          }
        }, LONG_PRESS_MS);
        return;
      }
      canvas.setPointerCapture(event.pointerId);
      press(event, event.timeStamp, {
        button: pointerButton(event.button),
        buttons: event.buttons,
        modifiers: modifierBits(event),
      });
    };
    /** A swipe: the room's page scrolls by as much as the finger moved over the shown picture. */
    const onTouchMove = (gesture: TouchGesture, event: PointerEvent) => {
      const delta = gesture.move({ x: event.clientX, y: event.clientY });
      if (!delta) return;
      clearTimeout(holdTimer);
      const shown = canvas.getBoundingClientRect();
      const scale = shown.height > 0 && live.current.picture ? live.current.picture.height / shown.height : 1;
      const at = position({ clientX: gesture.start.x, clientY: gesture.start.y });
      pendingScroll = {
        ...at,
        deltaX: boundScroll((pendingScroll?.deltaX ?? 0) + delta.deltaX * scale),
        deltaY: boundScroll((pendingScroll?.deltaY ?? 0) + delta.deltaY * scale),
      };
      if (!moveFrame) moveFrame = requestAnimationFrame(flushMove);
    };
    const onPointerMove = (event: PointerEvent) => {
      if (!live.current.controlling) return;
      if (event.pointerType === 'touch') {
        if (!touch || event.pointerId !== touch.pointerId) return;
        if (touch.mode !== 'dragging') return onTouchMove(touch, event);
      }
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
      if (event.pointerType === 'touch') {
        if (!touch || event.pointerId !== touch.pointerId) return;
        const gesture = touch;
        touch = null;
        clearTimeout(holdTimer);
        if (!live.current.controlling) return;
        const start = { clientX: gesture.start.x, clientY: gesture.start.y };
        if (gesture.mode === 'dragging') release(event, TOUCH_UP);
        // A tap is a click where the finger came down (a cancelled touch clicks nothing).
        else if (gesture.mode === 'pending' && event.type === 'pointerup') {
          press(start, event.timeStamp, TOUCH_DOWN);
          release(start, TOUCH_UP);
        } else flushMove();
        return;
      }
      if (!live.current.controlling) return;
      release(event, {
        button: pointerButton(event.button),
        buttons: event.buttons,
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
      const route = keyboard.route(event);
      setArmed(keyboard.armed);
      // Not cancelled: the browser moves the focus on to the room's next (or previous) control.
      if (route === 'leave') return;
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
    // Keys still down in the page come up there: their own keyups now land wherever the focus went.
    const onBlur = () => {
      const held = keyboard.release();
      setArmed(false);
      if (!live.current.controlling) return;
      for (const { key, code } of held) {
        live.current.send({ type: 'input/key', action: 'up', key, code: code.slice(0, 32), modifiers: 0 });
      }
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
    textarea.addEventListener('blur', onBlur);
    return () => {
      cancelAnimationFrame(moveFrame);
      clearTimeout(holdTimer);
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
      textarea.removeEventListener('blur', onBlur);
    };
  }, [canvasRef]);

  const shown = picture ? fitPicture(size, picture) : null;
  const hinted = controlling && focused && (byKeyboard || armed);

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
          controlling ? 'cursor-default' : pointing ? 'cursor-crosshair' : 'cursor-not-allowed',
        )}
        style={
          shown && shown.width > 0
            ? { left: shown.left, top: shown.top, width: shown.width, height: shown.height }
            : { left: 0, top: 0, width: '100%', height: '100%' }
        }
        onFocus={() => keys.current?.focus({ preventScroll: true })}
      />
      {overlay ? (
        <div
          className="pointer-events-none absolute"
          style={
            shown && shown.width > 0
              ? { left: shown.left, top: shown.top, width: shown.width, height: shown.height }
              : { inset: 0 }
          }
        >
          {overlay}
        </div>
      ) : null}
      <textarea
        ref={keys}
        aria-label={t`Keyboard input for the room browser`}
        aria-describedby={controlling ? hintId : undefined}
        data-testid="room-keys"
        autoCapitalize="off"
        autoComplete="off"
        autoCorrect="off"
        spellCheck={false}
        className="absolute bottom-0 left-0 h-px w-px resize-none overflow-hidden border-0 p-0 opacity-0"
        onFocus={() => {
          setFocused(true);
          setByKeyboard(!pressing.current);
        }}
        onBlur={() => setFocused(false)}
      />
      {/* Also the textarea's description while driving, read out whenever it gets the focus. */}
      <p
        id={hintId}
        hidden={!hinted}
        className="pointer-events-none absolute inset-x-0 top-2 z-10 mx-auto w-fit max-w-[calc(100%-1rem)] rounded-md bg-black/70 px-2 py-1 text-center text-white text-xs"
        data-testid="room-keys-hint"
      >
        <Trans>Press Esc, then Tab, to leave the picture</Trans>
      </p>
      {waiting ? (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 text-muted-foreground">
          <Spinner />
          <Trans>Waiting for the picture…</Trans>
        </div>
      ) : null}
      <QualityIndicator
        meter={meter}
        player={player}
        layer={layer}
        automatic={automatic}
        connected={connected}
        driving={controlling}
      />
      <SoundControls player={player} />
    </div>
  );
}
