// Dates as month/day/year, the relative times 'Just now' / '{0} days ago', and durations in the spec's
// units ('1 hour', '1 month').
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

/** A duration in whole minutes as people say it: '5 minutes', '1 hour', '24 hours' (whole hours read as hours). */
export function formatMinutes(i18n: I18n, minutes: number): string {
  if (minutes < 60 || minutes % 60 !== 0) {
    return i18n._(msg`${plural(minutes, { one: '# minute', other: '# minutes' })}`);
  }
  const hours = minutes / 60;
  return i18n._(msg`${plural(hours, { one: '# hour', other: '# hours' })}`);
}

/**
 * A plan's term in days as people say it: whole years ('1 year' for 365 days), whole months ('3 months' for 90: a
 * plan's month is 30 days), or days.
 */
export function formatDays(i18n: I18n, days: number): string {
  if (days > 0 && days % 365 === 0) {
    const years = days / 365;
    return i18n._(msg`${plural(years, { one: '# year', other: '# years' })}`);
  }
  if (days > 0 && days % 30 === 0) {
    const months = days / 30;
    return i18n._(msg`${plural(months, { one: '# month', other: '# months' })}`);
  }
  return i18n._(msg`${plural(days, { one: '# day', other: '# days' })}`);
}
