// The REST compatibility layer: one Fastify route per entry of the route table, each calling its procedure.
import { buildOpenApiDocument, callRoute, restInput, restRoutes } from '@rooms/api';
import fp from 'fastify-plugin';
import { createRequestContext } from '../context';
import type { TConfig } from '../env';

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
  },
  { name: 'rest', dependencies: ['services'] },
);
