// The REST compatibility layer: one Fastify route per procedure that declares a REST path in its meta
// (`restRoutes`, read off the router in packages/api rest/route-table.ts), each calling its procedure.
import { AppError, buildOpenApiDocument, callRoute, restInput, restRoutes } from '@rooms/api';
import fp from 'fastify-plugin';
import { createRequestContext } from '../context';
import type { TConfig } from '../env';

/** The methods a documented path answers 405 to when it does not take them (HEAD goes with GET). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

export const restPlugin = fp(
  async (app, options: { config: TConfig; version: string }) => {
    for (const route of restRoutes) {
      app.route({
        method: route.method,
        url: route.path,
        handler: async (request, reply) => {
          const ctx = await createRequestContext(app, request);
          const result = await callRoute(ctx, route, restInput(route, request.query, request.body));
          // 500 is our bug; 502/503 are a mail server or captcha provider we depend on being down.
          if (result.status === 500) request.log.error({ err: result.error }, `${route.path} failed`);
          else if (result.status > 500)
            request.log.warn({ err: result.error }, `${route.path}: upstream failure`);
          return reply.code(result.status).send(result.body);
        },
      });
    }

    const document = buildOpenApiDocument({ serverUrl: options.config.publicUrl, version: options.version });
    app.get('/api/openapi.json', async () => document);

    // A documented path asked with a method it does not take is not a missing path: 405 says which one it takes
    // (the Allow header and the text), in the envelope like every other refusal. The paths come from the OpenAPI
    // document, so the thumbnails served beside the procedures are covered too.
    for (const [path, operations] of Object.entries(document.paths)) {
      const allowed = Object.keys(operations).map((method) => method.toUpperCase());
      if (allowed.includes('GET')) allowed.push('HEAD');
      const refused = METHODS.filter((method) => !allowed.includes(method));
      const allow = allowed.join(', ');
      app.route({
        method: refused,
        url: path,
        handler: async (request, reply) =>
          reply
            .code(405)
            .header('allow', allow)
            .send({
              msg: 'error',
              data: new AppError('METHOD_NOT_ALLOWED', { args: [request.method, allow] }).message,
            }),
      });
    }
  },
  { name: 'rest', dependencies: ['services'] },
);
