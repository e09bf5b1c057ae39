// Which of a controller's keys reach the room browser. Everything a page needs passes (typing, IME, copy, paste,
// cut, undo, redo, select all, arrows, Enter, Tab, Escape, Backspace, Delete, Home/End, PageUp/PageDown, reload);
// Chromium's own shortcuts are dropped before CDP, because each opens browser UI the room cannot show or close (a
// window with an omnibox, chrome:// pages, devtools, native file and print dialogs) or acts on the browser instead
// of the page. Chromium matches its shortcuts on the Windows virtual key code and the modifier bits, so the rules
// judge the code the dispatcher will send: no spelling of `key` or `code` gets around them.
import type { TKeyInput } from '@rooms/api/room-protocol';
import { windowsKeyCode } from './input-dispatcher';

const ALT = 1;
const CTRL = 2;
const META = 4;
const SHIFT = 8;

const letters = (text: string) => [...text].map((letter) => letter.charCodeAt(0));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);
const F = (n: number) => 111 + n;

const TAB = 9;
const ESCAPE = 27;
const PAGE_UP = 33;
const PAGE_DOWN = 34;
const HOME = 36;
const DELETE = 46;
const DIGIT_0 = 48;
const DIGITS_1_TO_9 = range(49, 57);
const NUMPAD_0 = 96;
const NUMPADS_1_TO_9 = range(97, 105);
const NUMPAD_ADD = 107;
const NUMPAD_SUBTRACT = 109;
const EQUAL = 187;
const MINUS = 189;

interface TRule {
  keys: number[];
  /** Only with Shift held (true) or only without it (false); either when absent. */
  shift?: boolean;
  reason: string;
}

// Ctrl (or ⌘, which a Mac controller sends) with any other modifiers. Kept: A C V X Z Y (select all, copy, paste,
// cut, undo, redo, with Shift for redo and plain paste), B I (bold, italic), K E (page shortcuts; in the kiosk they
// focus nothing a key can reach), R (reload is harmless and expected), arrows, Home/End, Backspace/Delete (word and
// document editing), Enter, Space.
const CTRL_RULES: TRule[] = [
  { keys: [...letters('TNW'), F(4)], reason: 'opens or closes tabs and windows' },
  {
    keys: [TAB, PAGE_UP, PAGE_DOWN, ...DIGITS_1_TO_9, ...NUMPADS_1_TO_9],
    reason: 'switches or moves tabs (the room has its own tab bar)',
  },
  { keys: letters('OSP'), reason: 'opens a native file or print dialog' },
  { keys: letters('HJ'), reason: 'opens the history or downloads page' },
  { keys: letters('U'), reason: 'opens view-source' },
  { keys: letters('D'), reason: 'opens the bookmark bubble' },
  { keys: letters('FG'), reason: 'opens the find bar, which typing never reaches' },
  { keys: letters('L'), reason: 'focuses the omnibox' },
  {
    keys: [EQUAL, MINUS, DIGIT_0, NUMPAD_ADD, NUMPAD_SUBTRACT, NUMPAD_0],
    reason: 'browser zoom: a bubble over the page, a level kept per site',
  },
  { keys: [DELETE], shift: true, reason: 'opens the clear-browsing-data settings' },
  { keys: letters('IJC'), shift: true, reason: 'opens developer tools' },
  { keys: letters('BO'), shift: true, reason: 'opens the bookmarks bar or manager' },
  { keys: letters('M'), shift: true, reason: 'opens the profile menu' },
  { keys: letters('A'), shift: true, reason: 'opens tab search' },
  { keys: letters('Q'), shift: true, reason: 'quits the browser' },
];

// Alt without Ctrl. Kept: Alt+Left/Right, back and forward in the page's history like the room's own buttons.
const ALT_RULES: TRule[] = [
  { keys: letters('FE'), shift: false, reason: 'opens the browser menu' },
  { keys: letters('D'), shift: false, reason: 'focuses the omnibox' },
  { keys: [HOME], reason: 'opens the home page (the New Tab page)' },
  { keys: DIGITS_1_TO_9, shift: false, reason: 'switches tabs' },
  { keys: [F(4)], reason: 'closes the window' },
  { keys: letters('TIAB'), shift: true, reason: 'focuses the toolbar, bookmarks or a browser dialog' },
];

// Whatever the modifiers. Kept: F5 (reload), F2, F4, F8, F9, F13 and above.
const FUNCTION_KEY_RULES: TRule[] = [
  { keys: [F(1)], reason: 'opens the help page in a new tab' },
  { keys: [F(3)], reason: 'opens the find bar, which typing never reaches' },
  { keys: [F(6)], reason: 'focuses the omnibox and other browser panes' },
  { keys: [F(7)], reason: 'opens the caret browsing dialog' },
  // Shift+F10 is the context menu, the same as a right click.
  { keys: [F(10)], shift: false, reason: 'focuses the browser menu' },
  { keys: [F(11)], reason: 'toggles the browser window fullscreen' },
  { keys: [F(12)], reason: 'opens developer tools' },
];

const PLAIN_RULES: TRule[] = [{ keys: [ESCAPE], shift: true, reason: 'opens the task manager' }];

function matching(rules: TRule[], keyCode: number, shift: boolean): string | undefined {
  return rules.find((rule) => rule.keys.includes(keyCode) && (rule.shift ?? shift) === shift)?.reason;
}

/** Why this key is a browser shortcut that must not reach Chromium, or undefined when the page may have it. */
export function browserShortcut(input: TKeyInput): string | undefined {
  const keyCode = windowsKeyCode(input.key, input.code);
  if (keyCode === undefined) return undefined;
  const shift = (input.modifiers & SHIFT) !== 0;
  const held = input.modifiers & (CTRL | META) ? CTRL_RULES : input.modifiers & ALT ? ALT_RULES : PLAIN_RULES;
  return matching(FUNCTION_KEY_RULES, keyCode, shift) ?? matching(held, keyCode, shift);
}

/**
 * Alt that composed a character (⌥F is "ƒ" on a Mac, ⌥2 is "™") is typing, not a shortcut: the character is
 * typed and the Alt bit removed, so Chromium cannot take it for Alt+F.
 */
function composedWithAlt(input: TKeyInput, keyCode: number | undefined): boolean {
  if ((input.modifiers & (ALT | CTRL | META)) !== ALT || [...input.key].length !== 1) return false;
  if (keyCode === undefined || !/^[A-Z0-9]$/.test(String.fromCharCode(keyCode))) return false;
  return input.key.toUpperCase() !== String.fromCharCode(keyCode);
}

/**
 * A room's key filter. It remembers the keys it dropped so their release and auto-repeat are dropped too: the page
 * never sees half of a shortcut, and a key that was never pressed for it is never released into it.
 */
export class KeyFilter {
  private readonly dropped = new Set<number>();

  /** The key event to send to the page, or undefined to drop it. */
  apply(input: TKeyInput): TKeyInput | undefined {
    const keyCode = windowsKeyCode(input.key, input.code);
    if (keyCode !== undefined && this.dropped.has(keyCode)) {
      // The rest of a dropped press: its auto-repeat and its release.
      if (input.action === 'up') {
        this.dropped.delete(keyCode);
        return undefined;
      }
      if (input.repeat) return undefined;
      // A new press: the release of the last one never came.
      this.dropped.delete(keyCode);
    }
    if (composedWithAlt(input, keyCode)) return { ...input, modifiers: input.modifiers & ~ALT };
    if (input.action === 'down' && keyCode !== undefined && browserShortcut(input) !== undefined) {
      // A repeat that became a shortcut (Ctrl pressed while a key is held) is dropped, but the page saw that key
      // go down, so it still gets the release.
      if (!input.repeat) this.dropped.add(keyCode);
      return undefined;
    }
    return input;
  }
}
