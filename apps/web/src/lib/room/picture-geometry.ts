// Where the room's picture sits inside its box (letterboxed, never cropped or stretched) and how a pointer
// position on the page maps to the picture's normalised 0..1 coordinates that the input protocol carries.

export interface TSize {
  width: number;
  height: number;
}

export interface TRect extends TSize {
  left: number;
  top: number;
}

/** The largest rectangle with the picture's aspect ratio that fits the box, centred. */
export function fitPicture(box: TSize, picture: TSize): TRect {
  if (box.width <= 0 || box.height <= 0 || picture.width <= 0 || picture.height <= 0) {
    return { left: 0, top: 0, width: 0, height: 0 };
  }
  const scale = Math.min(box.width / picture.width, box.height / picture.height);
  const width = picture.width * scale;
  const height = picture.height * scale;
  return { left: (box.width - width) / 2, top: (box.height - height) / 2, width, height };
}

const clamp01 = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);

/**
 * A client position (event.clientX/Y) as a fraction of the shown picture, clamped to 0..1 so a drag that leaves
 * the picture still ends on its edge.
 */
export function normalisePoint(
  client: { x: number; y: number },
  shown: { left: number; top: number; width: number; height: number },
): { x: number; y: number } {
  if (shown.width <= 0 || shown.height <= 0) return { x: 0, y: 0 };
  return {
    x: clamp01((client.x - shown.left) / shown.width),
    y: clamp01((client.y - shown.top) / shown.height),
  };
}

/** A scroll distance as the input protocol carries it: at most 10,000 pixels either way. */
export function boundScroll(pixels: number): number {
  return Math.max(-10_000, Math.min(10_000, pixels));
}

/** WheelEvent deltas in CSS pixels whatever the event's deltaMode (lines or pages on some systems). */
export function wheelPixels(
  event: { deltaX: number; deltaY: number; deltaMode: number },
  pageHeight: number,
): { deltaX: number; deltaY: number } {
  const factor = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? pageHeight : 1;
  return { deltaX: boundScroll(event.deltaX * factor), deltaY: boundScroll(event.deltaY * factor) };
}

/** Modifier bit set of the input protocol: Alt 1, Ctrl 2, Meta 4, Shift 8. */
export function modifierBits(event: {
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}): number {
  return (
    (event.altKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.metaKey ? 4 : 0) | (event.shiftKey ? 8 : 0)
  );
}

const BUTTONS = ['left', 'middle', 'right', 'back', 'forward'] as const;

/** PointerEvent.button (0 left, 1 middle, 2 right, 3 back, 4 forward; -1 none) as the protocol names it. */
export function pointerButton(button: number): 'none' | (typeof BUTTONS)[number] {
  return BUTTONS[button] ?? 'none';
}
