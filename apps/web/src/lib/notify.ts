// Toasts: 3000 ms, captcha errors 5000 ms.
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { showToast } from '@rooms/ui/toaster';
import { describeError, issueText, type TDescribedError } from './messages';
import type { TValidationIssue } from './password';

export const CAPTCHA_TOAST_LIFE_MS = 5000;

export function toastSuccess(i18n: I18n, detail: string): void {
  showToast({ severity: 'success', summary: i18n._(msg`success`), detail });
}

/**
 * Shows a failed call's text. A reply from the server is prefixed with the screen's failure text ('Login failed:');
 * no reply at all (network, timeout) shows the screen's own text ('Error occurred during login') with the cause.
 */
export function toastError(
  i18n: I18n,
  error: unknown,
  texts: { prefix?: string; unreachable?: string } = {},
): TDescribedError {
  const described = describeError(i18n, error);
  let detail = described.text;
  if (described.appCode && texts.prefix && !described.captcha) detail = `${texts.prefix} ${described.text}`;
  if (!described.appCode && texts.unreachable) detail = `${texts.unreachable}: ${described.text}`;
  showToast({
    severity: 'error',
    summary: described.captcha ? i18n._(msg`Verification`) : i18n._(msg`Error`),
    detail,
    life: described.captcha ? CAPTCHA_TOAST_LIFE_MS : undefined,
  });
  return described;
}

export function toastIssue(i18n: I18n, issue: TValidationIssue): void {
  const captcha = issue === 'captcha-required' || issue === 'verification-invalid';
  showToast({
    severity: captcha ? 'error' : 'warn',
    summary: captcha ? i18n._(msg`Verification`) : i18n._(msg`Warning`),
    detail: issueText(i18n, issue),
    life: captcha ? CAPTCHA_TOAST_LIFE_MS : undefined,
  });
}
