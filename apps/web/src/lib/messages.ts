// Every text the server or the form rules may show, translated on the client. The server sends the English text
// of its error catalogue (spec §8); this table is how those texts reach the Lingui catalogues.
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { TRPCClientError } from '@trpc/client';
import { RestError } from './http';
import type { TValidationIssue } from './password';

const serverTexts: Record<string, MessageDescriptor> = {
  'Request error': msg`Request error`,
  'Not found': msg`Not found`,
  'Unknown error': msg`Unknown error`,
  'Not logged in': msg`Not logged in`,
  'Access denied': msg`Access denied`,
  'Incorrect account': msg`Incorrect account`,
  'Incorrect email or password': msg`Incorrect email or password`,
  'Incorrect password': msg`Incorrect password`,
  'This account has been disabled': msg`This account has been disabled`,
  'Email registered': msg`Email registered`,
  'The email address already exists': msg`The email address already exists`,
  'The email format is incorrect': msg`The email format is incorrect`,
  'Verification code has been used': msg`Verification code has been used`,
  'The verification code is incorrect': msg`The verification code is incorrect`,
  'Please get the verification code first': msg`Please get the verification code first`,
  'The verification code has expired, please get a new one': msg`The verification code has expired, please get a new one`,
  'Too many wrong codes, please get a new verification code': msg`Too many wrong codes, please get a new verification code`,
  'Sending failed': msg`Sending failed`,
  'Email not exist': msg`The email address does not exist`,
  'Email is incorrect': msg`Incorrect email address`,
  'Code is incorrect': msg`The verification code is incorrect`,
  'Password length cannot be less than 6 digits': msg`Password length cannot be less than 6 digits`,
  'Please complete the verification': msg`Please complete the verification`,
  'verification failed': msg`verification failed`,
  'pass_token used': msg`pass_token used`,
  'The verification service is unavailable, please try again later': msg`The verification service is unavailable, please try again later`,
  'The self-hosted captcha is not enabled on this server': msg`The self-hosted captcha is not enabled on this server`,
  'Please fill in your email and password': msg`Please fill in your email and password`,
  'Please fill in the complete registration information': msg`Please fill in the complete registration information`,
  'The username cannot be longer than 32 characters': msg`The username cannot be longer than 32 characters`,
  'The username contains characters that are not allowed': msg`The username contains characters that are not allowed`,
  'Please fill in the email, verification code and new password': msg`Please fill in the email, verification code and new password`,
  'Please enter a valid email address': msg`Please enter a valid email address`,
  'The password cannot be empty': msg`The password cannot be empty`,
  'Please enter a password': msg`Please enter a password`,
  'The password cannot be longer than 128 characters': msg`The password cannot be longer than 128 characters`,
  'Please enter the verification code': msg`Please enter the verification code`,
  'Request failed': msg`Request failed`,
};

const numberedTexts: [RegExp, (n: string) => MessageDescriptor][] = [
  [
    /^Please wait (\d+) seconds before requesting another code$/,
    (seconds) => msg`Please wait ${seconds} seconds before requesting another code`,
  ],
  [
    /^Too many attempts, please try again in (\d+) seconds$/,
    (seconds) => msg`Too many attempts, please try again in ${seconds} seconds`,
  ],
];

/** The translation of a text the server sent; unknown texts pass through unchanged. */
export function translateServerText(i18n: I18n, text: string): string {
  const known = serverTexts[text];
  if (known) return i18n._(known);
  for (const [pattern, descriptor] of numberedTexts) {
    const match = pattern.exec(text);
    if (match?.[1]) return i18n._(descriptor(match[1]));
  }
  return text;
}

const CAPTCHA_CODES = new Set([
  'CAPTCHA_REQUIRED',
  'CAPTCHA_FAILED',
  'PASS_TOKEN_USED',
  'CAPTCHA_UNAVAILABLE',
]);

export interface TDescribedError {
  text: string;
  appCode: string | undefined;
  /** Captcha failures toast for 5000 ms instead of 3000 (spec §9) and need a fresh captcha. */
  captcha: boolean;
}

export function describeError(i18n: I18n, error: unknown): TDescribedError {
  if (error instanceof TRPCClientError) {
    const data = error.data as { appCode?: string } | undefined | null;
    const appCode = data?.appCode;
    if (!appCode) {
      // No reply from the server at all: a network failure or the 30 s timeout.
      const detail = error.message || i18n._(msg`Unknown error`);
      return {
        text: `${i18n._(msg`Network request failed:`)} ${detail}`,
        appCode: undefined,
        captcha: false,
      };
    }
    return {
      text: translateServerText(i18n, error.message),
      appCode,
      captcha: CAPTCHA_CODES.has(appCode) || error.message === 'pass_token used',
    };
  }
  if (error instanceof RestError) {
    return {
      text: translateServerText(i18n, error.message),
      appCode: undefined,
      captcha: error.message === 'pass_token used',
    };
  }
  if (error instanceof Error && error.message) {
    return { text: translateServerText(i18n, error.message), appCode: undefined, captcha: false };
  }
  return { text: i18n._(msg`Unknown error`), appCode: undefined, captcha: false };
}

const issueTexts: Record<TValidationIssue, MessageDescriptor> = {
  'login-required': msg`Please fill in your email and password`,
  'captcha-required': msg`Please complete the verification`,
  'register-required': msg`Please fill in the complete registration information`,
  'passwords-differ': msg`The two passwords do not match`,
  'code-not-requested': msg`Please get the verification code first`,
  'email-invalid': msg`Please enter a valid email address`,
  'terms-required': msg`Please read and agree to the terms of service`,
  'email-required': msg`Please enter your email address`,
  'reset-required': msg`Please fill in the email, verification code and new password`,
  'password-too-short': msg`Password length cannot be less than 6 digits`,
  'code-first': msg`Please get the verification code first`,
  'password-empty': msg`The password cannot be empty`,
};

export function issueText(i18n: I18n, issue: TValidationIssue): string {
  return i18n._(issueTexts[issue]);
}
