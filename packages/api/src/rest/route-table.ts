// The REST compatibility layer (spec §7): each documented /api path is a procedure of the tRPC router, so the
// React client and third-party scripts run the very same code. A path whose feature has not shipped is absent.
export interface TRestRoute {
  method: 'GET' | 'POST';
  path: `/api/${string}`;
  /** Dotted tRPC path, e.g. 'user.login'. */
  procedure: string;
  /** Needs the session token in the Authorization header. */
  auth: boolean;
  tag: string;
}

export const restRoutes = [
  { method: 'GET', path: '/api/user/userinfo', procedure: 'user.userinfo', auth: true, tag: 'User' },
  { method: 'POST', path: '/api/user/register', procedure: 'user.register', auth: false, tag: 'User' },
  { method: 'POST', path: '/api/user/login', procedure: 'user.login', auth: false, tag: 'User' },
  { method: 'POST', path: '/api/user/logout', procedure: 'user.logout', auth: true, tag: 'User' },
  {
    method: 'POST',
    path: '/api/user/updatePassword',
    procedure: 'user.updatePassword',
    auth: true,
    tag: 'User',
  },
  {
    method: 'POST',
    path: '/api/user/sendRegisterCode',
    procedure: 'user.sendRegisterCode',
    auth: false,
    tag: 'User',
  },
  {
    method: 'POST',
    path: '/api/user/sendResetPasswordCode',
    procedure: 'user.sendResetPasswordCode',
    auth: false,
    tag: 'User',
  },
  {
    method: 'POST',
    path: '/api/user/resetPassword',
    procedure: 'user.resetPassword',
    auth: false,
    tag: 'User',
  },
  { method: 'GET', path: '/api/captcha/config', procedure: 'captcha.config', auth: false, tag: 'Captcha' },
  {
    method: 'GET',
    path: '/api/captcha/challenge',
    procedure: 'captcha.challenge',
    auth: false,
    tag: 'Captcha',
  },
  { method: 'POST', path: '/api/captcha/verify', procedure: 'captcha.verify', auth: false, tag: 'Captcha' },
  { method: 'GET', path: '/api/room/getRoomList', procedure: 'room.getRoomList', auth: true, tag: 'Room' },
  { method: 'GET', path: '/api/room/getRoomInfo', procedure: 'room.getRoomInfo', auth: true, tag: 'Room' },
  {
    method: 'GET',
    path: '/api/room/getRoomConfig',
    procedure: 'room.getRoomConfig',
    auth: true,
    tag: 'Room',
  },
  {
    method: 'GET',
    path: '/api/room/getRoomRegion',
    procedure: 'room.getRoomRegion',
    auth: true,
    tag: 'Room',
  },
  { method: 'GET', path: '/api/room/getRoomImage', procedure: 'room.getRoomImage', auth: true, tag: 'Room' },
  { method: 'POST', path: '/api/room/createRoom', procedure: 'room.createRoom', auth: true, tag: 'Room' },
  { method: 'POST', path: '/api/room/deleteRoom', procedure: 'room.deleteRoom', auth: true, tag: 'Room' },
  { method: 'POST', path: '/api/room/startRoom', procedure: 'room.startRoom', auth: true, tag: 'Room' },
  { method: 'POST', path: '/api/room/stopRoom', procedure: 'room.stopRoom', auth: true, tag: 'Room' },
  { method: 'POST', path: '/api/room/restartRoom', procedure: 'room.restartRoom', auth: true, tag: 'Room' },
  { method: 'GET', path: '/api/room/updateState', procedure: 'room.updateState', auth: true, tag: 'Room' },
  {
    method: 'GET',
    path: '/api/room/getPublicRoom',
    procedure: 'room.getPublicRoom',
    auth: false,
    tag: 'Room',
  },
  {
    method: 'GET',
    path: '/api/room/getRoomInfo_share',
    procedure: 'room.getRoomInfo_share',
    auth: false,
    tag: 'Room',
  },
  {
    method: 'GET',
    path: '/api/room/getPublicRoomConfig',
    procedure: 'room.getPublicRoomConfig',
    auth: false,
    tag: 'Room',
  },
  {
    method: 'GET',
    path: '/api/room/getShareDomain',
    procedure: 'room.getShareDomain',
    auth: false,
    tag: 'Room',
  },
  {
    method: 'GET',
    path: '/api/room/getMainDomain',
    procedure: 'room.getMainDomain',
    auth: false,
    tag: 'Room',
  },
  // Not in spec §7: the owner's share settings and members' reports, offered over REST like the rest.
  {
    method: 'POST',
    path: '/api/room/updateRoomShare',
    procedure: 'room.updateRoomShare',
    auth: true,
    tag: 'Room',
  },
  { method: 'POST', path: '/api/room/reportRoom', procedure: 'room.reportRoom', auth: false, tag: 'Room' },
  // Not in spec §7: the /serverstate screen's data, offered over REST like every other procedure.
  {
    method: 'GET',
    path: '/api/server/getServerState',
    procedure: 'server.getServerState',
    auth: true,
    tag: 'Server',
  },
  // spec §7 Pay. payPlan, switchRenew and refresh change things but are GET, as the spec lists them.
  { method: 'POST', path: '/api/pay/recharge', procedure: 'pay.recharge', auth: true, tag: 'Pay' },
  { method: 'GET', path: '/api/pay/getPayList', procedure: 'pay.getPayList', auth: true, tag: 'Pay' },
  { method: 'GET', path: '/api/pay/getPayInfo', procedure: 'pay.getPayInfo', auth: true, tag: 'Pay' },
  { method: 'GET', path: '/api/pay/getPayment', procedure: 'pay.getPayment', auth: true, tag: 'Pay' },
  { method: 'GET', path: '/api/pay/payPlan', procedure: 'pay.payPlan', auth: true, tag: 'Pay' },
  { method: 'GET', path: '/api/pay/getUserPlan', procedure: 'pay.getUserPlan', auth: true, tag: 'Pay' },
  { method: 'GET', path: '/api/pay/getPlanList', procedure: 'pay.getPlanList', auth: true, tag: 'Pay' },
  { method: 'GET', path: '/api/pay/switchRenew', procedure: 'pay.switchRenew', auth: true, tag: 'Pay' },
  { method: 'GET', path: '/api/pay/refresh', procedure: 'pay.refresh', auth: true, tag: 'Pay' },
  // Not in spec §7: claiming the free plan, a purchase's quote, and the notices billing leaves (rooms stopped,
  // plans renewed or lapsed).
  { method: 'POST', path: '/api/pay/claimFreePlan', procedure: 'pay.claimFreePlan', auth: true, tag: 'Pay' },
  // What a purchase would cost now (price, credit for the plan held, net), for the confirmation before payPlan.
  { method: 'GET', path: '/api/pay/quotePlan', procedure: 'pay.quotePlan', auth: true, tag: 'Pay' },
  { method: 'GET', path: '/api/pay/getNotices', procedure: 'pay.getNotices', auth: true, tag: 'Pay' },
  { method: 'POST', path: '/api/pay/readNotices', procedure: 'pay.readNotices', auth: true, tag: 'Pay' },
  // Not in spec §7: opening an administrator's sign-in link (spec §2 /admintologinuser/{token}).
  { method: 'POST', path: '/api/user/adminLogin', procedure: 'user.adminLogin', auth: false, tag: 'User' },
  // The admin area: /api/admin/<group>/<action> for admin.<group>.<action>. Anyone but an administrator gets the
  // answer of a path that does not exist.
  ...adminRoute('GET', 'users.list'),
  ...adminRoute('GET', 'users.get'),
  ...adminRoute('POST', 'users.setDisabled'),
  ...adminRoute('POST', 'users.setLevel'),
  ...adminRoute('POST', 'users.grantPlan'),
  ...adminRoute('POST', 'users.adjustBalance'),
  ...adminRoute('POST', 'users.sendPasswordReset'),
  ...adminRoute('POST', 'users.endSessions'),
  ...adminRoute('POST', 'users.createLoginLink'),
  ...adminRoute('GET', 'rooms.list'),
  ...adminRoute('POST', 'rooms.stop'),
  ...adminRoute('GET', 'reports.list'),
  ...adminRoute('POST', 'reports.resolve'),
  ...adminRoute('GET', 'plans.list'),
  ...adminRoute('POST', 'plans.update'),
  ...adminRoute('GET', 'payments.list'),
  ...adminRoute('POST', 'payments.refresh'),
  ...adminRoute('POST', 'payments.refund'),
  ...adminRoute('GET', 'audit.list'),
] as const satisfies readonly TRestRoute[];

function adminRoute<const M extends 'GET' | 'POST', const P extends string>(method: M, procedure: P) {
  const path = `/api/admin/${procedure.replace('.', '/')}` as const;
  return [{ method, path, procedure: `admin.${procedure}`, auth: true, tag: 'Admin' }] as const;
}
