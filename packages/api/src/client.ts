// What the browser may import: types and schemas only, nothing that pulls in Node or the database.

export type { TAppErrorCode } from './errors';
export type { AppRouter } from './root';
export {
  isReturnPath,
  type TPayment,
  type TPlanView,
  type TQuotePlan,
  type TSwitchRenewReply,
  type TUserPlan,
} from './routers/pay/pay.types';
export { ROOM_NAME_MAX_LENGTH, ROOM_NAME_PATTERN } from './routers/room/room.types';
export {
  REPORT_REASON_MAX_LENGTH,
  type TPublicRoom,
  type TSharedRoomInfo,
} from './routers/room/share.types';
export type { TServerNode, TServerState, TServerView } from './routers/server/get-server-state.types';
export * from './schemas/captcha';
export * from './schemas/common';
export * from './schemas/self-hosted-captcha';
