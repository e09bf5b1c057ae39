import { COOKIES } from '@rooms/i18n';
import { describe, expect, it } from 'vitest';
import { memoryCookies, parseCookies, serializeCookie } from './cookies';
import {
  clearSession,
  currentToken,
  isLoggedIn,
  isVip,
  safeRedirect,
  saveSession,
  saveUserInfo,
  storedUser,
} from './session';

const DAY = 24 * 60 * 60 * 1000;

function jarAt(start = Date.UTC(2030, 0, 1)) {
  let now = start;
  const jar = memoryCookies(() => now);
  return { jar, advance: (ms: number) => (now += ms), now: () => now };
}

describe('cookie session', () => {
  it('keeps token, username and avatar for one day after login', () => {
    const { jar, advance, now } = jarAt();
    saveSession({ token: 't0k', username: 'alice', avatar: '' }, jar, now());
    expect(isLoggedIn(jar, now())).toBe(true);
    expect(storedUser(jar)).toMatchObject({ username: 'alice', level: 1 });
    advance(DAY - 1000);
    expect(currentToken(jar, now())).toBe('t0k');
    advance(2000);
    expect(isLoggedIn(jar, now())).toBe(false);
  });

  it('counts a token cookie with a past expiry as logged out and clears the session', () => {
    const { jar, now } = jarAt();
    jar.set(COOKIES.token, 'stale');
    jar.set(COOKIES.tokenExpires, String(now() - 1));
    jar.set(COOKIES.username, 'alice');
    jar.set(COOKIES.level, '3');
    expect(isLoggedIn(jar, now())).toBe(false);
    expect(jar.dump()).toEqual({});
  });

  it('is logged out without a token cookie', () => {
    const { jar, now } = jarAt();
    jar.set(COOKIES.username, 'alice');
    expect(isLoggedIn(jar, now())).toBe(false);
  });

  it('a 401 clears token, username and avatar; logout clears level and data too', () => {
    const { jar, now } = jarAt();
    saveSession({ token: 't', username: 'alice', avatar: 'a.png', level: 2 }, jar, now());
    saveUserInfo({ username: 'alice', avatar: 'a.png', level: 2, email: 'a@b.c', role: 'user' }, jar, now());
    clearSession(jar);
    expect(Object.keys(jar.dump()).sort()).toEqual([COOKIES.data, COOKIES.level].sort());
    clearSession(jar, { everything: true });
    expect(jar.dump()).toEqual({});
  });

  it('stores the rest of the user info in the data cookie, expiring with the session', () => {
    const { jar, advance, now } = jarAt();
    saveSession({ token: 't', username: 'alice', avatar: '' }, jar, now());
    advance(DAY / 2);
    saveUserInfo({ username: 'alice2', avatar: '', level: 2, email: 'a@b.c', role: 'admin' }, jar, now());
    expect(storedUser(jar)).toEqual({
      username: 'alice2',
      avatar: '',
      level: 2,
      email: 'a@b.c',
      role: 'admin',
    });
    advance(DAY / 2 + 1);
    expect(storedUser(jar).username).toBe('');
  });

  it('shows VIP above level 1 only', () => {
    expect([isVip(1), isVip(2), isVip(10)]).toEqual([false, true, true]);
  });
});

describe('redirect after login', () => {
  it.each([
    ['/profile?tab=1#x', '/profile?tab=1#x'],
    ['/room/42', '/room/42'],
    [undefined, '/dashboard'],
    ['https://evil.example/', '/dashboard'],
    ['//evil.example/', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['/auth/login?redirect=/x', '/dashboard'],
  ])('%j → %j', (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
  });
});

describe('cookie strings', () => {
  it('parses and decodes a cookie header, first value wins', () => {
    const cookies = parseCookies('token=abc; username=al%20ice; token=shadowed; broken');
    expect(cookies.get('token')).toBe('abc');
    expect(cookies.get('username')).toBe('al ice');
    expect(cookies.has('broken')).toBe(false);
  });

  it('serialises with path, SameSite and the expiry', () => {
    const text = serializeCookie('language', 'zh-CN', { expires: new Date(Date.UTC(2031, 0, 1)) });
    expect(text).toBe('language=zh-CN; path=/; SameSite=Lax; expires=Wed, 01 Jan 2031 00:00:00 GMT');
  });
});
