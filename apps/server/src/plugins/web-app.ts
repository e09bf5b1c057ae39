// Serves the built React app, with index.html for every client-side route (SPA fallback). Unknown /api and
// /trpc paths stay 404s in the API's own envelope.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

const API_PREFIXES = ['/api/', '/trpc/', '/ws/', '/dev/'];

export const webAppPlugin = fp(
  async (app, options: { webDist: string }) => {
    const hasBuild = existsSync(join(options.webDist, 'index.html'));
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root: options.webDist,
        wildcard: false,
        cacheControl: false,
        // Vite fingerprints everything under assets/; the HTML must always be fetched fresh.
        setHeaders: (res, path) =>
          res.setHeader(
            'cache-control',
            path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          ),
      });
    } else {
      app.log.warn({ webDist: options.webDist }, 'no web build found; run `npm run build` to serve the app');
    }

    app.setNotFoundHandler((request, reply) => {
      const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
      if (isApi || request.method !== 'GET' || !hasBuild) {
        return reply.code(404).send({ msg: 'error', data: 'Not found' });
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .sendFile('index.html');
    });
  },
  { name: 'web-app' },
);
