import type { AnyProcedure } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../root';
import { ownSessionProcedure, publicProcedure } from '../trpc';
import { buildOpenApiDocument } from './openapi';
import { restRoutes } from './route-table';

const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;

describe('REST route table', () => {
  it('gives each path and method one procedure', () => {
    expect(new Set(restRoutes.map((route) => `${route.method} ${route.path}`)).size).toBe(restRoutes.length);
  });

  it('offers every procedure over REST but those reached over tRPC alone', () => {
    const offered = new Set(restRoutes.map((route) => route.procedure));
    expect(Object.keys(procedures).filter((procedure) => !offered.has(procedure))).toEqual([
      'room.getRoomEntry',
      'room.getShareInvite',
      'server.getSiteInfo',
    ]);
  });

  it('declares the session each procedure’s builder asks for', () => {
    const [publicCheck] = publicProcedure._def.middlewares;
    const ownSessionCheck = ownSessionProcedure._def.middlewares.at(-1);
    for (const route of restRoutes) {
      // A built procedure keeps its builder's middlewares in its definition, which its type leaves out.
      const { middlewares } = procedures[route.procedure]!._def as unknown as { middlewares: unknown[] };
      expect(route.auth, route.path).toBe(middlewares[0] !== publicCheck);
      // An administrator signed in as the user is refused, and the document says so.
      if (middlewares.includes(ownSessionCheck))
        expect(route.errors, route.path).toContain('IMPERSONATION_FORBIDDEN');
    }
  });

  it('exposes the spec’s room paths', () => {
    const paths = restRoutes.map((route) => `${route.method} ${route.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /api/room/getRoomList',
        'GET /api/room/getRoomInfo',
        'GET /api/room/getRoomConfig',
        'GET /api/room/getRoomRegion',
        'GET /api/room/getRoomImage',
        'POST /api/room/createRoom',
        'POST /api/room/deleteRoom',
        'POST /api/room/startRoom',
        'POST /api/room/stopRoom',
        'POST /api/room/restartRoom',
        'GET /api/room/updateState',
      ]),
    );
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

  it('exposes the spec’s pay paths', () => {
    const paths = restRoutes.map((route) => `${route.method} ${route.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'POST /api/pay/recharge',
        'GET /api/pay/getPayList',
        'GET /api/pay/getPayInfo',
        'GET /api/pay/getPayment',
        'GET /api/pay/payPlan',
        'GET /api/pay/getUserPlan',
        'GET /api/pay/getPlanList',
        'GET /api/pay/switchRenew',
        'GET /api/pay/refresh',
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
