import { describe, expect, it } from 'vitest';
import { ZClientMessage, ZServerMessage } from './messages';

describe('pointing and reactions', () => {
  it('take a point of the picture (0..1) and nothing outside it', () => {
    expect(ZClientMessage.parse({ type: 'pointer/move', x: 0.25, y: 1 })).toEqual({
      type: 'pointer/move',
      x: 0.25,
      y: 1,
    });
    expect(ZClientMessage.safeParse({ type: 'pointer/move', x: 1.5, y: 0 }).success).toBe(false);
    expect(ZClientMessage.safeParse({ type: 'pointer/move', x: -0.1, y: 0 }).success).toBe(false);
    expect(ZClientMessage.safeParse({ type: 'pointer/move', x: Number.NaN, y: 0 }).success).toBe(false);
  });

  it('take only the fixed set of emoji', () => {
    expect(ZClientMessage.parse({ type: 'reaction/send', emoji: '🎉' })).toEqual({
      type: 'reaction/send',
      emoji: '🎉',
    });
    expect(ZClientMessage.safeParse({ type: 'reaction/send', emoji: '💩' }).success).toBe(false);
    expect(ZClientMessage.safeParse({ type: 'reaction/send', emoji: '<b>hi</b>' }).success).toBe(false);
  });

  it('are shown to clients with who sent them, and never accepted from them', () => {
    const shown = { type: 'pointer/shown', memberId: 'm1', nickname: 'Ada', x: 0.5, y: 0.5 };
    expect(ZServerMessage.parse(shown)).toEqual(shown);
    expect(ZClientMessage.safeParse(shown).success).toBe(false);
    const reaction = { type: 'reaction/shown', memberId: 'm1', nickname: 'Ada', emoji: '👍' };
    expect(ZServerMessage.parse(reaction)).toEqual(reaction);
    expect(ZClientMessage.safeParse(reaction).success).toBe(false);
  });
});
