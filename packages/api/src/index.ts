export { resolveSession, type TSessionUser } from './account/session';
export type { TApiConfig, TContext, TRequestInfo, TServices } from './context';
export { AppError, describeError, errorSpec, type TAppErrorCode } from './errors';
export { callRoute, restInput, type TRestEnvelope, type TRestReply } from './rest/call-route';
export { buildOpenApiDocument } from './rest/openapi';
export { restRoutes, type TRestRoute } from './rest/route-table';
export { type AppRouter, appRouter, createCaller } from './root';
export { ZUsername } from './routers/user/register.types';
export * from './schemas/captcha';
export * from './schemas/common';
export * from './schemas/self-hosted-captcha';
export type {
  CaptchaVerifier,
  Mailer,
  OnceStore,
  PasswordHasher,
  RateLimiter,
  TCaptchaProvider,
  TMailMessage,
} from './services/ports';
export type { SelfHostedCaptcha } from './services/self-hosted-captcha';
