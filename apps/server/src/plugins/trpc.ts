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
        // Queries may come as POST: the web app sends those carrying a share password that way, out of URLs.
        allowMethodOverride: true,
        createContext: ({ req }) => createRequestContext(app, req),
        onError({ error, path }) {
          const { status } = describeError(error);
          if (status === 500) app.log.error({ err: error, path }, 'tRPC procedure failed');
          else if (status > 500) app.log.warn({ err: error, path }, 'tRPC procedure: upstream failure');
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    });
  },
  { name: 'trpc', dependencies: ['services'] },
);
