export type { TApiConfig, TContext, TRequestInfo, TServices } from './context';
export { isDatabaseOutage } from './database-outage';
export {
  resolveSession,
  SessionCache,
  type TAccount,
  type TSessionChange,
  type TSessionUser,
  watchAccountChanges,
} from './domains/accounts';
export * as admin from './domains/admin';
export * as billing from './domains/billing';
export * as fleet from './domains/fleet';
export {
  checkShareAccess,
  effectiveSettings,
  isPasswordHash,
  ROOM_DEFAULTS,
  ROOM_PASSWORD_LIMITS,
  RoomListCache,
  resumeRoom,
  setSharePasswordHasher,
  storeRoomStates,
  storeRunState,
  type TShareAccess,
  watchRoomListWrites,
} from './domains/rooms';
export { AppError, describeError, errorSpec, type TAppErrorCode } from './errors';
export { callRoute, restInput, type TRestEnvelope, type TRestReply } from './rest/call-route';
export { buildOpenApiDocument } from './rest/openapi';
export { restRoutes, type TRestRoute } from './rest/route-table';
export { type AppRouter, appRouter, createCaller } from './root';
export * from './routers/pay/pay.types';
export {
  IMAGE_AND_ZONE_REQUIRED,
  type TCreateRoomRequest,
  ZCreateRoomRequest,
} from './routers/room/create-room.types';
export { type TRoomConfig, ZRoomConfig } from './routers/room/get-room-config.types';
export { type TGetRoomImageReply, ZGetRoomImageReply } from './routers/room/get-room-image.types';
export { type TGetRoomRegionReply, ZGetRoomRegionReply } from './routers/room/get-room-region.types';
export { type TPlanLimits, ZPlanLimits } from './routers/room/plan-limits.types';
export {
  ROOM_NAME_MAX_LENGTH,
  ROOM_NAME_PATTERN,
  type TRoomInfo,
  type TRoomListItem,
  type TRoomStateReply,
  type TRoomTarget,
  ZRoomInfo,
  ZRoomListItem,
  ZRoomName,
  ZRoomState,
  ZRoomStateReply,
  ZRoomTarget,
} from './routers/room/room.types';
export {
  publicRoomThumbnailPath,
  REPORT_REASON_MAX_LENGTH,
  type TPublicRoom,
  type TSharedRoomInfo,
  ZPublicRoom,
  ZSharedRoomInfo,
} from './routers/room/share.types';
export { toServerNode } from './routers/server/get-server-state';
export {
  type TServerNode,
  type TServerState,
  ZServerState,
} from './routers/server/get-server-state.types';
export { ZUsername } from './routers/user/register.types';
export * from './schemas/captcha';
export * from './schemas/common';
export * from './schemas/self-hosted-captcha';
export type { NodeMonitor, TNodeState, TStartLatency } from './services/node-monitor';
export type {
  PaymentGateway,
  PaymentProvider,
  TCheckout,
  TCheckoutRequest,
  TPaymentMethod,
  TProviderStatus,
} from './services/payments';
export type {
  CaptchaVerifier,
  Mailer,
  OnceStore,
  PasswordHasher,
  RateLimiter,
  RoomPresence,
  SecretBox,
  SessionEvents,
  TCaptchaProvider,
  TMailMessage,
  TSessionEnd,
} from './services/ports';
export type {
  RoomEngine,
  TRoomLaunchSpec,
  TRoomMediaStats,
  TRoomRuntimeState,
  TRoomStateChange,
} from './services/room-engine';
export type { SelfHostedCaptcha } from './services/self-hosted-captcha';
