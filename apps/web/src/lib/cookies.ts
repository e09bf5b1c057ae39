// Reading and writing document.cookie through a small jar, so session logic can be tested without a browser.
export interface TCookieOptions {
  expires?: Date;
  path?: string;
}

export interface TCookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, options?: TCookieOptions): void;
  remove(name: string): void;
}

export function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index === -1) continue;
    const name = part.slice(0, index).trim();
    if (!name || cookies.has(name)) continue;
    const raw = part.slice(index + 1).trim();
    try {
      cookies.set(name, decodeURIComponent(raw));
    } catch {
      cookies.set(name, raw);
    }
  }
  return cookies;
}

export function serializeCookie(name: string, value: string, options: TCookieOptions = {}): string {
  let cookie = `${name}=${encodeURIComponent(value)}; path=${options.path ?? '/'}; SameSite=Lax`;
  if (options.expires) cookie += `; expires=${options.expires.toUTCString()}`;
  if (typeof location !== 'undefined' && location.protocol === 'https:') cookie += '; Secure';
  return cookie;
}

/** The jar over document.cookie. */
export const documentCookies: TCookieJar = {
  get: (name) => parseCookies(document.cookie).get(name),
  set: (name, value, options) => {
    // biome-ignore lint/suspicious/noDocumentCookie: the session (token, username and avatar) lives in cookies.
    document.cookie = serializeCookie(name, value, options);
  },
  remove: (name) => {
    // biome-ignore lint/suspicious/noDocumentCookie: see above.
    document.cookie = serializeCookie(name, '', { expires: new Date(0) });
  },
};

/** A jar in memory, for tests and for code that runs before a document exists. */
export function memoryCookies(now: () => number = Date.now): TCookieJar & { dump(): Record<string, string> } {
  const store = new Map<string, { value: string; expires?: number }>();
  const alive = (name: string) => {
    const entry = store.get(name);
    if (!entry) return undefined;
    if (entry.expires !== undefined && entry.expires <= now()) {
      store.delete(name);
      return undefined;
    }
    return entry;
  };
  return {
    get: (name) => alive(name)?.value,
    set: (name, value, options) => {
      store.set(name, { value, expires: options?.expires?.getTime() });
    },
    remove: (name) => {
      store.delete(name);
    },
    dump: () =>
      Object.fromEntries(
        [...store.keys()].flatMap((name) => (alive(name) ? [[name, alive(name)!.value]] : [])),
      ),
  };
}
