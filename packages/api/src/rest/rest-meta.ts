// What a procedure declares to be offered over REST: `.meta({ rest: { … } })` on its builder (trpc.ts TMeta). The
// route table (route-table.ts) and the OpenAPI document (openapi.ts) are read off these, so searching for a path
// finds its procedure. This module imports no procedure, so every procedure can import the refusal lists below.
import type { TAppErrorCode } from '../errors';

export interface TRestMeta {
  /**
   * GET takes the query string; POST takes a JSON body. The documented API has calls that change things on GET
   * (pay.payPlan, pay.switchRenew, pay.refresh): they stay GET, as clients call them.
   */
  method: 'GET' | 'POST';
  /** `/api/<router>/<procedure>`, the documented path, or the same shape for a call the documentation lacks. */
  path: `/api/${string}`;
  /**
   * Whether the session token is needed in the Authorization header: true unless stated, false for a call anyone
   * may make. A test holds it to the procedure's builder (publicProcedure or not).
   */
  auth?: boolean;
  /** The group the OpenAPI document lists the path under; 'Admin' paths answer 404 to anyone but an administrator. */
  tag: 'User' | 'Captcha' | 'Room' | 'Server' | 'Pay' | 'Admin';
  /**
   * The refusals of errors.ts this call may answer besides those every call may (unreadable input, a missing
   * session on `auth` calls, an admin path for anyone else, the database out of reach): the OpenAPI document lists
   * their statuses and texts.
   */
  errors: readonly TAppErrorCode[];
  /** A POST whose fields may come in the query string too, as the documented API shows them (`?id&name`). */
  queryParameters?: true;
}

/** A solved captcha that the call checks: refused, already used, or its provider out of reach. */
export const CAPTCHA_ERRORS = ['CAPTCHA_FAILED', 'PASS_TOKEN_USED', 'CAPTCHA_UNAVAILABLE'] as const;
/** What an administrator signed in as the user may not do (trpc.ts ownSessionProcedure). */
export const OWN_SESSION_ERRORS = ['IMPERSONATION_FORBIDDEN'] as const;
/** Starting a room's browser: the owner's room time, then the fleet's answer. */
export const ROOM_START_ERRORS = [
  'QUOTA_EXHAUSTED',
  'SERVER_FULL',
  'ROOMS_UNAVAILABLE',
  'ROOM_START_FAILED',
] as const;
/** A room's settings against the owner's plan (the rooms domain's room-settings.ts). */
export const PLAN_LIMIT_ERRORS = [
  'PLAN_MAX_CONNECTIONS',
  'PLAN_MAX_RESOLUTION',
  'PLAN_MAX_FRAME_RATE',
  'PLAN_MAX_BITRATE',
  'PLAN_AUTO_CLOSE_FIXED',
  'PLAN_NO_KEEP_DATA',
] as const;
/** Entering someone else's room with its share password (the rooms domain's share-password-budget.ts). */
export const SHARE_PASSWORD_ERRORS = [
  'ROOM_NOT_FOUND',
  'ROOM_PASSWORD_REQUIRED',
  'ROOM_PASSWORD_INCORRECT',
  'ROOM_PASSWORD_TRIES_LEFT',
  'ROOM_PASSWORD_INCORRECT_VERIFY',
  'ROOM_PASSWORD_VERIFY_REQUIRED',
] as const;
/** Redeeming an e-mailed code (the accounts domain's email-codes.ts). */
export const CODE_ERRORS = ['CODE_NOT_REQUESTED', 'CODE_EXPIRED', 'CODE_TOO_MANY_TRIES'] as const;
/** Sending one. */
export const SEND_CODE_ERRORS = ['CODE_COOLDOWN', 'SEND_FAILED'] as const;
