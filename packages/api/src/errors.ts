// One error type for the whole API. Each code has a stable machine name, the text a person reads (the spec's
// error catalogue where it names one) and the HTTP status the REST layer answers with. The tRPC error formatter
// and the REST envelope both read this table, so a text is written exactly once.

import { TRPCError } from '@trpc/server';
import { isDatabaseOutage } from './database-outage';
// Every validation failure without a text of its own gets a readable one (BAD_INPUT's message below).
import './schemas/readable-issues';

type TrpcCode = TRPCError['code'];

interface ErrorSpec {
  message: string;
  status: number;
  trpc: TrpcCode;
}

const catalogue = {
  // Input that does not pass the schema; the message is taken from the schema's own text.
  BAD_INPUT: { message: 'Request error', status: 400, trpc: 'BAD_REQUEST' },
  // A NUL byte or another control character in any text (tabs and line breaks pass in text areas).
  TEXT_CONTROL_CHARACTERS: {
    message: 'The text contains characters that are not allowed',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  NOT_FOUND: { message: 'Not found', status: 404, trpc: 'NOT_FOUND' },
  // A REST path called with a method it does not take: {0} is the method used, {1} those the path takes.
  METHOD_NOT_ALLOWED: {
    message: 'This call does not take the {0} method; use {1}',
    status: 405,
    trpc: 'METHOD_NOT_SUPPORTED',
  },
  INTERNAL: { message: 'Unknown error', status: 500, trpc: 'INTERNAL_SERVER_ERROR' },

  // Session
  NOT_LOGGED_IN: { message: 'Not logged in', status: 401, trpc: 'UNAUTHORIZED' },
  FORBIDDEN: { message: 'Access denied', status: 403, trpc: 'FORBIDDEN' },

  // Login
  INCORRECT_ACCOUNT: { message: 'Incorrect account', status: 400, trpc: 'BAD_REQUEST' },
  INCORRECT_CREDENTIALS: { message: 'Incorrect email or password', status: 400, trpc: 'BAD_REQUEST' },
  INCORRECT_PASSWORD: { message: 'Incorrect password', status: 400, trpc: 'BAD_REQUEST' },
  ACCOUNT_DISABLED: { message: 'This account has been disabled', status: 403, trpc: 'FORBIDDEN' },

  // Registration
  EMAIL_REGISTERED: { message: 'Email registered', status: 409, trpc: 'CONFLICT' },
  EMAIL_EXISTS: { message: 'The email address already exists', status: 409, trpc: 'CONFLICT' },
  EMAIL_FORMAT: { message: 'The email format is incorrect', status: 400, trpc: 'BAD_REQUEST' },
  CODE_USED: { message: 'Verification code has been used', status: 400, trpc: 'BAD_REQUEST' },
  CODE_INCORRECT: { message: 'The verification code is incorrect', status: 400, trpc: 'BAD_REQUEST' },
  CODE_NOT_REQUESTED: { message: 'Please get the verification code first', status: 400, trpc: 'BAD_REQUEST' },
  CODE_EXPIRED: {
    message: 'The verification code has expired, please get a new one',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  CODE_TOO_MANY_TRIES: {
    message: 'Too many wrong codes, please get a new verification code',
    status: 429,
    trpc: 'TOO_MANY_REQUESTS',
  },

  // Sending a code
  SEND_FAILED: { message: 'Sending failed', status: 502, trpc: 'INTERNAL_SERVER_ERROR' },
  CODE_COOLDOWN: {
    message: 'Please wait {0} seconds before requesting another code',
    status: 429,
    trpc: 'TOO_MANY_REQUESTS',
  },

  // Reset (the reset screen matches these exact replies)
  RESET_EMAIL_NOT_EXIST: { message: 'Email not exist', status: 404, trpc: 'NOT_FOUND' },
  RESET_EMAIL_INCORRECT: { message: 'Email is incorrect', status: 400, trpc: 'BAD_REQUEST' },
  RESET_CODE_INCORRECT: { message: 'Code is incorrect', status: 400, trpc: 'BAD_REQUEST' },

  // Passwords
  PASSWORD_TOO_SHORT: {
    message: 'Password length cannot be less than 6 digits',
    status: 400,
    trpc: 'BAD_REQUEST',
  },

  // Captcha
  CAPTCHA_REQUIRED: { message: 'Please complete the verification', status: 400, trpc: 'BAD_REQUEST' },
  CAPTCHA_FAILED: { message: 'verification failed', status: 400, trpc: 'BAD_REQUEST' },
  PASS_TOKEN_USED: { message: 'pass_token used', status: 400, trpc: 'BAD_REQUEST' },
  // Changing the password: a captcha missing, failed or already used reads the same.
  VERIFICATION_INVALID: {
    message: 'Verification data is invalid, please verify again',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  CAPTCHA_UNAVAILABLE: {
    message: 'The verification service is unavailable, please try again later',
    status: 503,
    trpc: 'INTERNAL_SERVER_ERROR',
  },

  // Room engine (the browsers this server runs)
  SERVER_FULL: {
    message: 'This server is running as many rooms as it can; please try again later',
    status: 503,
    trpc: 'INTERNAL_SERVER_ERROR',
  },
  ROOM_START_FAILED: { message: 'The room could not be started', status: 500, trpc: 'INTERNAL_SERVER_ERROR' },
  /** PostgreSQL is out of reach for a moment (database-outage.ts): nothing was done, trying again is safe. */
  SERVICE_UNAVAILABLE: {
    message: 'The service is briefly unavailable; please try again in a moment',
    status: 503,
    trpc: 'SERVICE_UNAVAILABLE',
  },
  /** The server cannot run rooms at all now (its browser is missing, its disk is full): the log says which. */
  ROOMS_UNAVAILABLE: {
    message: 'Rooms cannot start on this server right now; please try again later',
    status: 503,
    trpc: 'INTERNAL_SERVER_ERROR',
  },

  // Throttling
  TOO_MANY_REQUESTS: {
    message: 'Too many attempts, please try again in {0} seconds',
    status: 429,
    trpc: 'TOO_MANY_REQUESTS',
  },

  // Rooms. Another user's room answers ROOM_NOT_FOUND too, so a room id or name reveals nothing.
  ROOM_NOT_FOUND: { message: 'The room does not exist', status: 404, trpc: 'NOT_FOUND' },
  ROOM_NAME_TAKEN: { message: 'This room name is already taken', status: 409, trpc: 'CONFLICT' },
  ROOM_ZONE_UNAVAILABLE: { message: 'This zone is not available', status: 400, trpc: 'BAD_REQUEST' },
  ROOM_IMAGE_UNAVAILABLE: { message: 'This image is not available', status: 400, trpc: 'BAD_REQUEST' },
  ROOM_START_URL_REQUIRED: {
    message: 'This image needs a start address beginning with http:// or https://',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  // Sharing a room by link and password. 403, never 401: a 401 makes the web client forget its own session.
  ROOM_PASSWORD_REQUIRED: { message: 'This room needs a password', status: 403, trpc: 'FORBIDDEN' },
  ROOM_PASSWORD_INCORRECT: { message: 'The room password is incorrect', status: 403, trpc: 'FORBIDDEN' },
  // The budget of wrong share passwords (share-password-budget.ts): a warning while few tries are left, then the
  // captcha before each further try. Never a lockout: the right password with a solved captcha always enters.
  ROOM_PASSWORD_TRIES_LEFT: {
    message: 'The room password is incorrect. Tries left before a verification is needed: {0}',
    status: 403,
    trpc: 'FORBIDDEN',
  },
  ROOM_PASSWORD_INCORRECT_VERIFY: {
    message: 'The room password is incorrect. Please complete the verification before you try again',
    status: 403,
    trpc: 'FORBIDDEN',
  },
  ROOM_PASSWORD_VERIFY_REQUIRED: {
    message:
      'Several wrong passwords were tried for this room from your network. Please complete the verification, then enter the password',
    status: 403,
    trpc: 'FORBIDDEN',
  },
  // A room's download, fetched by its controller (GET /ws/room/:roomId/downloads/:id): one fetch per offer, while
  // that person still controls the room, within a few minutes.
  DOWNLOAD_NOT_AVAILABLE: {
    message:
      'This download is no longer available: it was already saved, it expired, or you are no longer in control of the room',
    status: 404,
    trpc: 'NOT_FOUND',
  },
  DOWNLOAD_LINK_INVALID: { message: 'This download link is not valid', status: 400, trpc: 'BAD_REQUEST' },
  // A room's settings against the owner's plan; each text names the limit so the create dialog can show it as it is.
  PLAN_ZONE_NOT_ALLOWED: {
    message: 'Your plan does not include the zone {0}',
    status: 403,
    trpc: 'FORBIDDEN',
  },
  PLAN_MAX_ROOMS: { message: 'Your plan allows at most {0} rooms', status: 403, trpc: 'FORBIDDEN' },
  PLAN_MAX_CONNECTIONS: {
    message: 'Your plan allows at most {0} connections per room',
    status: 403,
    trpc: 'FORBIDDEN',
  },
  PLAN_MAX_RESOLUTION: { message: 'Your plan allows at most {0}p ({1}×{2})', status: 403, trpc: 'FORBIDDEN' },
  PLAN_MAX_FRAME_RATE: { message: 'Your plan allows at most {0} fps', status: 403, trpc: 'FORBIDDEN' },
  PLAN_MAX_BITRATE: {
    message: 'Your plan allows a video bitrate of at most {0} kbps',
    status: 403,
    trpc: 'FORBIDDEN',
  },
  PLAN_AUTO_CLOSE_FIXED: {
    message: 'Your plan does not allow changing the auto-close settings',
    status: 403,
    trpc: 'FORBIDDEN',
  },
  PLAN_NO_KEEP_DATA: {
    message: 'Your plan does not include keeping browser data',
    status: 403,
    trpc: 'FORBIDDEN',
  },

  // Plans and payments. The client shows the plan refusals after 'Purchase failed' / 'Switching failed'.
  PLAN_NOT_FOUND: {
    message: 'This plan does not exist or is no longer offered',
    status: 404,
    trpc: 'NOT_FOUND',
  },
  PLAN_SOLD_OUT: { message: 'This plan is sold out', status: 409, trpc: 'CONFLICT' },
  INSUFFICIENT_BALANCE: {
    message:
      'Insufficient balance: the plan costs {0} USD and your balance is {1} USD; please recharge first',
    status: 402,
    trpc: 'BAD_REQUEST',
  },
  // Changing plans credits the unused part of the plan held (proration), so the balance needed is the difference.
  INSUFFICIENT_BALANCE_AFTER_CREDIT: {
    message:
      'Insufficient balance: the plan costs {0} USD less {1} USD for the unused part of your current plan, and your balance is {2} USD; please recharge first',
    status: 402,
    trpc: 'BAD_REQUEST',
  },
  FREE_PLAN_CLAIMED: { message: 'The free plan has already been claimed', status: 409, trpc: 'CONFLICT' },
  FREE_PLAN_WHILE_PAID: {
    message: 'You hold a paid plan; the free plan takes over when it ends',
    status: 409,
    trpc: 'CONFLICT',
  },
  FREE_PLAN_NOT_FOR_SALE: {
    message: 'The free plan is claimed, not bought',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  RENEW_NEEDS_PAID_PLAN: {
    message: 'Auto-renew applies to paid plans only',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  QUOTA_EXHAUSTED: {
    message: 'Your room time is used up; buy a plan or wait for next month’s free time',
    status: 403,
    trpc: 'FORBIDDEN',
  },
  RECHARGE_REQUIRED_FIELDS: {
    message: 'Please choose a payment method and an amount',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  RECHARGE_AMOUNT_RANGE: {
    message: 'The amount must be from {0} to {1} USD, in whole cents',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  PAYMENT_METHOD_UNAVAILABLE: {
    message: 'This payment method is not available',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  PAYMENT_NOT_FOUND: { message: 'The bill does not exist', status: 404, trpc: 'NOT_FOUND' },
  PAYMENT_PROVIDER_FAILED: {
    message: 'The payment provider could not be reached, please try again later',
    status: 502,
    trpc: 'INTERNAL_SERVER_ERROR',
  },

  // Administration. A non-administrator never sees these: admin paths answer them as missing paths.
  USER_NOT_FOUND: { message: 'The user does not exist', status: 404, trpc: 'NOT_FOUND' },
  REPORT_NOT_FOUND: { message: 'The report does not exist', status: 404, trpc: 'NOT_FOUND' },
  CANNOT_DISABLE_SELF: {
    message: 'You cannot disable your own account',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  REFUND_NOT_PAID: { message: 'Only a paid bill can be refunded', status: 409, trpc: 'CONFLICT' },
  REFUND_DONE: { message: 'This bill has already been refunded', status: 409, trpc: 'CONFLICT' },
  REFUND_EXCEEDS_BALANCE: {
    message: 'The balance ({0} USD) is less than the bill ({1} USD); adjust the balance instead',
    status: 409,
    trpc: 'CONFLICT',
  },
  ADJUSTMENT_EXCEEDS_BALANCE: {
    message: 'The balance ({0} USD) is less than the debit ({1} USD); a balance cannot go below zero',
    status: 409,
    trpc: 'CONFLICT',
  },
  PLAN_NAME_TAKEN: {
    message: 'Another plan has this name; people could not tell the two apart',
    status: 409,
    trpc: 'CONFLICT',
  },
  PLAN_DEFAULT_DISABLED: {
    message: 'The free plan everyone falls back to cannot be disabled',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  // An administrator's sign-in-as-user link (/admintologinuser/{token}).
  LOGIN_LINK_INVALID: {
    message: 'This sign-in link is invalid or has expired',
    status: 400,
    trpc: 'BAD_REQUEST',
  },
  IMPERSONATION_FORBIDDEN: {
    message: 'This is not available while an administrator is signed in as this user',
    status: 403,
    trpc: 'FORBIDDEN',
  },
} satisfies Record<string, ErrorSpec>;

export type TAppErrorCode = keyof typeof catalogue;

export function errorSpec(code: TAppErrorCode): ErrorSpec {
  return catalogue[code];
}

/** Fills `{0}`, `{1}` … placeholders the way the client's translation catalogue does. */
function format(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => String(args[Number(index)] ?? whole));
}

export class AppError extends TRPCError {
  readonly appCode: TAppErrorCode;
  readonly status: number;

  constructor(
    code: TAppErrorCode,
    options: { args?: (string | number)[]; message?: string; cause?: unknown } = {},
  ) {
    const spec = catalogue[code];
    super({
      code: spec.trpc,
      message: options.message ?? format(spec.message, options.args ?? []),
      cause: options.cause,
    });
    this.name = 'AppError';
    this.appCode = code;
    this.status = spec.status;
  }
}

/** The machine code and status of any error thrown by a procedure, for the tRPC formatter and REST envelope. */
export function describeError(error: unknown): { appCode: TAppErrorCode; status: number; message: string } {
  const cause = error instanceof TRPCError && error.cause instanceof AppError ? error.cause : error;
  if (cause instanceof AppError)
    return { appCode: cause.appCode, status: cause.status, message: cause.message };
  if (error instanceof TRPCError) {
    if (error.code === 'BAD_REQUEST' || error.code === 'PARSE_ERROR') {
      return { appCode: 'BAD_INPUT', status: 400, message: validationMessage(error) };
    }
    if (error.code === 'UNAUTHORIZED')
      return { appCode: 'NOT_LOGGED_IN', status: 401, message: error.message };
    if (error.code === 'NOT_FOUND') return { appCode: 'NOT_FOUND', status: 404, message: error.message };
    if (error.code === 'METHOD_NOT_SUPPORTED')
      return { appCode: 'BAD_INPUT', status: 405, message: error.message };
    if (error.code === 'PAYLOAD_TOO_LARGE')
      return { appCode: 'BAD_INPUT', status: 413, message: error.message };
  }
  if (isDatabaseOutage(error)) {
    return { appCode: 'SERVICE_UNAVAILABLE', status: 503, message: catalogue.SERVICE_UNAVAILABLE.message };
  }
  return { appCode: 'INTERNAL', status: 500, message: catalogue.INTERNAL.message };
}

/** A zod failure becomes the first issue's own message (the schemas carry the spec's texts). */
function validationMessage(error: TRPCError): string {
  const issues = (error.cause as { issues?: { message: string }[] } | undefined)?.issues;
  return issues?.[0]?.message ?? error.message;
}
