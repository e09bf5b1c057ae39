// The REST compatibility layer (spec §7): each documented /api path is a procedure of the tRPC router, so the
// React client and third-party scripts run the very same code. A path whose feature has not shipped is absent.
import type { TAppErrorCode } from '../errors';

export interface TRestRoute {
  method: 'GET' | 'POST';
  path: `/api/${string}`;
  /** Dotted tRPC path, e.g. 'user.login'. */
  procedure: string;
  /** Needs the session token in the Authorization header. */
  auth: boolean;
  tag: string;
  /**
   * The refusals of errors.ts this call may answer besides those every call may (unreadable input, a missing
   * session on `auth` calls, an admin path for anyone else, the database out of reach): the OpenAPI document lists
   * their statuses and texts.
   */
  errors: readonly TAppErrorCode[];
  /** A POST whose fields may come in the query string too, as spec §7 shows them (`?id&name`). */
  queryParameters?: true;
}

/** A solved captcha that the call checks: refused, already used, or its provider out of reach. */
const CAPTCHA = ['CAPTCHA_FAILED', 'PASS_TOKEN_USED', 'CAPTCHA_UNAVAILABLE'] as const;
/** What an administrator signed in as the user may not do (trpc.ts ownSessionProcedure). */
const OWN_SESSION = ['IMPERSONATION_FORBIDDEN'] as const;
/** Starting a room's browser: the owner's room time, then the fleet's answer. */
const ROOM_START = ['QUOTA_EXHAUSTED', 'SERVER_FULL', 'ROOMS_UNAVAILABLE', 'ROOM_START_FAILED'] as const;
/** A room's settings against the owner's plan (routers/room/room-settings.ts). */
const PLAN_LIMITS = [
  'PLAN_MAX_CONNECTIONS',
  'PLAN_MAX_RESOLUTION',
  'PLAN_MAX_FRAME_RATE',
  'PLAN_MAX_BITRATE',
  'PLAN_AUTO_CLOSE_FIXED',
  'PLAN_NO_KEEP_DATA',
] as const;
/** Entering someone else's room with its share password (routers/room/share-password-budget.ts). */
const SHARE_PASSWORD = [
  'ROOM_NOT_FOUND',
  'ROOM_PASSWORD_REQUIRED',
  'ROOM_PASSWORD_INCORRECT',
  'ROOM_PASSWORD_TRIES_LEFT',
  'ROOM_PASSWORD_INCORRECT_VERIFY',
  'ROOM_PASSWORD_VERIFY_REQUIRED',
] as const;
/** Redeeming an e-mailed code (account/email-codes.ts). */
const CODE = ['CODE_NOT_REQUESTED', 'CODE_EXPIRED', 'CODE_TOO_MANY_TRIES'] as const;
/** Sending one. */
const SEND_CODE = ['CODE_COOLDOWN', 'SEND_FAILED'] as const;

export const restRoutes = [
  {
    method: 'GET',
    path: '/api/user/userinfo',
    procedure: 'user.userinfo',
    auth: true,
    tag: 'User',
    errors: [],
  },
  {
    method: 'POST',
    path: '/api/user/register',
    procedure: 'user.register',
    auth: false,
    tag: 'User',
    errors: [...CAPTCHA, 'TOO_MANY_REQUESTS', 'EMAIL_REGISTERED', ...CODE, 'CODE_INCORRECT'],
  },
  {
    method: 'POST',
    path: '/api/user/login',
    procedure: 'user.login',
    auth: false,
    tag: 'User',
    errors: [...CAPTCHA, 'TOO_MANY_REQUESTS', 'INCORRECT_CREDENTIALS', 'ACCOUNT_DISABLED'],
  },
  { method: 'POST', path: '/api/user/logout', procedure: 'user.logout', auth: true, tag: 'User', errors: [] },
  {
    method: 'POST',
    path: '/api/user/updatePassword',
    procedure: 'user.updatePassword',
    auth: true,
    tag: 'User',
    errors: [...OWN_SESSION, 'VERIFICATION_INVALID', 'CAPTCHA_UNAVAILABLE', 'INCORRECT_PASSWORD'],
  },
  {
    method: 'POST',
    path: '/api/user/sendRegisterCode',
    procedure: 'user.sendRegisterCode',
    auth: false,
    tag: 'User',
    errors: [...CAPTCHA, 'TOO_MANY_REQUESTS', 'EMAIL_EXISTS', ...SEND_CODE],
  },
  {
    method: 'POST',
    path: '/api/user/sendResetPasswordCode',
    procedure: 'user.sendResetPasswordCode',
    auth: false,
    tag: 'User',
    errors: [...CAPTCHA, 'TOO_MANY_REQUESTS', 'RESET_EMAIL_NOT_EXIST', ...SEND_CODE],
  },
  {
    method: 'POST',
    path: '/api/user/resetPassword',
    procedure: 'user.resetPassword',
    auth: false,
    tag: 'User',
    errors: [...CAPTCHA, 'TOO_MANY_REQUESTS', 'RESET_EMAIL_NOT_EXIST', ...CODE, 'RESET_CODE_INCORRECT'],
  },
  {
    method: 'GET',
    path: '/api/captcha/config',
    procedure: 'captcha.config',
    auth: false,
    tag: 'Captcha',
    errors: [],
  },
  {
    method: 'GET',
    path: '/api/captcha/challenge',
    procedure: 'captcha.challenge',
    auth: false,
    tag: 'Captcha',
    errors: ['TOO_MANY_REQUESTS', 'NOT_FOUND'],
  },
  {
    method: 'POST',
    path: '/api/captcha/verify',
    procedure: 'captcha.verify',
    auth: false,
    tag: 'Captcha',
    errors: ['NOT_FOUND', 'CAPTCHA_FAILED', 'PASS_TOKEN_USED'],
  },
  {
    method: 'GET',
    path: '/api/room/getRoomList',
    procedure: 'room.getRoomList',
    auth: true,
    tag: 'Room',
    errors: [],
  },
  {
    method: 'GET',
    path: '/api/room/getRoomInfo',
    procedure: 'room.getRoomInfo',
    auth: true,
    tag: 'Room',
    errors: ['ROOM_NOT_FOUND'],
  },
  {
    method: 'GET',
    path: '/api/room/getRoomConfig',
    procedure: 'room.getRoomConfig',
    auth: true,
    tag: 'Room',
    errors: ['ROOM_NOT_FOUND'],
  },
  {
    method: 'GET',
    path: '/api/room/getRoomRegion',
    procedure: 'room.getRoomRegion',
    auth: true,
    tag: 'Room',
    errors: [],
  },
  {
    method: 'GET',
    path: '/api/room/getRoomImage',
    procedure: 'room.getRoomImage',
    auth: true,
    tag: 'Room',
    errors: [],
  },
  {
    method: 'POST',
    path: '/api/room/createRoom',
    procedure: 'room.createRoom',
    auth: true,
    tag: 'Room',
    errors: [
      'ROOM_ZONE_UNAVAILABLE',
      'PLAN_ZONE_NOT_ALLOWED',
      'ROOM_IMAGE_UNAVAILABLE',
      'ROOM_START_URL_REQUIRED',
      ...PLAN_LIMITS,
      'PLAN_MAX_ROOMS',
      'ROOM_NAME_TAKEN',
    ],
  },
  {
    method: 'POST',
    path: '/api/room/deleteRoom',
    procedure: 'room.deleteRoom',
    auth: true,
    tag: 'Room',
    errors: [...OWN_SESSION, 'ROOM_NOT_FOUND'],
    queryParameters: true,
  },
  {
    method: 'POST',
    path: '/api/room/startRoom',
    procedure: 'room.startRoom',
    auth: true,
    tag: 'Room',
    errors: ['ROOM_NOT_FOUND', ...ROOM_START],
    queryParameters: true,
  },
  {
    method: 'POST',
    path: '/api/room/stopRoom',
    procedure: 'room.stopRoom',
    auth: true,
    tag: 'Room',
    errors: ['ROOM_NOT_FOUND'],
    queryParameters: true,
  },
  {
    method: 'POST',
    path: '/api/room/restartRoom',
    procedure: 'room.restartRoom',
    auth: true,
    tag: 'Room',
    errors: ['ROOM_NOT_FOUND', ...ROOM_START],
    queryParameters: true,
  },
  {
    method: 'GET',
    path: '/api/room/updateState',
    procedure: 'room.updateState',
    auth: true,
    tag: 'Room',
    errors: ['ROOM_NOT_FOUND'],
  },
  {
    method: 'GET',
    path: '/api/room/getPublicRoom',
    procedure: 'room.getPublicRoom',
    auth: false,
    tag: 'Room',
    errors: [],
  },
  {
    method: 'GET',
    path: '/api/room/getRoomInfo_share',
    procedure: 'room.getRoomInfo_share',
    auth: false,
    tag: 'Room',
    errors: [...SHARE_PASSWORD, ...CAPTCHA],
  },
  {
    method: 'GET',
    path: '/api/room/getPublicRoomConfig',
    procedure: 'room.getPublicRoomConfig',
    auth: false,
    tag: 'Room',
    errors: [...SHARE_PASSWORD, ...CAPTCHA],
  },
  {
    method: 'GET',
    path: '/api/room/getShareDomain',
    procedure: 'room.getShareDomain',
    auth: false,
    tag: 'Room',
    errors: [],
  },
  {
    method: 'GET',
    path: '/api/room/getMainDomain',
    procedure: 'room.getMainDomain',
    auth: false,
    tag: 'Room',
    errors: [],
  },
  // Not in spec §7: the owner's share settings and members' reports, offered over REST like the rest.
  {
    method: 'POST',
    path: '/api/room/updateRoomShare',
    procedure: 'room.updateRoomShare',
    auth: true,
    tag: 'Room',
    errors: ['ROOM_NOT_FOUND'],
  },
  {
    method: 'POST',
    path: '/api/room/reportRoom',
    procedure: 'room.reportRoom',
    auth: false,
    tag: 'Room',
    errors: ['TOO_MANY_REQUESTS', ...SHARE_PASSWORD],
  },
  // Not in spec §7: the /serverstate screen's data, offered over REST like every other procedure.
  {
    method: 'GET',
    path: '/api/server/getServerState',
    procedure: 'server.getServerState',
    auth: true,
    tag: 'Server',
    errors: [],
  },
  // spec §7 Pay. payPlan, switchRenew and refresh change things but are GET, as the spec lists them.
  {
    method: 'POST',
    path: '/api/pay/recharge',
    procedure: 'pay.recharge',
    auth: true,
    tag: 'Pay',
    errors: [
      ...OWN_SESSION,
      'RECHARGE_AMOUNT_RANGE',
      'PAYMENT_METHOD_UNAVAILABLE',
      'PAYMENT_PROVIDER_FAILED',
    ],
  },
  {
    method: 'GET',
    path: '/api/pay/getPayList',
    procedure: 'pay.getPayList',
    auth: true,
    tag: 'Pay',
    errors: [],
  },
  {
    method: 'GET',
    path: '/api/pay/getPayInfo',
    procedure: 'pay.getPayInfo',
    auth: true,
    tag: 'Pay',
    errors: ['PAYMENT_NOT_FOUND'],
  },
  {
    method: 'GET',
    path: '/api/pay/getPayment',
    procedure: 'pay.getPayment',
    auth: true,
    tag: 'Pay',
    errors: [],
  },
  {
    method: 'GET',
    path: '/api/pay/payPlan',
    procedure: 'pay.payPlan',
    auth: true,
    tag: 'Pay',
    errors: [
      ...OWN_SESSION,
      'PLAN_NOT_FOUND',
      'FREE_PLAN_NOT_FOR_SALE',
      'INSUFFICIENT_BALANCE',
      'INSUFFICIENT_BALANCE_AFTER_CREDIT',
      'PLAN_SOLD_OUT',
    ],
  },
  {
    method: 'GET',
    path: '/api/pay/getUserPlan',
    procedure: 'pay.getUserPlan',
    auth: true,
    tag: 'Pay',
    errors: [],
  },
  {
    method: 'GET',
    path: '/api/pay/getPlanList',
    procedure: 'pay.getPlanList',
    auth: true,
    tag: 'Pay',
    errors: [],
  },
  {
    method: 'GET',
    path: '/api/pay/switchRenew',
    procedure: 'pay.switchRenew',
    auth: true,
    tag: 'Pay',
    errors: [...OWN_SESSION, 'RENEW_NEEDS_PAID_PLAN'],
  },
  {
    method: 'GET',
    path: '/api/pay/refresh',
    procedure: 'pay.refresh',
    auth: true,
    tag: 'Pay',
    errors: ['PAYMENT_NOT_FOUND', 'PAYMENT_PROVIDER_FAILED'],
  },
  // Not in spec §7: claiming the free plan, a purchase's quote, and the notices billing leaves (rooms stopped,
  // plans renewed or lapsed).
  {
    method: 'POST',
    path: '/api/pay/claimFreePlan',
    procedure: 'pay.claimFreePlan',
    auth: true,
    tag: 'Pay',
    errors: [...OWN_SESSION, 'FREE_PLAN_CLAIMED', 'FREE_PLAN_WHILE_PAID'],
  },
  // What a purchase would cost now (price, credit for the plan held, net), for the confirmation before payPlan.
  {
    method: 'GET',
    path: '/api/pay/quotePlan',
    procedure: 'pay.quotePlan',
    auth: true,
    tag: 'Pay',
    errors: ['PLAN_NOT_FOUND', 'FREE_PLAN_NOT_FOR_SALE'],
  },
  {
    method: 'GET',
    path: '/api/pay/getNotices',
    procedure: 'pay.getNotices',
    auth: true,
    tag: 'Pay',
    errors: [],
  },
  {
    method: 'POST',
    path: '/api/pay/readNotices',
    procedure: 'pay.readNotices',
    auth: true,
    tag: 'Pay',
    errors: [],
  },
  // Not in spec §7: opening an administrator's sign-in link (spec §2 /admintologinuser/{token}).
  {
    method: 'POST',
    path: '/api/user/adminLogin',
    procedure: 'user.adminLogin',
    auth: false,
    tag: 'User',
    errors: ['LOGIN_LINK_INVALID'],
  },
  // The admin area: /api/admin/<group>/<action> for admin.<group>.<action>. Anyone but an administrator gets the
  // answer of a path that does not exist.
  ...adminRoute('GET', 'users.list'),
  ...adminRoute('GET', 'users.get', ['USER_NOT_FOUND']),
  ...adminRoute('POST', 'users.setDisabled', ['USER_NOT_FOUND', 'CANNOT_DISABLE_SELF']),
  ...adminRoute('POST', 'users.setLevel', ['USER_NOT_FOUND']),
  ...adminRoute('POST', 'users.grantPlan', ['USER_NOT_FOUND', 'PLAN_NOT_FOUND']),
  ...adminRoute('POST', 'users.adjustBalance', ['USER_NOT_FOUND', 'ADJUSTMENT_EXCEEDS_BALANCE']),
  ...adminRoute('POST', 'users.sendPasswordReset', ['USER_NOT_FOUND', ...SEND_CODE]),
  ...adminRoute('POST', 'users.endSessions', ['USER_NOT_FOUND']),
  ...adminRoute('POST', 'users.createLoginLink', ['USER_NOT_FOUND']),
  ...adminRoute('GET', 'rooms.list'),
  ...adminRoute('POST', 'rooms.stop', ['ROOM_NOT_FOUND']),
  ...adminRoute('GET', 'reports.list'),
  ...adminRoute('POST', 'reports.resolve', ['REPORT_NOT_FOUND', 'ROOM_NOT_FOUND']),
  ...adminRoute('GET', 'plans.list'),
  ...adminRoute('POST', 'plans.update', ['PLAN_NOT_FOUND', 'PLAN_DEFAULT_DISABLED', 'PLAN_NAME_TAKEN']),
  ...adminRoute('GET', 'payments.list'),
  ...adminRoute('POST', 'payments.refresh', ['PAYMENT_NOT_FOUND', 'PAYMENT_PROVIDER_FAILED']),
  ...adminRoute('POST', 'payments.refund', [
    'PAYMENT_NOT_FOUND',
    'REFUND_NOT_PAID',
    'REFUND_DONE',
    'REFUND_EXCEEDS_BALANCE',
  ]),
  ...adminRoute('GET', 'audit.list'),
] as const satisfies readonly TRestRoute[];

function adminRoute<const M extends 'GET' | 'POST', const P extends string>(
  method: M,
  procedure: P,
  errors: readonly TAppErrorCode[] = [],
) {
  const path = `/api/admin/${procedure.replace('.', '/')}` as const;
  return [{ method, path, procedure: `admin.${procedure}`, auth: true, tag: 'Admin', errors }] as const;
}
