// The browser session: token, username and avatar live in cookies for one day; a token whose expiry
// has passed counts as logged out; logout and a 401 clear the cookies.
import { COOKIE_LIFETIME_MS, COOKIES } from '@rooms/i18n';
import { documentCookies, type TCookieJar } from './cookies';

export interface TStoredSession {
  token: string;
  username: string;
  avatar: string;
}

/** What the client keeps of the user info besides username and avatar. */
export interface TStoredUserData {
  email: string;
  role: string;
}

export const DEFAULT_LEVEL = 1;

export function saveSession(
  session: TStoredSession & { level?: number },
  jar: TCookieJar = documentCookies,
  now = Date.now(),
) {
  const expires = new Date(now + COOKIE_LIFETIME_MS.session);
  jar.set(COOKIES.token, session.token, { expires });
  jar.set(COOKIES.tokenExpires, String(expires.getTime()), { expires });
  jar.set(COOKIES.username, session.username, { expires });
  jar.set(COOKIES.avatar, session.avatar, { expires });
  if (session.level !== undefined) jar.set(COOKIES.level, String(session.level), { expires });
}

/** Forgets the session cookies; `everything` also drops the level and user data (logout). */
export function clearSession(jar: TCookieJar = documentCookies, { everything = false } = {}) {
  jar.remove(COOKIES.token);
  jar.remove(COOKIES.tokenExpires);
  jar.remove(COOKIES.username);
  jar.remove(COOKIES.avatar);
  if (everything) {
    jar.remove(COOKIES.level);
    jar.remove(COOKIES.data);
  }
}

/** The token if it still counts; an expired one is cleared on the way (it counts as a logout). */
export function currentToken(jar: TCookieJar = documentCookies, now = Date.now()): string | null {
  const token = jar.get(COOKIES.token);
  if (!token) return null;
  const expires = Number(jar.get(COOKIES.tokenExpires));
  if (Number.isFinite(expires) && expires > 0 && expires <= now) {
    clearSession(jar, { everything: true });
    return null;
  }
  return token;
}

export function isLoggedIn(jar: TCookieJar = documentCookies, now = Date.now()): boolean {
  return currentToken(jar, now) !== null;
}

export function storedUser(jar: TCookieJar = documentCookies) {
  const level = Number(jar.get(COOKIES.level));
  let data: Partial<TStoredUserData> = {};
  try {
    data = JSON.parse(jar.get(COOKIES.data) ?? '{}') as Partial<TStoredUserData>;
  } catch {
    data = {};
  }
  return {
    username: jar.get(COOKIES.username) ?? '',
    avatar: jar.get(COOKIES.avatar) ?? '',
    level: Number.isInteger(level) && level > 0 ? level : DEFAULT_LEVEL,
    email: data.email ?? '',
    role: data.role ?? 'user',
  };
}

/** Keeps what userinfo returned: username and avatar in their cookies, the rest in the data cookie. */
export function saveUserInfo(
  info: { username: string; avatar: string; level: number; email: string; role: string },
  jar: TCookieJar = documentCookies,
  now = Date.now(),
) {
  const tokenExpires = Number(jar.get(COOKIES.tokenExpires));
  const expires = new Date(
    Number.isFinite(tokenExpires) && tokenExpires > now ? tokenExpires : now + COOKIE_LIFETIME_MS.session,
  );
  jar.set(COOKIES.username, info.username, { expires });
  jar.set(COOKIES.avatar, info.avatar, { expires });
  jar.set(COOKIES.level, String(info.level), { expires });
  jar.set(COOKIES.data, JSON.stringify({ email: info.email, role: info.role } satisfies TStoredUserData), {
    expires,
  });
}

export function isVip(level: number): boolean {
  return level > 1;
}

/**
 * Where to go after login: the redirect query when it is a path of this site, else the dashboard.
 * Refuses absolute and protocol-relative addresses so the parameter cannot send anyone elsewhere.
 */
export function safeRedirect(target: unknown): string {
  if (
    typeof target !== 'string' ||
    !target.startsWith('/') ||
    target.startsWith('//') ||
    target.startsWith('/\\')
  ) {
    return '/dashboard';
  }
  if (target.startsWith('/auth/login') || target.startsWith('/auth/register')) return '/dashboard';
  return target;
}
