// Dates as month/day/year (spec §9) and the relative times 'Just now' / '{0} days ago'.
import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';

const pad = (value: number) => String(value).padStart(2, '0');

export function formatDate(value: Date | string | number): string {
  const date = new Date(value);
  return `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${date.getFullYear()}`;
}

export function formatDateTime(value: Date | string | number): string {
  const date = new Date(value);
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function relativeTime(i18n: I18n, value: Date | string | number, now = Date.now()): string {
  const elapsed = now - new Date(value).getTime();
  if (elapsed < MINUTE) return i18n._(msg`Just now`);
  if (elapsed < HOUR) {
    const minutes = Math.floor(elapsed / MINUTE);
    return i18n._(msg`${plural(minutes, { one: '# minute ago', other: '# minutes ago' })}`);
  }
  if (elapsed < DAY) {
    const hours = Math.floor(elapsed / HOUR);
    return i18n._(msg`${plural(hours, { one: '# hour ago', other: '# hours ago' })}`);
  }
  const days = Math.floor(elapsed / DAY);
  if (days <= 30) return i18n._(msg`${plural(days, { one: '# day ago', other: '# days ago' })}`);
  return formatDate(value);
}
