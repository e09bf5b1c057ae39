// Turns a controller's input messages into Chrome DevTools Protocol input commands on the active tab. The
// mapping is pure (cdpCommandsFor) so it is tested without a browser; the dispatcher only sends the result.
import type { TKeyInput, TPointerInput, TRoomInput, TWheelInput } from '@rooms/api/room-protocol';
import type { CDPSession } from 'playwright-core';

export interface TCdpCommand {
  method:
    | 'Input.dispatchMouseEvent'
    | 'Input.dispatchKeyEvent'
    | 'Input.insertText'
    | 'Input.imeSetComposition';
  params: Record<string, unknown>;
}

export type TCdpSender = Pick<CDPSession, 'send'>;

const ALT = 1;
const CTRL = 2;
const META = 4;

const POINTER_TYPES = { move: 'mouseMoved', down: 'mousePressed', up: 'mouseReleased' } as const;

// Windows virtual key codes by KeyboardEvent.code. Pages read event.keyCode/which, and Chromium derives its
// editing commands (Backspace, arrows, Ctrl+A …) from this code, so every common key needs one.
const KEY_CODES_BY_CODE: Record<string, number> = {
  Backspace: 8,
  Tab: 9,
  Enter: 13,
  NumpadEnter: 13,
  ShiftLeft: 16,
  ShiftRight: 16,
  ControlLeft: 17,
  ControlRight: 17,
  AltLeft: 18,
  AltRight: 18,
  Pause: 19,
  CapsLock: 20,
  Escape: 27,
  Space: 32,
  PageUp: 33,
  PageDown: 34,
  End: 35,
  Home: 36,
  ArrowLeft: 37,
  ArrowUp: 38,
  ArrowRight: 39,
  ArrowDown: 40,
  PrintScreen: 44,
  Insert: 45,
  Delete: 46,
  MetaLeft: 91,
  MetaRight: 92,
  ContextMenu: 93,
  NumpadMultiply: 106,
  NumpadAdd: 107,
  NumpadSubtract: 109,
  NumpadDecimal: 110,
  NumpadDivide: 111,
  NumLock: 144,
  ScrollLock: 145,
  Semicolon: 186,
  Equal: 187,
  Comma: 188,
  Minus: 189,
  Period: 190,
  Slash: 191,
  Backquote: 192,
  BracketLeft: 219,
  Backslash: 220,
  BracketRight: 221,
  Quote: 222,
};

// Keys whose `key` names them when the client sent no code (some mobile keyboards leave code empty).
const KEY_CODES_BY_KEY: Record<string, number> = {
  Backspace: 8,
  Tab: 9,
  Enter: 13,
  Shift: 16,
  Control: 17,
  Alt: 18,
  CapsLock: 20,
  Escape: 27,
  ' ': 32,
  PageUp: 33,
  PageDown: 34,
  End: 35,
  Home: 36,
  ArrowLeft: 37,
  ArrowUp: 38,
  ArrowRight: 39,
  ArrowDown: 40,
  Insert: 45,
  Delete: 46,
  Meta: 91,
};

export function windowsKeyCode(key: string, code: string): number | undefined {
  const byCode = KEY_CODES_BY_CODE[code];
  if (byCode !== undefined) return byCode;
  let match = /^Key([A-Z])$/.exec(code);
  if (match) return match[1]!.charCodeAt(0);
  match = /^Digit(\d)$/.exec(code);
  if (match) return 48 + Number(match[1]);
  match = /^Numpad(\d)$/.exec(code);
  if (match) return 96 + Number(match[1]);
  match = /^F(\d{1,2})$/.exec(code) ?? /^F(\d{1,2})$/.exec(key);
  if (match && Number(match[1]) >= 1 && Number(match[1]) <= 24) return 111 + Number(match[1]);
  const byKey = KEY_CODES_BY_KEY[key];
  if (byKey !== undefined) return byKey;
  if (/^[a-z]$/i.test(key)) return key.toUpperCase().charCodeAt(0);
  if (/^\d$/.test(key)) return key.charCodeAt(0);
  return undefined;
}

/** The text a key press types, if any: printable keys and Enter, unless a shortcut modifier is held. */
function typedText(input: TKeyInput): string | undefined {
  if (input.modifiers & (CTRL | META)) return undefined;
  // AltGr reports Ctrl+Alt on Windows but Alt alone elsewhere; Alt+letter without a character is a shortcut.
  if (input.modifiers & ALT && [...input.key].length !== 1) return undefined;
  if (input.key === 'Enter') return '\r';
  return [...input.key].length === 1 ? input.key : undefined;
}

function keyLocation(code: string): number {
  if (code.endsWith('Left')) return code.startsWith('Arrow') ? 0 : 1;
  if (code.endsWith('Right')) return code.startsWith('Arrow') ? 0 : 2;
  return code.startsWith('Numpad') ? 3 : 0;
}

function keyCommand(input: TKeyInput): TCdpCommand {
  const keyCode = windowsKeyCode(input.key, input.code);
  const text = input.action === 'down' ? typedText(input) : undefined;
  const params: Record<string, unknown> = {
    // keyDown with text inserts a character; rawKeyDown is a key that types nothing (arrows, shortcuts).
    type: input.action === 'up' ? 'keyUp' : text === undefined ? 'rawKeyDown' : 'keyDown',
    key: input.key,
    code: input.code,
    modifiers: input.modifiers,
    autoRepeat: input.repeat,
    location: keyLocation(input.code),
    isKeypad: input.code.startsWith('Numpad'),
  };
  if (keyCode !== undefined) {
    params.windowsVirtualKeyCode = keyCode;
    params.nativeVirtualKeyCode = keyCode;
  }
  if (text !== undefined) {
    params.text = text;
    params.unmodifiedText = text;
  }
  return { method: 'Input.dispatchKeyEvent', params };
}

function clampToPixels(fraction: number, size: number): number {
  // The right and bottom edges (1.0) map to the last pixel, not one past it.
  return Math.min(size - 1, Math.max(0, Math.round(fraction * size)));
}

function pointerCommand(input: TPointerInput, viewport: TViewport): TCdpCommand {
  return {
    method: 'Input.dispatchMouseEvent',
    params: {
      type: POINTER_TYPES[input.action],
      x: clampToPixels(input.x, viewport.width),
      y: clampToPixels(input.y, viewport.height),
      button: input.button,
      buttons: input.buttons,
      clickCount: input.clickCount,
      modifiers: input.modifiers,
    },
  };
}

function wheelCommand(input: TWheelInput, viewport: TViewport): TCdpCommand {
  return {
    method: 'Input.dispatchMouseEvent',
    params: {
      type: 'mouseWheel',
      x: clampToPixels(input.x, viewport.width),
      y: clampToPixels(input.y, viewport.height),
      deltaX: input.deltaX,
      deltaY: input.deltaY,
      modifiers: input.modifiers,
    },
  };
}

export interface TViewport {
  width: number;
  height: number;
}

export function cdpCommandFor(input: TRoomInput, viewport: TViewport): TCdpCommand {
  switch (input.type) {
    case 'input/pointer':
      return pointerCommand(input, viewport);
    case 'input/wheel':
      return wheelCommand(input, viewport);
    case 'input/key':
      return keyCommand(input);
    case 'input/text':
      return { method: 'Input.insertText', params: { text: input.text } };
    case 'input/composition':
      return {
        method: 'Input.imeSetComposition',
        params: {
          text: input.text,
          selectionStart: input.selectionStart,
          selectionEnd: input.selectionEnd,
        },
      };
  }
}

/** Sends one input to the target; an input racing a closing tab is dropped rather than failing the socket. */
export async function dispatchInput(
  target: TCdpSender,
  input: TRoomInput,
  viewport: TViewport,
): Promise<void> {
  const command = cdpCommandFor(input, viewport);
  try {
    // The parameter objects are built to the protocol above; playwright-core does not export its protocol
    // types for us to name them.
    await target.send(command.method, command.params as never);
  } catch (error) {
    if (isTargetGone(error)) return;
    throw error;
  }
}

export function isTargetGone(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Target (page, context or browser )?(has been )?closed|Session closed|browser has disconnected/i.test(
    message,
  );
}
