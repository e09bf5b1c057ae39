import { describe, expect, it } from 'vitest';
import type { TSessionUser } from './session';
import { SessionCache } from './session-cache';

function session(sessionId: string, userId: string, impersonatorId?: string): TSessionUser {
  return {
    sessionId,
    user: {
      id: userId,
      username: userId,
      email: `${userId}@example.test`,
      avatar: '',
      level: 1,
      role: 'user',
      lastLoginIp: null,
      lastLoginAt: null,
      previousLoginIp: null,
      previousLoginAt: null,
      createdAt: new Date(0),
    },
    expiresAt: new Date(Date.now() + 60_000),
    impersonator: impersonatorId ? { id: impersonatorId, email: 'a@example.test', username: 'a' } : null,
  };
}

describe('SessionCache', () => {
  it('serves a session for its lifetime, then reads again', () => {
    let now = 0;
    const cache = new SessionCache(1000, 10, () => now);
    cache.remember('h1', session('s1', 'u1'), cache.generation());
    now = 999;
    expect(cache.get('h1')?.sessionId).toBe('s1');
    now = 1000;
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('forgets one session, all of a user but one, and an account that changed', () => {
    const cache = new SessionCache();
    cache.remember('h1', session('s1', 'u1'), cache.generation());
    cache.remember('h2', session('s2', 'u1'), cache.generation());
    cache.remember('h3', session('s3', 'u2'), cache.generation());
    cache.remember('h4', session('s4', 'u3', 'u2'), cache.generation());

    cache.forget({ userId: 'u1', exceptSessionId: 's2' });
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')?.sessionId).toBe('s2');

    cache.forget({ sessionId: 's2' });
    expect(cache.get('h2')).toBeUndefined();

    // The administrator u2 changed: their own session and the one they opened as u3 both go.
    cache.forget({ accountChanged: 'u2' });
    expect(cache.get('h3')).toBeUndefined();
    expect(cache.get('h4')).toBeUndefined();
  });

  it('forgets everything when news may have been missed', () => {
    const cache = new SessionCache();
    cache.remember('h1', session('s1', 'u1'), cache.generation());
    cache.remember('h2', session('s2', 'u2'), cache.generation());
    cache.forget({ missed: true });
    expect(cache.size).toBe(0);
  });

  it('does not store a read that began before a change', () => {
    const cache = new SessionCache();
    const before = cache.generation();
    cache.forget({ accountChanged: 'u1' });
    cache.remember('h1', session('s1', 'u1'), before);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('stays within its size, dropping the oldest', () => {
    const cache = new SessionCache(60_000, 2);
    cache.remember('h1', session('s1', 'u1'), cache.generation());
    cache.remember('h2', session('s2', 'u2'), cache.generation());
    cache.remember('h3', session('s3', 'u3'), cache.generation());
    expect(cache.size).toBe(2);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h3')?.sessionId).toBe('s3');
  });
});
