// The text a person reads for each of the server's error codes (packages/api/src/errors.ts), translated on the
// client. Keyed by the stable code, so a code added on the server fails this file's type check until it has a text
// here. Where the server's text carries values (seconds, limits, prices), they are read back from its words: the
// error's data carries the code but not the values.
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { TAppErrorCode } from '@rooms/api/client';

/** The server words these refusals itself (a form rule's text, a missing path, why a start failed). */
const AS_SENT = 'as-sent';

interface TWithValues {
  /** Picks the values out of the server's English text; no match shows the text as sent. */
  pick: RegExp;
  text: (...values: string[]) => MessageDescriptor;
}

type TCodeText = MessageDescriptor | TWithValues | typeof AS_SENT;

const codeTexts: Record<TAppErrorCode, TCodeText> = {
  BAD_INPUT: AS_SENT,
  TEXT_CONTROL_CHARACTERS: msg`The text contains characters that are not allowed`,
  NOT_FOUND: AS_SENT,
  METHOD_NOT_ALLOWED: AS_SENT,
  INTERNAL: msg`Unknown error`,

  NOT_LOGGED_IN: msg`Not logged in`,
  FORBIDDEN: msg`Access denied`,

  INCORRECT_ACCOUNT: msg`Incorrect account`,
  INCORRECT_CREDENTIALS: msg`Incorrect email or password`,
  INCORRECT_PASSWORD: msg`Incorrect password`,
  ACCOUNT_DISABLED: msg`This account has been disabled`,

  EMAIL_REGISTERED: msg`Email registered`,
  EMAIL_EXISTS: msg`The email address already exists`,
  EMAIL_FORMAT: msg`The email format is incorrect`,
  CODE_USED: msg`Verification code has been used`,
  CODE_INCORRECT: msg`The verification code is incorrect`,
  CODE_NOT_REQUESTED: msg`Please get the verification code first`,
  CODE_EXPIRED: msg`The verification code has expired, please get a new one`,
  CODE_TOO_MANY_TRIES: msg`Too many wrong codes, please get a new verification code`,

  SEND_FAILED: msg`Sending failed`,
  CODE_COOLDOWN: {
    pick: /^Please wait (\d+) seconds/,
    text: (seconds) => msg`Please wait ${seconds} seconds before requesting another code`,
  },

  // The reset screen's own words for the server's short replies.
  RESET_EMAIL_NOT_EXIST: msg`The email address does not exist`,
  RESET_EMAIL_INCORRECT: msg`Incorrect email address`,
  RESET_CODE_INCORRECT: msg`The verification code is incorrect`,

  PASSWORD_TOO_SHORT: msg`Password length cannot be less than 6 digits`,

  CAPTCHA_REQUIRED: msg`Please complete the verification`,
  CAPTCHA_FAILED: msg`verification failed`,
  PASS_TOKEN_USED: msg`pass_token used`,
  VERIFICATION_INVALID: msg`Verification data is invalid, please verify again`,
  CAPTCHA_UNAVAILABLE: msg`The verification service is unavailable, please try again later`,

  SERVER_FULL: msg`This server is running as many rooms as it can; please try again later`,
  ROOM_START_FAILED: AS_SENT,
  SERVICE_UNAVAILABLE: msg`The service is briefly unavailable; please try again in a moment`,
  ROOMS_UNAVAILABLE: msg`Rooms cannot start on this server right now; please try again later`,

  TOO_MANY_REQUESTS: {
    pick: /^Too many attempts, please try again in (\d+) seconds$/,
    text: (seconds) => msg`Too many attempts, please try again in ${seconds} seconds`,
  },

  ROOM_NOT_FOUND: msg`The room does not exist`,
  ROOM_NAME_TAKEN: msg`This room name is already taken`,
  ROOM_ZONE_UNAVAILABLE: msg`This zone is not available`,
  ROOM_IMAGE_UNAVAILABLE: msg`This image is not available`,
  ROOM_START_URL_REQUIRED: msg`This image needs a start address beginning with http:// or https://`,
  ROOM_PASSWORD_REQUIRED: msg`This room needs a password`,
  ROOM_PASSWORD_INCORRECT: msg`The room password is incorrect`,
  ROOM_PASSWORD_TRIES_LEFT: {
    pick: /: (\d+)$/,
    text: (count) =>
      msg`The room password is incorrect. Tries left before a verification is needed: ${count}`,
  },
  ROOM_PASSWORD_INCORRECT_VERIFY: msg`The room password is incorrect. Please complete the verification before you try again`,
  ROOM_PASSWORD_VERIFY_REQUIRED: msg`Several wrong passwords were tried for this room from your network. Please complete the verification, then enter the password`,
  // Answered to a download's GET, which the browser opens itself: the page never shows these.
  DOWNLOAD_NOT_AVAILABLE: AS_SENT,
  DOWNLOAD_LINK_INVALID: AS_SENT,
  PLAN_ZONE_NOT_ALLOWED: {
    pick: /^Your plan does not include the zone (.+)$/,
    text: (zone) => msg`Your plan does not include the zone ${zone}`,
  },
  PLAN_MAX_ROOMS: {
    pick: /(\d+) rooms$/,
    text: (count) => msg`Your plan allows at most ${count} rooms`,
  },
  PLAN_MAX_CONNECTIONS: {
    pick: /(\d+) connections per room$/,
    text: (count) => msg`Your plan allows at most ${count} connections per room`,
  },
  PLAN_MAX_RESOLUTION: {
    pick: /(\d+p \(\d+×\d+\))$/,
    text: (size) => msg`Your plan allows at most ${size}`,
  },
  PLAN_MAX_FRAME_RATE: {
    pick: /(\d+) fps$/,
    text: (fps) => msg`Your plan allows at most ${fps} fps`,
  },
  PLAN_MAX_BITRATE: {
    pick: /(\d+) kbps$/,
    text: (kbps) => msg`Your plan allows a video bitrate of at most ${kbps} kbps`,
  },
  PLAN_AUTO_CLOSE_FIXED: msg`Your plan does not allow changing the auto-close settings`,
  PLAN_NO_KEEP_DATA: msg`Your plan does not include keeping browser data`,

  PLAN_NOT_FOUND: msg`This plan does not exist or is no longer offered`,
  PLAN_SOLD_OUT: msg`This plan is sold out`,
  INSUFFICIENT_BALANCE: {
    pick: /costs ([\d.]+) USD and your balance is ([\d.]+) USD/,
    text: (price, balance) =>
      msg`Insufficient balance: the plan costs ${price} USD and your balance is ${balance} USD; please recharge first`,
  },
  INSUFFICIENT_BALANCE_AFTER_CREDIT: {
    pick: /costs ([\d.]+) USD less ([\d.]+) USD .* your balance is ([\d.]+) USD/,
    text: (price, credit, balance) =>
      msg`Insufficient balance: the plan costs ${price} USD less ${credit} USD for the unused part of your current plan, and your balance is ${balance} USD; please recharge first`,
  },
  FREE_PLAN_CLAIMED: msg`The free plan has already been claimed`,
  FREE_PLAN_WHILE_PAID: msg`You hold a paid plan; the free plan takes over when it ends`,
  FREE_PLAN_NOT_FOR_SALE: msg`The free plan is claimed, not bought`,
  RENEW_NEEDS_PAID_PLAN: msg`Auto-renew applies to paid plans only`,
  QUOTA_EXHAUSTED: msg`Your room time is used up; buy a plan or wait for next month’s free time`,
  RECHARGE_REQUIRED_FIELDS: msg`Please choose a payment method and an amount`,
  RECHARGE_AMOUNT_RANGE: {
    pick: /from ([\d.]+) to ([\d.]+) USD/,
    text: (min, max) => msg`The amount must be from ${min} to ${max} USD, in whole cents`,
  },
  PAYMENT_METHOD_UNAVAILABLE: msg`This payment method is not available`,
  PAYMENT_NOT_FOUND: msg`The bill does not exist`,
  PAYMENT_PROVIDER_FAILED: msg`The payment provider could not be reached, please try again later`,

  USER_NOT_FOUND: msg`The user does not exist`,
  REPORT_NOT_FOUND: msg`The report does not exist`,
  CANNOT_DISABLE_SELF: msg`You cannot disable your own account`,
  REFUND_NOT_PAID: msg`Only a paid bill can be refunded`,
  REFUND_DONE: msg`This bill has already been refunded`,
  REFUND_EXCEEDS_BALANCE: {
    pick: /^The balance \(([\d.]+) USD\) is less than the bill \(([\d.]+) USD\)/,
    text: (balance, bill) =>
      msg`The balance (${balance} USD) is less than the bill (${bill} USD); adjust the balance instead`,
  },
  ADJUSTMENT_EXCEEDS_BALANCE: {
    pick: /^The balance \(([\d.]+) USD\) is less than the debit \(([\d.]+) USD\)/,
    text: (balance, debit) =>
      msg`The balance (${balance} USD) is less than the debit (${debit} USD); a balance cannot go below zero`,
  },
  PLAN_NAME_TAKEN: msg`Another plan has this name; people could not tell the two apart`,
  PLAN_DEFAULT_DISABLED: msg`The free plan everyone falls back to cannot be disabled`,
  LOGIN_LINK_INVALID: msg`This sign-in link is invalid or has expired`,
  IMPERSONATION_FORBIDDEN: msg`This is not available while an administrator is signed in as this user`,
};

/**
 * The text for an error the server answered with `code`; `message` is its English text, which is what a code the
 * server words itself shows (through `asSent`, the table of texts that come without a code).
 */
export function appErrorText(
  i18n: I18n,
  code: TAppErrorCode,
  message: string,
  asSent: (text: string) => string,
): string {
  const known = codeTexts[code];
  if (known === AS_SENT) return asSent(message);
  if (!('pick' in known)) return i18n._(known);
  const values = known.pick.exec(message);
  return values ? i18n._(known.text(...values.slice(1).map((value) => value ?? ''))) : asSent(message);
}

/** Whether a string the server sent is one of its codes (an older or newer server may send one unknown here). */
export function isAppErrorCode(code: string): code is TAppErrorCode {
  return Object.hasOwn(codeTexts, code);
}
