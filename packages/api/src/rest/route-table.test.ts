import { describe, expect, it } from 'vitest';
import { appRouter } from '../root';
import { buildOpenApiDocument } from './openapi';
import { restRoutes } from './route-table';

describe('REST route table', () => {
  it('names only procedures that exist, once each', () => {
    const procedures = Object.keys(appRouter._def.procedures);
    for (const route of restRoutes) expect(procedures).toContain(route.procedure);
    expect(new Set(restRoutes.map((route) => `${route.method} ${route.path}`)).size).toBe(restRoutes.length);
  });

  it('exposes the spec’s user paths', () => {
    const paths = restRoutes.map((route) => `${route.method} ${route.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /api/user/userinfo',
        'POST /api/user/register',
        'POST /api/user/login',
        'POST /api/user/logout',
        'POST /api/user/updatePassword',
        'POST /api/user/sendRegisterCode',
        'POST /api/user/sendResetPasswordCode',
        'POST /api/user/resetPassword',
      ]),
    );
  });

  it('exposes the spec’s sharing paths, and documents the square’s thumbnails beside them', () => {
    const paths = restRoutes.map((route) => `${route.method} ${route.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /api/room/getPublicRoom',
        'GET /api/room/getRoomInfo_share',
        'GET /api/room/getPublicRoomConfig',
        'GET /api/room/getShareDomain',
        'GET /api/room/getMainDomain',
      ]),
    );
    const document = buildOpenApiDocument({ serverUrl: 'http://localhost:3000', version: 'test' });
    const share = document.paths['/api/room/getRoomInfo_share']?.get as { parameters: { name: string }[] };
    expect(share.parameters.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['id', 'name', 'password']),
    );
    expect(document.paths['/api/room/getPublicRoomThumbnail']?.get).toBeDefined();
  });

  it('documents every route with its input', () => {
    const document = buildOpenApiDocument({ serverUrl: 'http://localhost:3000', version: 'test' });
    for (const route of restRoutes) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()] as Record<string, unknown>;
      expect(operation, route.path).toBeDefined();
      expect(operation.summary, route.path).toBeTruthy();
    }
    const verify = document.paths['/api/captcha/verify']?.post as {
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
    };
    expect(Object.keys(verify.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['salt', 'challenge', 'signature', 'number']),
    );
  });
});
