import { POINTER_FADE_MS } from '@rooms/api/room-protocol';
import { describe, expect, it } from 'vitest';
import { GHOST_FADE_OUT_MS, PointingBoard, REACTION_FLOAT_MS } from './pointing-board';

const move = (memberId: string, x: number, y: number) =>
  ({ type: 'pointer/shown', memberId, nickname: memberId.toUpperCase(), x, y }) as const;

describe('the pointing board', () => {
  it('keeps one ghost per member where they last pointed, fading out 3 s after their last move', () => {
    const board = new PointingBoard();
    board.show(move('ada', 0.1, 0.2), 0);
    board.show(move('ada', 0.3, 0.4), 1000);
    board.show(move('bob', 0.5, 0.5), 1000);
    expect(board.ghosts(1500)).toEqual([
      { memberId: 'ada', nickname: 'ADA', x: 0.3, y: 0.4, at: 1000, opacity: 1 },
      { memberId: 'bob', nickname: 'BOB', x: 0.5, y: 0.5, at: 1000, opacity: 1 },
    ]);
    const fading = board.ghosts(1000 + POINTER_FADE_MS - GHOST_FADE_OUT_MS / 2);
    expect(fading.map((ghost) => ghost.opacity)).toEqual([0.5, 0.5]);
    expect(board.ghosts(1000 + POINTER_FADE_MS)).toEqual([]);
    expect(board.empty).toBe(true);
  });

  it('drops the ghost of someone who left', () => {
    const board = new PointingBoard();
    board.show(move('ada', 0.1, 0.2), 0);
    board.show(move('bob', 0.1, 0.2), 0);
    board.keepOnly(new Set(['bob']));
    expect(board.ghosts(10).map((ghost) => ghost.memberId)).toEqual(['bob']);
  });

  it('floats each reaction for a moment, in a lane clear of the edges, at most 24 at once', () => {
    const board = new PointingBoard(() => 1);
    board.show({ type: 'reaction/shown', memberId: 'ada', nickname: 'Ada', emoji: '🎉' }, 0);
    board.react('👍', 'Me', 100);
    expect(board.reactions(200)).toMatchObject([
      { emoji: '🎉', nickname: 'Ada', lane: 0.85 },
      { emoji: '👍', nickname: 'Me' },
    ]);
    expect(board.reactions(REACTION_FLOAT_MS + 50).map((reaction) => reaction.emoji)).toEqual(['👍']);
    for (let i = 0; i < 30; i++) board.react('😂', 'Me', 1000);
    expect(board.reactions(1000)).toHaveLength(24);
  });

  it("holds this page's own reactions to the room's limit of 5 in 5 s, so none floats here that the others miss", () => {
    const board = new PointingBoard();
    expect([0, 1, 2, 3, 4, 5].map((at) => board.mayReact(at))).toEqual([true, true, true, true, true, false]);
    expect(board.mayReact(4999)).toBe(false);
    expect(board.mayReact(5000)).toBe(true);
  });
});
