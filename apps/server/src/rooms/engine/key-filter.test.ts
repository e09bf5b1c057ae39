import { type TKeyInput, ZKeyInput } from '@rooms/api/room-protocol';
import { describe, expect, it } from 'vitest';
import { browserShortcut, KeyFilter } from './key-filter';

const BITS = { Alt: 1, Ctrl: 2, Meta: 4, Shift: 8 } as const;

/** A keydown as the web client sends it, from a label such as "Ctrl+Shift+KeyI" or "Alt+F4". */
function down(label: string, key?: string, extra: Partial<TKeyInput> = {}): TKeyInput {
  const parts = label.split('+');
  const code = parts.pop()!;
  const modifiers = parts.reduce((bits, name) => bits | BITS[name as keyof typeof BITS], 0);
  const letter = /^Key([A-Z])$/.exec(code)?.[1];
  const digit = /^Digit(\d)$/.exec(code)?.[1];
  const name = key ?? (letter ? (modifiers & BITS.Shift ? letter : letter.toLowerCase()) : (digit ?? code));
  return ZKeyInput.parse({ type: 'input/key', action: 'down', key: name, code, modifiers, ...extra });
}

const up = (input: TKeyInput): TKeyInput => ({ ...input, action: 'up', repeat: false });

describe('browserShortcut', () => {
  it('drops the shortcuts of the security review: new tabs and windows, internal pages, dialogs, devtools', () => {
    for (const label of [
      'Ctrl+KeyT',
      'Ctrl+KeyN',
      'Ctrl+Shift+KeyN',
      'Ctrl+Shift+KeyT',
      'Ctrl+KeyW',
      'Ctrl+KeyH',
      'Ctrl+KeyJ',
      'Ctrl+Shift+Delete',
      'Ctrl+KeyO',
      'F12',
      'Ctrl+Shift+KeyI',
      'Ctrl+Shift+KeyJ',
      'Ctrl+Shift+KeyC',
      'Ctrl+KeyU',
      'Ctrl+KeyP',
      'Ctrl+KeyS',
      'Ctrl+Shift+KeyS',
      'Ctrl+KeyD',
      'Ctrl+Shift+KeyO',
      'Ctrl+Shift+KeyB',
      'Ctrl+Shift+KeyM',
      'Ctrl+Shift+KeyA',
      'Ctrl+Shift+KeyQ',
      'Shift+Escape',
    ]) {
      expect(browserShortcut(down(label)), label).toBeTypeOf('string');
    }
  });

  it('drops tab switching, zoom, the find bar, the omnibox, menus and the other function keys', () => {
    for (const label of [
      'Ctrl+Tab',
      'Ctrl+Shift+Tab',
      'Ctrl+PageDown',
      'Ctrl+PageUp',
      'Ctrl+Digit1',
      'Ctrl+Digit9',
      'Ctrl+Numpad3',
      'Alt+Digit2',
      'Ctrl+Equal',
      'Ctrl+Shift+Equal',
      'Ctrl+Minus',
      'Ctrl+Digit0',
      'Ctrl+NumpadAdd',
      'Ctrl+KeyF',
      'F3',
      'Shift+F3',
      'Ctrl+KeyG',
      'Ctrl+KeyL',
      'Alt+KeyD',
      'F6',
      'Alt+KeyF',
      'Alt+KeyE',
      'F10',
      'Alt+Home',
      'Alt+F4',
      'Ctrl+F4',
      'F1',
      'F7',
      'F11',
      'Alt+Shift+KeyI',
    ]) {
      expect(browserShortcut(down(label)), label).toBeTypeOf('string');
    }
  });

  it('keeps typing and the page’s editing keys', () => {
    for (const label of [
      'KeyA',
      'Shift+KeyA',
      'Digit7',
      'Space',
      'Ctrl+KeyA',
      'Ctrl+KeyC',
      'Ctrl+KeyV',
      'Ctrl+Shift+KeyV',
      'Ctrl+KeyX',
      'Ctrl+KeyZ',
      'Ctrl+Shift+KeyZ',
      'Ctrl+KeyY',
      'Ctrl+KeyB',
      'Ctrl+KeyI',
      'Ctrl+KeyK',
      'Ctrl+KeyE',
      'ArrowLeft',
      'Shift+ArrowRight',
      'Ctrl+ArrowLeft',
      'Ctrl+Shift+ArrowRight',
      'Home',
      'End',
      'Ctrl+Home',
      'Ctrl+End',
      'PageUp',
      'PageDown',
      'Shift+PageDown',
      'Enter',
      'Ctrl+Enter',
      'Tab',
      'Shift+Tab',
      'Escape',
      'Backspace',
      'Ctrl+Backspace',
      'Delete',
      'Ctrl+Delete',
      'Shift+Delete',
      'Shift+Insert',
      'Ctrl+Insert',
      'Shift+F10',
      'F2',
      'ControlLeft',
      'ShiftLeft',
      'AltLeft',
      'Alt+KeyX',
      'Alt+Shift+Digit1',
    ]) {
      expect(browserShortcut(down(label)), label).toBeUndefined();
    }
  });

  it('keeps reload (F5, Ctrl+R, Ctrl+Shift+R) and Alt+Left/Right: the room has the same buttons', () => {
    for (const label of [
      'F5',
      'Ctrl+F5',
      'Shift+F5',
      'Ctrl+KeyR',
      'Ctrl+Shift+KeyR',
      'Alt+ArrowLeft',
      'Alt+ArrowRight',
    ]) {
      expect(browserShortcut(down(label)), label).toBeUndefined();
    }
  });

  it('treats ⌘ like Ctrl, and Ctrl with Alt (AltGr on Windows) like Ctrl', () => {
    expect(browserShortcut(down('Meta+KeyT'))).toBeTypeOf('string');
    expect(browserShortcut(down('Meta+Shift+KeyI'))).toBeTypeOf('string');
    expect(browserShortcut(down('Ctrl+Alt+KeyT'))).toBeTypeOf('string');
    expect(browserShortcut(down('Meta+KeyC'))).toBeUndefined();
  });

  it('judges the key code Chromium will see, whatever the key and code strings say', () => {
    // The physical key decides, as in windowsKeyCode: a `key` of "x" on KeyT is still Ctrl+T.
    expect(browserShortcut(down('Ctrl+KeyT', 'x'))).toBeTypeOf('string');
    // No code at all (some mobile keyboards): the key names it.
    expect(
      browserShortcut(ZKeyInput.parse({ type: 'input/key', action: 'down', key: 't', modifiers: 2 })),
    ).toBeTypeOf('string');
    expect(
      browserShortcut(ZKeyInput.parse({ type: 'input/key', action: 'down', key: 'F12', code: '' })),
    ).toBeTypeOf('string');
    // A key with no code Chromium knows cannot match a shortcut.
    expect(browserShortcut(down('Ctrl+Unidentified', 'é'))).toBeUndefined();
  });
});

describe('KeyFilter', () => {
  it('drops the release and the auto-repeat of a dropped press, and nothing else', () => {
    const filter = new KeyFilter();
    const control = down('ControlLeft', 'Control', { modifiers: 2 });
    const ctrlT = down('Ctrl+KeyT');
    expect(filter.apply(control)).toEqual(control);
    expect(filter.apply(ctrlT)).toBeUndefined();
    expect(filter.apply({ ...ctrlT, repeat: true })).toBeUndefined();
    // Ctrl released first: the T release comes without the modifier, and is still the shortcut's.
    expect(filter.apply(up({ ...control, modifiers: 0 }))).toEqual(up({ ...control, modifiers: 0 }));
    expect(filter.apply(up({ ...ctrlT, modifiers: 0 }))).toBeUndefined();
    // The next press of T types again.
    const t = down('KeyT');
    expect(filter.apply(t)).toEqual(t);
    expect(filter.apply(up(t))).toEqual(up(t));
  });

  it('passes the release of a key the page saw go down, even when a repeat of it became a shortcut', () => {
    const filter = new KeyFilter();
    const t = down('KeyT');
    expect(filter.apply(t)).toEqual(t);
    expect(filter.apply({ ...down('Ctrl+KeyT'), repeat: true })).toBeUndefined();
    expect(filter.apply(up(t))).toEqual(up(t));
  });

  it('types a character composed with Alt (⌥ on a Mac) without the Alt that would make it a shortcut', () => {
    const filter = new KeyFilter();
    const optionF = down('Alt+KeyF', 'ƒ');
    expect(filter.apply(optionF)).toEqual({ ...optionF, modifiers: 0 });
    expect(filter.apply(up(optionF))).toEqual({ ...up(optionF), modifiers: 0 });
    const optionTwo = down('Alt+Digit2', '™');
    expect(filter.apply(optionTwo)).toEqual({ ...optionTwo, modifiers: 0 });
    // Alt+F that types nothing (Linux, Windows) is the browser menu.
    expect(filter.apply(down('Alt+KeyF'))).toBeUndefined();
  });
});
