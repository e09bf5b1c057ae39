// What the browser may import: types and schemas only, nothing that pulls in Node or the database.

export type { TAppErrorCode } from './errors';
export type { AppRouter } from './root';
export * from './schemas/captcha';
export * from './schemas/common';
export * from './schemas/self-hosted-captcha';
