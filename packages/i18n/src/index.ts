// Languages the interface speaks, the cookie names the client keeps its session in, and the catalog loader.
import type { Messages } from '@lingui/core';

export const LOCALES = [
  { code: 'en-US', name: 'English' },
  { code: 'zh-CN', name: '简体中文' },
] as const;

export type TLocale = (typeof LOCALES)[number]['code'];

export const DEFAULT_LOCALE: TLocale = 'en-US';

/** Cookie names of the browser session. */
export const COOKIES = {
  token: 'token',
  /** When the token cookie stops counting, in epoch milliseconds: an expired token means logged out. */
  tokenExpires: 'token_expires',
  username: 'username',
  avatar: 'avatar',
  level: 'level',
  /** The rest of the user info, as userinfo returned it. */
  data: 'data',
  language: 'language',
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Cookie lifetimes: the session's one day, the chosen language's one year. */
export const COOKIE_LIFETIME_MS = {
  session: DAY_MS,
  language: 365 * DAY_MS,
} as const;

export function isLocale(value: unknown): value is TLocale {
  return LOCALES.some((locale) => locale.code === value);
}

/** The supported locale closest to a browser language tag ('zh', 'zh-Hans-CN' → zh-CN), else the default. */
export function matchLocale(tag: string | null | undefined): TLocale {
  if (!tag) return DEFAULT_LOCALE;
  if (isLocale(tag)) return tag;
  const lower = tag.toLowerCase();
  if (lower.startsWith('zh')) return 'zh-CN';
  return DEFAULT_LOCALE;
}

const loaders: Record<TLocale, () => Promise<{ messages: Messages }>> = {
  'en-US': () => import('./locales/en-US/messages'),
  'zh-CN': () => import('./locales/zh-CN/messages'),
};

export async function loadMessages(locale: TLocale): Promise<Messages> {
  return (await loaders[locale]()).messages;
}
