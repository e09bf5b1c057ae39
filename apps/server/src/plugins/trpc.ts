import { type AppRouter, appRouter, describeError } from '@rooms/api';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import fp from 'fastify-plugin';
import { createRequestContext } from '../context';

export const trpcPlugin = fp(
  async (app) => {
    await app.register(fastifyTRPCPlugin, {
      prefix: '/trpc',
      trpcOptions: {
        router: appRouter,
        createContext: ({ req }) => createRequestContext(app, req),
        onError({ error, path }) {
          if (describeError(error).status >= 500)
            app.log.error({ err: error, path }, 'tRPC procedure failed');
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    });
  },
  { name: 'trpc', dependencies: ['services'] },
);
