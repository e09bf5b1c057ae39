// Picks the interface language (cookie, then the browser, then en-US), loads its catalogue and keeps the
// document's lang and title in step with it.
import { i18n, type Messages } from '@lingui/core';
import {
  COOKIE_LIFETIME_MS,
  COOKIES,
  DEFAULT_LOCALE,
  isLocale,
  loadMessages,
  matchLocale,
  type TLocale,
} from '@rooms/i18n';
import { messages as defaultMessages } from '@rooms/i18n/default-messages';
import { documentCookies, type TCookieJar } from './cookies';

export function preferredLocale(jar: TCookieJar = documentCookies, browserLanguage?: string): TLocale {
  const stored = jar.get(COOKIES.language);
  if (isLocale(stored)) return stored;
  return browserLanguage ? matchLocale(browserLanguage) : DEFAULT_LOCALE;
}

/** Tries of another language's catalogue: a request dropped on a phone's connection is asked again. */
const CATALOGUE_TRIES = 3;
const CATALOGUE_RETRY_MS = 400;

async function fetchCatalogue(locale: TLocale): Promise<Messages> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await loadMessages(locale);
    } catch (error) {
      if (attempt >= CATALOGUE_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, CATALOGUE_RETRY_MS * attempt));
    }
  }
}

/**
 * Nothing renders before this resolves, so it never fails: the en-US catalogue (the default language and the fallback)
 * comes with the app's own code rather than as a file of its own, and another language whose catalogue cannot be
 * fetched, even after asking again, leaves the page in English. Before, one dropped request left a blank page.
 */
export async function activateLocale(locale: TLocale): Promise<void> {
  i18n.load(DEFAULT_LOCALE, defaultMessages);
  let active: TLocale = locale;
  if (locale !== DEFAULT_LOCALE) {
    try {
      i18n.load(locale, await fetchCatalogue(locale));
    } catch (error) {
      console.error(`The ${locale} texts could not be fetched; showing ${DEFAULT_LOCALE}`, error);
      active = DEFAULT_LOCALE;
    }
  }
  i18n.activate(active);
  document.documentElement.lang = active;
}

/** Choosing a language stores it (for one year) and reloads the page. */
export function chooseLocale(
  locale: TLocale,
  jar: TCookieJar = documentCookies,
  reload = () => location.reload(),
) {
  jar.set(COOKIES.language, locale, { expires: new Date(Date.now() + COOKIE_LIFETIME_MS.language) });
  reload();
}
