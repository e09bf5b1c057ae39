// Who may enter a room that is not theirs, and the budget of wrong share passwords (checkShareAccess, which the
// API and POST /ws/ticket both use), against the server's own rate limiter.
import { checkShareAccess, ROOM_PASSWORD_LIMITS, type TAppErrorCode } from '@rooms/api';
import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../services/rate-limit/memory-rate-limiter';

const room = { id: 'r', ownerId: 'owner', password: null as string | null, isPublic: false };
const guest = { ip: '10.0.0.1', userId: null };

async function refusal(promise: Promise<unknown>): Promise<TAppErrorCode | 'ok'> {
  return promise.then(
    () => 'ok' as const,
    (error: { appCode: TAppErrorCode }) => error.appCode,
  );
}

describe('who may enter a room', () => {
  it('lets the owner in always, anyone into a public room', async () => {
    const limiter = createMemoryRateLimiter();
    expect(await checkShareAccess(limiter, { ip: '1', userId: 'owner' }, room, undefined)).toBe('owner');
    expect(await checkShareAccess(limiter, guest, { ...room, isPublic: true }, undefined)).toBe('public');
  });

  it('hides a private room without a password from everyone else', async () => {
    const limiter = createMemoryRateLimiter();
    expect(await refusal(checkShareAccess(limiter, { ip: '1', userId: 'x' }, room, undefined))).toBe(
      'ROOM_NOT_FOUND',
    );
    expect(await refusal(checkShareAccess(limiter, guest, room, 'guess'))).toBe('ROOM_NOT_FOUND');
  });

  it('asks for the share password, exactly', async () => {
    const limiter = createMemoryRateLimiter();
    const shared = { ...room, password: 'sesame' };
    expect(await checkShareAccess(limiter, guest, shared, 'sesame')).toBe('password');
    expect(await refusal(checkShareAccess(limiter, guest, shared, undefined))).toBe('ROOM_PASSWORD_REQUIRED');
    expect(await refusal(checkShareAccess(limiter, guest, shared, 'Sesame'))).toBe('ROOM_PASSWORD_INCORRECT');
  });

  it('asks an address that spent its free wrong passwords for the captcha, and lets the right one in with it', async () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    const shared = { ...room, password: 'sesame' };
    const { limit, windowSeconds } = ROOM_PASSWORD_LIMITS.perRoom;
    const answers: string[] = [];
    for (let i = 0; i < limit; i++)
      answers.push(await refusal(checkShareAccess(limiter, guest, shared, `guess-${i}`)));
    expect(answers.slice(-3)).toEqual([
      'ROOM_PASSWORD_TRIES_LEFT',
      'ROOM_PASSWORD_TRIES_LEFT',
      'ROOM_PASSWORD_INCORRECT_VERIFY',
    ]);
    expect(await refusal(checkShareAccess(limiter, guest, shared, 'sesame'))).toBe(
      'ROOM_PASSWORD_VERIFY_REQUIRED',
    );
    const solved = { captcha: async () => {} };
    expect(await checkShareAccess(limiter, guest, shared, 'sesame', solved)).toBe('password');
    // Another address is not held back by this one, nor is this one once the window ends.
    expect(await refusal(checkShareAccess(limiter, { ...guest, ip: '10.0.0.2' }, shared, 'x'))).toBe(
      'ROOM_PASSWORD_INCORRECT',
    );
    now += windowSeconds * 1000;
    expect(await refusal(checkShareAccess(limiter, guest, shared, 'x'))).toBe('ROOM_PASSWORD_INCORRECT');
  });
});

describe('many addresses guessing at one room', () => {
  it('count per network as well, and never lock out a guest of another network', async () => {
    const limiter = createMemoryRateLimiter();
    const shared = { ...room, password: 'sesame' };
    const { limit, groupLimit } = ROOM_PASSWORD_LIMITS.perRoom;
    // Addresses of one /24 share its budget: rotating them buys no more free guesses.
    let free = 0;
    for (let a = 0; a < groupLimit; a++) {
      for (let i = 0; i < limit; i++) {
        const answer = await refusal(
          checkShareAccess(limiter, { ip: `10.1.0.${a}`, userId: null }, shared, `g-${i}`),
        );
        if (answer !== 'ROOM_PASSWORD_VERIFY_REQUIRED') free += 1;
      }
    }
    expect(free).toBe(groupLimit);
    const guest = { ip: '10.2.0.1', userId: null };
    expect(await refusal(checkShareAccess(limiter, guest, shared, 'sesame!'))).toBe(
      'ROOM_PASSWORD_INCORRECT',
    );
    expect(await checkShareAccess(limiter, guest, shared, 'sesame')).toBe('password');
  });
});

describe('guesses sent all at once', () => {
  it('are counted one by one: a burst gets no more free tries than the budget, and a right password costs none', async () => {
    const limiter = createMemoryRateLimiter();
    const shared = { ...room, password: 'hashed' };
    // A hasher as slow as argon2 is next to a counter: every guess is in flight before the first is answered.
    const hasher = {
      hash: async (password: string) => password,
      verify: (hash: string | null, password: string) =>
        new Promise<boolean>((resolve) => setTimeout(() => resolve(hash === password), 20)),
    };
    const { limit } = ROOM_PASSWORD_LIMITS.perRoom;
    expect(await checkShareAccess(limiter, guest, shared, 'hashed', { hasher })).toBe('password');
    const answers = await Promise.all(
      Array.from({ length: 4 * limit }, (_, i) =>
        refusal(checkShareAccess(limiter, { ...guest, ip: '10.9.0.1' }, shared, `guess-${i}`, { hasher })),
      ),
    );
    expect(answers.filter((answer) => answer === 'ROOM_PASSWORD_VERIFY_REQUIRED')).toHaveLength(3 * limit);
  });
});
