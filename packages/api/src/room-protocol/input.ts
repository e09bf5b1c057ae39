// Input events a room's controller sends (messages of the `input/…` domain). Coordinates are normalised to the
// room's viewport (0..1 from the top-left corner), so any window size maps onto the same browser pixels.
import { z } from 'zod';

const ZNormalised = z.number().min(0).max(1);

/** Held modifier keys, as a bit set: Alt 1, Ctrl 2, Meta/Command 4, Shift 8 (the CDP convention). */
const ZModifiers = z.number().int().min(0).max(15).default(0);

export const ZPointerButton = z.enum(['none', 'left', 'middle', 'right', 'back', 'forward']);

export const ZPointerInput = z.object({
  type: z.literal('input/pointer'),
  action: z.enum(['move', 'down', 'up']),
  x: ZNormalised,
  y: ZNormalised,
  button: ZPointerButton.default('none'),
  /** Buttons held during the event as a bit set: left 1, right 2, middle 4, back 8, forward 16. */
  buttons: z.number().int().min(0).max(31).default(0),
  clickCount: z.number().int().min(0).max(3).default(0),
  modifiers: ZModifiers,
});

export const ZWheelInput = z.object({
  type: z.literal('input/wheel'),
  x: ZNormalised,
  y: ZNormalised,
  /** CSS pixels, as the browser's WheelEvent reports them after mode conversion. */
  deltaX: z.number().min(-10_000).max(10_000),
  deltaY: z.number().min(-10_000).max(10_000),
  modifiers: ZModifiers,
});

export const ZKeyInput = z.object({
  type: z.literal('input/key'),
  action: z.enum(['down', 'up']),
  /** KeyboardEvent.key, e.g. 'a', 'Enter', 'ArrowLeft'. */
  key: z.string().min(1).max(32),
  /** KeyboardEvent.code, e.g. 'KeyA'. */
  code: z.string().max(32).default(''),
  modifiers: ZModifiers,
  repeat: z.boolean().default(false),
});

/** Text typed or pasted at once (clipboard paste, mobile keyboards, the end of an IME composition). */
export const ZTextInput = z.object({
  type: z.literal('input/text'),
  text: z.string().min(1).max(10_000),
});

/** An IME composition in progress (Chinese, Japanese, … input methods): the text shown underlined. */
export const ZCompositionInput = z.object({
  type: z.literal('input/composition'),
  text: z.string().max(1000),
  selectionStart: z.number().int().min(0).max(1000),
  selectionEnd: z.number().int().min(0).max(1000),
});

/** Touch is mapped to the pointer on the client: one finger moves, presses and releases the left button. */
export const ZRoomInput = z.discriminatedUnion('type', [
  ZPointerInput,
  ZWheelInput,
  ZKeyInput,
  ZTextInput,
  ZCompositionInput,
]);

export type TPointerInput = z.infer<typeof ZPointerInput>;
export type TWheelInput = z.infer<typeof ZWheelInput>;
export type TKeyInput = z.infer<typeof ZKeyInput>;
export type TRoomInput = z.infer<typeof ZRoomInput>;
