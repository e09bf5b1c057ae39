import { describe, expect, it } from 'vitest';
import { PictureKeys } from './picture-keys';

const CODES: Record<string, string> = {
  Tab: 'Tab',
  Escape: 'Escape',
  Shift: 'ShiftLeft',
  Control: 'ControlLeft',
  a: 'KeyA',
};

function key(
  type: 'keydown' | 'keyup',
  name: string,
  held: { ctrl?: boolean; alt?: boolean; meta?: boolean } = {},
) {
  return {
    type,
    key: name,
    code: CODES[name] ?? '',
    altKey: held.alt ?? false,
    ctrlKey: held.ctrl ?? false,
    metaKey: held.meta ?? false,
  };
}

/** Presses and releases each key in turn; the routes of the keydowns. */
function press(keys: PictureKeys, ...names: string[]) {
  return names.map((name) => {
    const route = keys.route(key('keydown', name));
    keys.route(key('keyup', name));
    return route;
  });
}

describe('PictureKeys', () => {
  it('gives Tab, Escape and everything else to the page', () => {
    expect(press(new PictureKeys(), 'Tab', 'a', 'Escape', 'Tab', 'Tab')).toEqual([
      'page',
      'page',
      'page',
      'leave',
      'page',
    ]);
  });

  it('leaves on the Tab right after Escape, and only then', () => {
    const keys = new PictureKeys();
    expect(press(keys, 'Escape', 'a', 'Tab')).toEqual(['page', 'page', 'page']);
    expect(press(keys, 'Escape', 'Escape', 'Tab')).toEqual(['page', 'page', 'leave']);
  });

  it('leaves backwards with Escape then Shift+Tab, Shift being let go of in the page', () => {
    const keys = new PictureKeys();
    press(keys, 'Escape');
    expect(keys.route(key('keydown', 'Shift'))).toBe('page');
    expect(keys.route(key('keydown', 'Tab'))).toBe('leave');
    expect(keys.release()).toEqual([{ key: 'Shift', code: 'ShiftLeft' }]);
    expect(keys.release()).toEqual([]);
  });

  it('keeps Ctrl, Alt and ⌘ chords with Tab or Escape for the page', () => {
    const keys = new PictureKeys();
    keys.route(key('keydown', 'Escape', { ctrl: true }));
    expect(keys.route(key('keydown', 'Tab'))).toBe('page');
    press(keys, 'Escape');
    expect(keys.route(key('keydown', 'Tab', { alt: true }))).toBe('page');
    expect(keys.armed).toBe(false);
  });

  it('forgets the way out when the picture loses the focus or is pressed', () => {
    const keys = new PictureKeys();
    press(keys, 'Escape');
    expect(keys.armed).toBe(true);
    keys.release();
    expect(press(keys, 'Tab')).toEqual(['page']);
    press(keys, 'Escape');
    keys.disarm();
    expect(press(keys, 'Tab')).toEqual(['page']);
  });

  it('counts a key as held from its keydown to its keyup, auto-repeat included', () => {
    const keys = new PictureKeys();
    keys.route(key('keydown', 'a'));
    keys.route(key('keydown', 'a'));
    keys.route(key('keydown', 'Control'));
    keys.route(key('keyup', 'Control'));
    expect(keys.release()).toEqual([{ key: 'a', code: 'KeyA' }]);
  });
});
