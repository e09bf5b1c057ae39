// An administrator's one-time sign-in link (/admintologinuser/{token}) replaces this browser's session with
// the user's. The session it replaced is kept in this tab's sessionStorage so "Back to my account" can restore it.
import { COOKIE_LIFETIME_MS, COOKIES } from '@rooms/i18n';
import { documentCookies, type TCookieJar } from './cookies';
import { clearSession, currentToken, saveSession, storedUser, type TStoredSession } from './session';

const STORAGE_KEY = 'impersonation';

interface TSavedSession extends TStoredSession {
  level: number;
  role: string;
  /** When its cookies were first written, so restoring them keeps the expiry they had. */
  savedAt: number;
}

interface TImpersonationRecord {
  /** The session the link replaced; null when nobody was signed in. */
  previous: TSavedSession | null;
  /** The impersonated session's token: opening a second link from it keeps the original session to go back to. */
  impersonatedToken: string;
}

type TStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Where the session lives; tests hand in a jar and a storage in memory. */
interface TPlace {
  jar?: TCookieJar;
  storage?: TStorage;
  now?: number;
}

function read(storage: TStorage): TImpersonationRecord | null {
  try {
    const record = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as TImpersonationRecord | null;
    return record && typeof record.impersonatedToken === 'string' ? record : null;
  } catch {
    return null;
  }
}

/** Stores the session the link opened, remembering the one it replaces. */
export function startImpersonation(
  session: TStoredSession & { level: number },
  { jar = documentCookies, storage = sessionStorage, now = Date.now() }: TPlace = {},
) {
  const token = currentToken(jar, now);
  const earlier = read(storage);
  let previous: TSavedSession | null = null;
  if (token && earlier?.impersonatedToken === token) {
    previous = earlier.previous;
  } else if (token) {
    const user = storedUser(jar);
    const expires = Number(jar.get(COOKIES.tokenExpires));
    previous = {
      token,
      username: user.username,
      avatar: user.avatar,
      level: user.level,
      role: user.role,
      savedAt: Number.isFinite(expires) && expires > now ? expires - COOKIE_LIFETIME_MS.session : now,
    };
  }
  // The previous user's details (e-mail, role) must not show under the impersonated account.
  clearSession(jar, { everything: true });
  saveSession(session, jar, now);
  storage.setItem(
    STORAGE_KEY,
    JSON.stringify({ previous, impersonatedToken: session.token } satisfies TImpersonationRecord),
  );
}

/**
 * Ends the impersonation on the client: forgets the impersonated cookies and restores the session the link
 * replaced, if this tab kept one and it has not run out. Returns the restored account's role, else null.
 */
export function endImpersonation({
  jar = documentCookies,
  storage = sessionStorage,
  now = Date.now(),
}: TPlace = {}): { role: string } | null {
  const record = read(storage);
  storage.removeItem(STORAGE_KEY);
  clearSession(jar, { everything: true });
  const previous = record?.previous;
  if (!previous || previous.savedAt + COOKIE_LIFETIME_MS.session <= now) return null;
  saveSession(previous, jar, previous.savedAt);
  return { role: previous.role };
}
