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
  'Another plan has this name; people could not tell the two apart': msg`Another plan has this name; people could not tell the two apart`,
  // Rooms (packages/api errors.ts and the room protocol's system/error texts)
  'The room does not exist': msg`The room does not exist`,
  'This room name is already taken': msg`This room name is already taken`,
  'This zone is not available': msg`This zone is not available`,
  'This image is not available': msg`This image is not available`,
  'This image needs a start address beginning with http:// or https://': msg`This image needs a start address beginning with http:// or https://`,
  'Your plan does not allow changing the auto-close settings': msg`Your plan does not allow changing the auto-close settings`,
  'Your plan does not include keeping browser data': msg`Your plan does not include keeping browser data`,
  'This server is running as many rooms as it can; please try again later': msg`This server is running as many rooms as it can; please try again later`,
  'The room could not be started': msg`The room could not be started`,
  'Rooms cannot start on this server right now; please try again later': msg`Rooms cannot start on this server right now; please try again later`,
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
  'The text contains characters that are not allowed': msg`The text contains characters that are not allowed`,
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
  // Sharing (packages/api share.types.ts, errors.ts and the room protocol)
  'This room needs a password': msg`This room needs a password`,
  'You were banned from this room by its owner': msg`You were banned from this room by its owner`,
  'Please describe the problem': msg`Please describe the problem`,
  'A report has at most 500 characters': msg`A report has at most 500 characters`,
  // Plans and bills (packages/api errors.ts and routers/pay)
  'This plan does not exist or is no longer offered': msg`This plan does not exist or is no longer offered`,
  'This plan is sold out': msg`This plan is sold out`,
  'The free plan has already been claimed': msg`The free plan has already been claimed`,
  'You hold a paid plan; the free plan takes over when it ends': msg`You hold a paid plan; the free plan takes over when it ends`,
  'The free plan is claimed, not bought': msg`The free plan is claimed, not bought`,
  'Auto-renew applies to paid plans only': msg`Auto-renew applies to paid plans only`,
  'Your room time is used up; buy a plan or wait for next month’s free time': msg`Your room time is used up; buy a plan or wait for next month’s free time`,
  'Please choose a payment method and an amount': msg`Please choose a payment method and an amount`,
  'This payment method is not available': msg`This payment method is not available`,
  'The bill does not exist': msg`The bill does not exist`,
  'The payment provider could not be reached, please try again later': msg`The payment provider could not be reached, please try again later`,
  'Please choose a plan': msg`Please choose a plan`,
  'The flag must be true or false': msg`The flag must be true or false`,
  // Administration (packages/api errors.ts, routers/admin/admin.types.ts and domains/admin)
  'Unknown id': msg`Unknown id`,
  'The user does not exist': msg`The user does not exist`,
  'The report does not exist': msg`The report does not exist`,
  'You cannot disable your own account': msg`You cannot disable your own account`,
  'Only a paid bill can be refunded': msg`Only a paid bill can be refunded`,
  'This bill has already been refunded': msg`This bill has already been refunded`,
  'The free plan everyone falls back to cannot be disabled': msg`The free plan everyone falls back to cannot be disabled`,
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
  // Signing in as a user (spec §2 /admintologinuser/{token})
  'This sign-in link is invalid or has expired': msg`This sign-in link is invalid or has expired`,
  'This is not available while an administrator is signed in as this user': msg`This is not available while an administrator is signed in as this user`,
};

const numberedTexts: [RegExp, (n: string, m: string, o: string) => MessageDescriptor][] = [
  [
    /^Please wait (\d+) seconds before requesting another code$/,
    (seconds) => msg`Please wait ${seconds} seconds before requesting another code`,
  ],
  [
    /^Too many attempts, please try again in (\d+) seconds$/,
    (seconds) => msg`Too many attempts, please try again in ${seconds} seconds`,
  ],
  [
    /^The room password is incorrect\. Tries left before a verification is needed: (\d+)$/,
    (count) => msg`The room password is incorrect. Tries left before a verification is needed: ${count}`,
  ],
  [/^Your plan does not include the zone (.+)$/, (zone) => msg`Your plan does not include the zone ${zone}`],
  [/^Your plan allows at most (\d+) rooms$/, (count) => msg`Your plan allows at most ${count} rooms`],
  [/^A message has at most (\d+) characters$/, (count) => msg`A message has at most ${count} characters`],
  [
    /^Your plan allows at most (\d+) connections per room$/,
    (count) => msg`Your plan allows at most ${count} connections per room`,
  ],
  [/^Your plan allows at most (\d+) fps$/, (fps) => msg`Your plan allows at most ${fps} fps`],
  [
    /^Your plan allows a video bitrate of at most (\d+) kbps$/,
    (kbps) => msg`Your plan allows a video bitrate of at most ${kbps} kbps`,
  ],
  [/^Your plan allows at most (\d+p \(\d+×\d+\))$/, (size) => msg`Your plan allows at most ${size}`],
  [
    /^Insufficient balance: the plan costs ([\d.]+) USD and your balance is ([\d.]+) USD; please recharge first$/,
    (price, balance) =>
      msg`Insufficient balance: the plan costs ${price} USD and your balance is ${balance} USD; please recharge first`,
  ],
  [
    /^Insufficient balance: the plan costs ([\d.]+) USD less ([\d.]+) USD for the unused part of your current plan, and your balance is ([\d.]+) USD; please recharge first$/,
    (price, credit, balance) =>
      msg`Insufficient balance: the plan costs ${price} USD less ${credit} USD for the unused part of your current plan, and your balance is ${balance} USD; please recharge first`,
  ],
  [
    /^The amount must be from ([\d.]+) to ([\d.]+) USD, in whole cents$/,
    (min, max) => msg`The amount must be from ${min} to ${max} USD, in whole cents`,
  ],
  [
    /^The balance \(([\d.]+) USD\) is less than the bill \(([\d.]+) USD\); adjust the balance instead$/,
    (balance, bill) =>
      msg`The balance (${balance} USD) is less than the bill (${bill} USD); adjust the balance instead`,
  ],
  [
    /^The balance \(([\d.]+) USD\) is less than the debit \(([\d.]+) USD\); a balance cannot go below zero$/,
    (balance, debit) =>
      msg`The balance (${balance} USD) is less than the debit (${debit} USD); a balance cannot go below zero`,
  ],
  [/^A nickname has at most (\d+) characters$/, (count) => msg`A nickname has at most ${count} characters`],
  [/^A message has at most (\d+) characters$/, (count) => msg`A message has at most ${count} characters`],
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
    if (match) return i18n._(descriptor(match[1] ?? '', match[2] ?? '', match[3] ?? ''));
  }
  return text;
}

const CAPTCHA_CODES = new Set([
  'CAPTCHA_REQUIRED',
  'CAPTCHA_FAILED',
  'PASS_TOKEN_USED',
  'VERIFICATION_INVALID',
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
  'verification-invalid': msg`Verification data is invalid, please verify again`,
};

export function issueText(i18n: I18n, issue: TValidationIssue): string {
  return i18n._(issueTexts[issue]);
}
