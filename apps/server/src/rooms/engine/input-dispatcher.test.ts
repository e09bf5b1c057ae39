import { ZRoomInput } from '@rooms/api/room-protocol';
import { describe, expect, it } from 'vitest';
import { cdpCommandFor, windowsKeyCode } from './input-dispatcher';

const viewport = { width: 1280, height: 720 };
const command = (input: unknown) => cdpCommandFor(ZRoomInput.parse(input), viewport);

describe('cdpCommandFor', () => {
  it('maps normalised pointer coordinates onto viewport pixels, edges included', () => {
    expect(
      command({
        type: 'input/pointer',
        action: 'down',
        x: 0.5,
        y: 0.25,
        button: 'left',
        buttons: 1,
        clickCount: 1,
      }),
    ).toEqual({
      method: 'Input.dispatchMouseEvent',
      params: {
        type: 'mousePressed',
        x: 640,
        y: 180,
        button: 'left',
        buttons: 1,
        clickCount: 1,
        modifiers: 0,
      },
    });
    const edge = command({ type: 'input/pointer', action: 'move', x: 1, y: 1 });
    expect(edge.params).toMatchObject({ type: 'mouseMoved', x: 1279, y: 719, button: 'none' });
  });

  it('sends the wheel as a mouseWheel event at the pointer', () => {
    expect(command({ type: 'input/wheel', x: 0, y: 0, deltaX: 0, deltaY: 120, modifiers: 2 }).params).toEqual(
      {
        type: 'mouseWheel',
        x: 0,
        y: 0,
        deltaX: 0,
        deltaY: 120,
        modifiers: 2,
      },
    );
  });

  it('types printable keys, and sends shortcuts and named keys without text', () => {
    expect(command({ type: 'input/key', action: 'down', key: 'a', code: 'KeyA' }).params).toMatchObject({
      type: 'keyDown',
      text: 'a',
      windowsVirtualKeyCode: 65,
    });
    const ctrlA = command({ type: 'input/key', action: 'down', key: 'a', code: 'KeyA', modifiers: 2 });
    expect(ctrlA.params).toMatchObject({ type: 'rawKeyDown', modifiers: 2, windowsVirtualKeyCode: 65 });
    expect(ctrlA.params.text).toBeUndefined();
    expect(command({ type: 'input/key', action: 'down', key: 'Enter', code: 'Enter' }).params).toMatchObject({
      type: 'keyDown',
      text: '\r',
      windowsVirtualKeyCode: 13,
    });
    expect(
      command({ type: 'input/key', action: 'down', key: 'ArrowLeft', code: 'ArrowLeft' }).params,
    ).toMatchObject({
      type: 'rawKeyDown',
      windowsVirtualKeyCode: 37,
      location: 0,
    });
    expect(command({ type: 'input/key', action: 'up', key: 'a', code: 'KeyA' }).params).toMatchObject({
      type: 'keyUp',
    });
  });

  it('finds key codes from the code first, then the key', () => {
    expect(windowsKeyCode('q', 'KeyA')).toBe(65); // AZERTY: the physical key decides
    expect(windowsKeyCode('7', 'Digit7')).toBe(55);
    expect(windowsKeyCode('F5', 'F5')).toBe(116);
    expect(windowsKeyCode('Backspace', '')).toBe(8);
    expect(windowsKeyCode('é', '')).toBeUndefined();
  });

  it('inserts pasted text and sets IME compositions', () => {
    expect(command({ type: 'input/text', text: '你好' })).toEqual({
      method: 'Input.insertText',
      params: { text: '你好' },
    });
    expect(command({ type: 'input/composition', text: 'ni', selectionStart: 2, selectionEnd: 2 })).toEqual({
      method: 'Input.imeSetComposition',
      params: { text: 'ni', selectionStart: 2, selectionEnd: 2 },
    });
  });
});
