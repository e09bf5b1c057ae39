import { describe, expect, it } from 'vitest';
import { ZClientMessage, ZServerMessage } from './messages';

function firstError(message: unknown): string | undefined {
  const parsed = ZClientMessage.safeParse(message);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

describe('client messages', () => {
  it("require a nickname of 1 to 24 characters: 'Please enter your nickname'", () => {
    expect(firstError({ type: 'member/join', nickname: '   ' })).toBe('Please enter your nickname');
    expect(firstError({ type: 'member/join' })).toBe('Please enter your nickname');
    expect(firstError({ type: 'member/join', nickname: 'x'.repeat(25) })).toMatch(/at most 24/);
    expect(ZClientMessage.parse({ type: 'member/join', nickname: '  Ada ' })).toEqual({
      type: 'member/join',
      nickname: 'Ada',
      decoders: ['jpeg'],
      layer: 'auto',
      acks: false,
    });
  });

  it('drop invisible and bidi characters from nicknames and chat, keeping chat line breaks', () => {
    const join = ZClientMessage.parse({ type: 'member/join', nickname: '\u202EO\u200Blga\u2066\uFEFF ' });
    expect(join).toMatchObject({ nickname: 'Olga' });
    expect(firstError({ type: 'member/join', nickname: '\u200B\u200D' })).toBe('Please enter your nickname');
    expect(ZClientMessage.parse({ type: 'chat/send', text: 'a\u202Eb\r\nc\td\u0007 ❤️' })).toMatchObject({
      text: 'ab\nc d ❤️',
    });
    expect(firstError({ type: 'chat/send', text: '\u2060\u00AD' })).toBe('Please enter a message');
  });

  it('limit chat messages to 500 characters', () => {
    expect(firstError({ type: 'chat/send', text: 'x'.repeat(501) })).toMatch(/at most 500/);
    expect(firstError({ type: 'chat/send', text: '' })).toBe('Please enter a message');
    expect(firstError({ type: 'chat/send', text: 'x'.repeat(500) })).toBeUndefined();
  });

  it('include the input events with their defaults filled in', () => {
    expect(ZClientMessage.parse({ type: 'input/pointer', action: 'move', x: 0.1, y: 0.2 })).toEqual({
      type: 'input/pointer',
      action: 'move',
      x: 0.1,
      y: 0.2,
      button: 'none',
      buttons: 0,
      clickCount: 0,
      modifiers: 0,
    });
  });

  it('refuse unknown types and server-only messages', () => {
    expect(ZClientMessage.safeParse({ type: 'control/state', controllerId: null, queue: [] }).success).toBe(
      false,
    );
    expect(ZClientMessage.safeParse({ type: 'nope' }).success).toBe(false);
    expect(ZClientMessage.safeParse('member/join').success).toBe(false);
  });
});

describe('server messages', () => {
  it('parse on the client as the server sends them', () => {
    expect(
      ZServerMessage.parse({ type: 'control/state', controllerId: 'a', queue: ['b', 'c'] }),
    ).toBeTruthy();
    expect(
      ZServerMessage.parse({ type: 'system/error', code: 'ROOM_FULL', message: 'This room is full' }),
    ).toBeTruthy();
  });
});
