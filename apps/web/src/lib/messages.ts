// The texts the server sends without an error code, translated on the client: the form rules' texts (the zod
// schemas' words, which a BAD_INPUT refusal carries), the room protocol's, the room ticket's refusals (a REST
// reply, text only) and the names the database is seeded with. A refusal with a code is shown by its code
// (error-texts.ts).
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { TRPCClientError } from '@trpc/client';
import { appErrorText, isAppErrorCode } from './error-texts';
import { RestError } from './http';
import type { TValidationIssue } from './password';

const serverTexts: Record<string, MessageDescriptor> = {
  'Request error': msg`Request error`,
  'Not found': msg`Not found`,
  'Unknown error': msg`Unknown error`,
  'Not logged in': msg`Not logged in`,
  'Incorrect account': msg`Incorrect account`,
  'Incorrect email or password': msg`Incorrect email or password`,
  'Incorrect password': msg`Incorrect password`,
  'The verification code is incorrect': msg`The verification code is incorrect`,
  'Sending failed': msg`Sending failed`,
  'Email is incorrect': msg`Incorrect email address`,
  'Code is incorrect': msg`The verification code is incorrect`,
  'Password length cannot be less than 6 digits': msg`Password length cannot be less than 6 digits`,
  'Please complete the verification': msg`Please complete the verification`,
  'verification failed': msg`verification failed`,
  'pass_token used': msg`pass_token used`,
  'Verification data is invalid, please verify again': msg`Verification data is invalid, please verify again`,
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
  'Better plans give better parameters and more zones': msg`Better plans give better parameters and more zones`,
  // The names and descriptions the database is seeded with (packages/db seeders): plans, zones and images. One an
  // administrator renamed is shown as they wrote it.
  Free: msg`Free`,
  'Try rooms with modest limits.': msg`Try rooms with modest limits.`,
  'Pro monthly': msg`Pro monthly`,
  'More rooms and viewers, 1080p at 60 fps, your own auto-close and kept browser data.': msg`More rooms and viewers, 1080p at 60 fps, your own auto-close and kept browser data.`,
  'Pro yearly': msg`Pro yearly`,
  'Everything in Pro for a year, two months free.': msg`Everything in Pro for a year, two months free.`,
  Local: msg`Local`,
  'Rooms run on this server.': msg`Rooms run on this server.`,
  'Chromium on a blank page; type an address to go anywhere.': msg`Chromium on a blank page; type an address to go anywhere.`,
  'Chromium opening YouTube, to watch videos together.': msg`Chromium opening YouTube, to watch videos together.`,
  'Chromium · your start page': msg`Chromium · your start page`,
  'Chromium opening the address you choose for the room.': msg`Chromium opening the address you choose for the room.`,
  // Rooms (the room protocol's system/error texts, the room schemas, and the ticket's refusals)
  'The room could not be started': msg`The room could not be started`,
  'The service is briefly unavailable; please try again in a moment': msg`The service is briefly unavailable; please try again in a moment`,
  'An image and a zone must be chosen': msg`An image and a zone must be chosen`,
  'Please enter a room name': msg`Please enter a room name`,
  'Please choose a room': msg`Please choose a room`,
  'The room name cannot be longer than 32 characters': msg`The room name cannot be longer than 32 characters`,
  'The room name may only contain letters, digits, - and _ (Chinese, Japanese and Korean included)': msg`The room name may only contain letters, digits, - and _ (Chinese, Japanese and Korean included)`,
  'The remark cannot be longer than 200 characters': msg`The remark cannot be longer than 200 characters`,
  'The room password cannot be longer than 32 characters': msg`The room password cannot be longer than 32 characters`,
  'The room password contains characters that are not allowed': msg`The room password contains characters that are not allowed`,
  'The room password must have at least 4 characters': msg`The room password must have at least 4 characters`,
  'The start address cannot be longer than 2048 characters': msg`The start address cannot be longer than 2048 characters`,
  'Please enter your nickname': msg`Please enter your nickname`,
  'A nickname cannot contain control characters': msg`A nickname cannot contain control characters`,
  'Please enter a message': msg`Please enter a message`,
  'Please enter an address': msg`Please enter an address`,
  'This address is too long': msg`This address is too long`,
  'This message could not be understood': msg`This message could not be understood`,
  'You have already joined this room': msg`You have already joined this room`,
  'You are not in control of the browser; request control first': msg`You are not in control of the browser; request control first`,
  'Only the person in control or the room owner can hand over control': msg`Only the person in control or the room owner can hand over control`,
  'Only the room owner can do this': msg`Only the room owner can do this`,
  'This person is no longer in the room': msg`This person is no longer in the room`,
  'The room owner cannot be removed': msg`The room owner cannot be removed`,
  'This room is full': msg`This room is full`,
  'This room does not exist': msg`This room does not exist`,
  'This room is not running': msg`This room is not running`,
  'The room password is incorrect': msg`The room password is incorrect`,
  'The room password is incorrect. Please complete the verification before you try again': msg`The room password is incorrect. Please complete the verification before you try again`,
  'Several wrong passwords were tried for this room from your network. Please complete the verification, then enter the password': msg`Several wrong passwords were tried for this room from your network. Please complete the verification, then enter the password`,
  'You are sending messages too fast': msg`You are sending messages too fast`,
  'You are sending reactions too fast; wait a few seconds': msg`You are sending reactions too fast; wait a few seconds`,
  'The browser could not do that': msg`The browser could not do that`,
  'You were removed from the room by its owner': msg`You were removed from the room by its owner`,
  'Too many messages could not be understood; the connection was closed': msg`Too many messages could not be understood; the connection was closed`,
  'Your connection is too slow for this room': msg`Your connection is too slow for this room`,
  'The connection to the room was lost': msg`The connection to the room was lost`,
  'This page may not open a room connection': msg`This page may not open a room connection`,
  'The room ticket is invalid or has expired': msg`The room ticket is invalid or has expired`,
  'Too many of your connections are waiting to join a room; close some tabs and try again': msg`Too many of your connections are waiting to join a room; close some tabs and try again`,
  'This nickname is the room owner’s; please choose another': msg`This nickname is the room owner’s; please choose another`,
  'Someone in this room already uses this nickname; please choose another': msg`Someone in this room already uses this nickname; please choose another`,
  'You were signed out; please sign in again to rejoin': msg`You were signed out; please sign in again to rejoin`,
  'Your account has been disabled; your rooms have ended': msg`Your account has been disabled; your rooms have ended`,
  'This room has ended: its owner’s account has been disabled': msg`This room has ended: its owner’s account has been disabled`,
  // Sharing (packages/api share.types.ts, the room protocol and the ticket's refusals)
  'This room needs a password': msg`This room needs a password`,
  'You were banned from this room by its owner': msg`You were banned from this room by its owner`,
  'The room’s owner did not let you in': msg`The room’s owner did not let you in`,
  'Nobody answered your knock; try again later': msg`Nobody answered your knock; try again later`,
  'Too many people are waiting to be let into this room; try again later': msg`Too many people are waiting to be let into this room; try again later`,
  'Please describe the problem': msg`Please describe the problem`,
  'A report has at most 500 characters': msg`A report has at most 500 characters`,
  // Plans and bills (packages/api routers/pay)
  'The free plan is claimed, not bought': msg`The free plan is claimed, not bought`,
  'Auto-renew applies to paid plans only': msg`Auto-renew applies to paid plans only`,
  'Please choose a payment method and an amount': msg`Please choose a payment method and an amount`,
  'The bill does not exist': msg`The bill does not exist`,
  'Please choose a plan': msg`Please choose a plan`,
  'The flag must be true or false': msg`The flag must be true or false`,
  // Administration (packages/api routers/admin/admin.types.ts and domains/admin)
  'Unknown id': msg`Unknown id`,
  'The free plan is claimed, not bought: its price stays 0': msg`The free plan is claimed, not bought: its price stays 0`,
  'The page cursor is not valid; start from the first page': msg`The page cursor is not valid; start from the first page`,
  'The level must be a whole number from 1 to 99': msg`The level must be a whole number from 1 to 99`,
  'The period must be from 1 to 3650 days': msg`The period must be from 1 to 3650 days`,
  'Please give a reason': msg`Please give a reason`,
  'The reason must be at least 3 characters': msg`The reason must be at least 3 characters`,
  'The reason can be at most 500 characters': msg`The reason can be at most 500 characters`,
  'Please enter an amount': msg`Please enter an amount`,
  'The amount cannot be zero': msg`The amount cannot be zero`,
  'The amount can be at most 100000 USD either way': msg`The amount can be at most 100000 USD either way`,
  'The amount must be in whole cents': msg`The amount must be in whole cents`,
  'Please choose what to do with the report': msg`Please choose what to do with the report`,
  'The plan needs a name': msg`The plan needs a name`,
  'The name can be at most 64 characters': msg`The name can be at most 64 characters`,
  'The description can be at most 255 characters': msg`The description can be at most 255 characters`,
  'The price must be a number': msg`The price must be a number`,
  'The price cannot be negative': msg`The price cannot be negative`,
  'The price can be at most 100000 USD': msg`The price can be at most 100000 USD`,
  'The price must be in whole cents': msg`The price must be in whole cents`,
  'The inventory must be a whole number from 0 to 1000000': msg`The inventory must be a whole number from 0 to 1000000`,
  'Rooms must be a whole number from 1 to 1000': msg`Rooms must be a whole number from 1 to 1000`,
  'Connections must be a whole number from 1 to 1000': msg`Connections must be a whole number from 1 to 1000`,
  'The width must be a whole number from 320 to 3840': msg`The width must be a whole number from 320 to 3840`,
  'The height must be a whole number from 240 to 2160': msg`The height must be a whole number from 240 to 2160`,
  'The frame rate must be a whole number from 1 to 60': msg`The frame rate must be a whole number from 1 to 60`,
  'The bitrate must be a whole number from 100 to 50000': msg`The bitrate must be a whole number from 100 to 50000`,
  'The time quota must be a whole number from 0 to 1000000': msg`The time quota must be a whole number from 0 to 1000000`,
  'The monthly free time must be a whole number from 0 to 1000000': msg`The monthly free time must be a whole number from 0 to 1000000`,
  'The order must be a whole number from -1000 to 1000': msg`The order must be a whole number from -1000 to 1000`,
  'The page to return to must be a page of this site': msg`The page to return to must be a page of this site`,
  // Signing in as a user from an administrator's one-time link (/admintologinuser/{token})
  'This sign-in link is invalid or has expired': msg`This sign-in link is invalid or has expired`,
};

// The texts with values that come without a code: the ticket's refusals and the room protocol's.
const numberedTexts: [RegExp, (n: string) => MessageDescriptor][] = [
  [
    /^Too many attempts, please try again in (\d+) seconds$/,
    (seconds) => msg`Too many attempts, please try again in ${seconds} seconds`,
  ],
  [
    /^The room password is incorrect\. Tries left before a verification is needed: (\d+)$/,
    (count) => msg`The room password is incorrect. Tries left before a verification is needed: ${count}`,
  ],
  [/^A message has at most (\d+) characters$/, (count) => msg`A message has at most ${count} characters`],
  [/^A nickname has at most (\d+) characters$/, (count) => msg`A nickname has at most ${count} characters`],
  [
    /^(?:Max connections|The width|The height|The video bitrate|The frame rate|The auto-close time) must be a whole number from \d+ to \d+$/,
    () => msg`A room setting is out of its range`,
  ],
];

/** The translation of a text the server sent; unknown texts pass through unchanged. */
export function translateServerText(i18n: I18n, text: string): string {
  const known = serverTexts[text];
  if (known) return i18n._(known);
  for (const [pattern, descriptor] of numberedTexts) {
    const match = pattern.exec(text);
    if (match) return i18n._(descriptor(match[1] ?? ''));
  }
  return text;
}

const CAPTCHA_CODES = new Set<string>([
  'CAPTCHA_REQUIRED',
  'CAPTCHA_FAILED',
  'PASS_TOKEN_USED',
  'VERIFICATION_INVALID',
  'CAPTCHA_UNAVAILABLE',
]);

export interface TDescribedError {
  text: string;
  appCode: string | undefined;
  /** Captcha failures toast for 5000 ms instead of 3000 and need a fresh captcha. */
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
    return { text: codeText(i18n, appCode, error.message), appCode, captcha: CAPTCHA_CODES.has(appCode) };
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

/** The text of a failure that may be a server's refusal (shown by its code) or a local one (by its words). */
export function errorText(i18n: I18n, error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError) {
    const appCode = (error.data as { appCode?: string } | undefined | null)?.appCode;
    if (appCode) return codeText(i18n, appCode, error.message);
  }
  return translateServerText(i18n, error instanceof Error && error.message ? error.message : fallback);
}

function codeText(i18n: I18n, appCode: string, message: string): string {
  const asSent = (text: string) => translateServerText(i18n, text);
  return isAppErrorCode(appCode) ? appErrorText(i18n, appCode, message, asSent) : asSent(message);
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
  'verification-invalid': msg`Verification data is invalid, please verify again`,
};

export function issueText(i18n: I18n, issue: TValidationIssue): string {
  return i18n._(issueTexts[issue]);
}
