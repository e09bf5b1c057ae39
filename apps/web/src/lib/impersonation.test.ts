import { COOKIES } from '@rooms/i18n';
import { describe, expect, it } from 'vitest';
import { memoryCookies } from './cookies';
import { endImpersonation, startImpersonation } from './impersonation';
import { currentToken, saveSession, saveUserInfo, storedUser } from './session';

const HOUR = 60 * 60 * 1000;

function setup() {
  let now = Date.UTC(2030, 0, 1);
  const jar = memoryCookies(() => now);
  const items = new Map<string, string>();
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
  return { jar, storage, now: () => now, advance: (ms: number) => (now += ms) };
}

const USER = { token: 'user-token', username: 'bob', avatar: '', level: 1 };

describe('signing in through an administrator’s link', () => {
  it('replaces the admin’s session and restores it, with its own expiry, on the way back', () => {
    const { jar, storage, now, advance } = setup();
    saveSession({ token: 'admin-token', username: 'alice', avatar: 'a.png', level: 2 }, jar, now());
    saveUserInfo(
      { username: 'alice', avatar: 'a.png', level: 2, email: 'a@x.test', role: 'admin' },
      jar,
      now(),
    );
    const adminExpiry = jar.get(COOKIES.tokenExpires);
    advance(HOUR);

    startImpersonation(USER, { jar, storage, now: now() });
    expect(currentToken(jar, now())).toBe('user-token');
    // The admin's e-mail and role do not linger under the user's name.
    expect(storedUser(jar)).toMatchObject({ username: 'bob', email: '', role: 'user' });

    advance(HOUR);
    expect(endImpersonation({ jar, storage, now: now() })).toEqual({ role: 'admin' });
    expect(currentToken(jar, now())).toBe('admin-token');
    expect(jar.get(COOKIES.tokenExpires)).toBe(adminExpiry);
    expect(storedUser(jar)).toMatchObject({ username: 'alice', avatar: 'a.png', level: 2 });
    // Only once.
    expect(endImpersonation({ jar, storage, now: now() })).toBeNull();
    expect(currentToken(jar, now())).toBeNull();
  });

  it('keeps the original session when a second link is opened while impersonating', () => {
    const { jar, storage, now } = setup();
    saveSession({ token: 'admin-token', username: 'alice', avatar: '' }, jar, now());
    startImpersonation(USER, { jar, storage, now: now() });
    startImpersonation({ ...USER, token: 'other-token', username: 'carol' }, { jar, storage, now: now() });
    expect(currentToken(jar, now())).toBe('other-token');
    expect(endImpersonation({ jar, storage, now: now() })).toEqual({ role: 'user' });
    expect(currentToken(jar, now())).toBe('admin-token');
  });

  it('has nothing to restore when nobody was signed in, or the old session has run out', () => {
    const { jar, storage, now, advance } = setup();
    startImpersonation(USER, { jar, storage, now: now() });
    expect(endImpersonation({ jar, storage, now: now() })).toBeNull();
    expect(currentToken(jar, now())).toBeNull();

    saveSession({ token: 'admin-token', username: 'alice', avatar: '' }, jar, now());
    startImpersonation(USER, { jar, storage, now: now() });
    advance(25 * HOUR);
    expect(endImpersonation({ jar, storage, now: now() })).toBeNull();
  });
});
