// Password strength and the account forms' rules. Validators return a message id (see validation-messages.ts)
// or null, so the rules stay testable without a translation catalogue.
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '@rooms/api/client';

export type TPasswordStrength = 'none' | 'weak' | 'medium' | 'strong';

/** Strong is 8+ with lower, upper and digit; medium is 6+ with two of them; anything else is weak. */
export function passwordStrength(password: string): TPasswordStrength {
  if (!password) return 'none';
  const lower = /[a-z]/.test(password);
  const upper = /[A-Z]/.test(password);
  const digit = /\d/.test(password);
  if (password.length >= 8 && lower && upper && digit) return 'strong';
  const kinds = Number(lower) + Number(upper) + Number(digit);
  if (password.length >= 6 && kinds >= 2) return 'medium';
  return 'weak';
}

/** The meter's fill: 33.33 %, 66.66 %, 100 %. */
export function strengthPercent(strength: TPasswordStrength): number {
  return { none: 0, weak: 33.33, medium: 66.66, strong: 100 }[strength];
}

/** The spec's pattern, and short enough to be kept: the server refuses a longer one with the same text. */
export function isValidEmail(email: string): boolean {
  const trimmed = email.trim();
  return trimmed.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(trimmed);
}

export type TValidationIssue =
  | 'login-required'
  | 'captcha-required'
  | 'register-required'
  | 'passwords-differ'
  | 'code-not-requested'
  | 'email-invalid'
  | 'terms-required'
  | 'email-required'
  | 'reset-required'
  | 'password-too-short'
  | 'code-first'
  | 'password-empty'
  | 'verification-invalid';

export function validateLogin(input: {
  email: string;
  password: string;
  captchaDone: boolean;
}): TValidationIssue | null {
  if (!input.email.trim() || !input.password) return 'login-required';
  if (!input.captchaDone) return 'captcha-required';
  return null;
}

export function validateRegister(input: {
  username: string;
  email: string;
  password: string;
  confirm: string;
  code: string;
  codeRequested: boolean;
  agreed: boolean;
  captchaDone: boolean;
}): TValidationIssue | null {
  if (
    !input.username.trim() ||
    !input.email.trim() ||
    !input.password ||
    !input.confirm ||
    !input.code.trim()
  ) {
    return 'register-required';
  }
  if (!isValidEmail(input.email)) return 'email-invalid';
  if (!input.password.trim()) return 'password-empty';
  if (input.password.length < MIN_PASSWORD_LENGTH) return 'password-too-short';
  if (input.password !== input.confirm) return 'passwords-differ';
  if (!input.codeRequested) return 'code-not-requested';
  if (!input.agreed) return 'terms-required';
  if (!input.captchaDone) return 'captcha-required';
  return null;
}

/** Before sending a code: an empty e-mail warns, then the captcha, then the pattern. */
export function validateSendCode(input: { email: string; captchaDone: boolean }): TValidationIssue | null {
  if (!input.email.trim()) return 'email-required';
  if (!input.captchaDone) return 'captcha-required';
  if (!isValidEmail(input.email)) return 'email-invalid';
  return null;
}

export function validateReset(input: {
  email: string;
  password: string;
  confirm: string;
  code: string;
  codeRequested: boolean;
  captchaDone: boolean;
}): TValidationIssue | null {
  if (!input.email.trim() || !input.password || !input.confirm || !input.code.trim()) return 'reset-required';
  if (input.password !== input.confirm) return 'passwords-differ';
  if (!input.password.trim()) return 'password-empty';
  if (input.password.length < MIN_PASSWORD_LENGTH) return 'password-too-short';
  if (!input.captchaDone) return 'captcha-required';
  if (!input.codeRequested) return 'code-first';
  return null;
}

/** Changing the password: not empty, the two entries match, then the captcha. */
export function validateChangePassword(input: {
  oldPassword: string;
  newPassword: string;
  confirm: string;
  captchaDone: boolean;
}): TValidationIssue | null {
  if (!input.oldPassword || !input.newPassword.trim() || !input.confirm) return 'password-empty';
  if (input.newPassword !== input.confirm) return 'passwords-differ';
  if (input.newPassword.length < MIN_PASSWORD_LENGTH) return 'password-too-short';
  if (!input.captchaDone) return 'verification-invalid';
  return null;
}
