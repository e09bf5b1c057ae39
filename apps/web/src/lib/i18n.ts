// Picks the interface language (cookie, then the browser, then en-US), loads its catalogue and keeps the
// document's lang and title in step with it.
import { i18n } from '@lingui/core';
import {
  COOKIE_LIFETIME_MS,
  COOKIES,
  DEFAULT_LOCALE,
  isLocale,
  loadMessages,
  matchLocale,
  type TLocale,
} from '@rooms/i18n';
import { documentCookies, type TCookieJar } from './cookies';

export function preferredLocale(jar: TCookieJar = documentCookies, browserLanguage?: string): TLocale {
  const stored = jar.get(COOKIES.language);
  if (isLocale(stored)) return stored;
  return browserLanguage ? matchLocale(browserLanguage) : DEFAULT_LOCALE;
}

export async function activateLocale(locale: TLocale): Promise<void> {
  const [messages, fallback] = await Promise.all([
    loadMessages(locale),
    locale === DEFAULT_LOCALE ? null : loadMessages(DEFAULT_LOCALE),
  ]);
  if (fallback) i18n.load(DEFAULT_LOCALE, fallback);
  i18n.load(locale, messages);
  i18n.activate(locale);
  document.documentElement.lang = locale;
}

/** Spec §2: choosing a language stores it (one year, §9) and reloads the page. */
export function chooseLocale(
  locale: TLocale,
  jar: TCookieJar = documentCookies,
  reload = () => location.reload(),
) {
  jar.set(COOKIES.language, locale, { expires: new Date(Date.now() + COOKIE_LIFETIME_MS.language) });
  reload();
}
