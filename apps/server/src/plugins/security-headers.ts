// Helmet's security headers on every answer, with a Content-Security-Policy written for this web app: its own
// scripts only (the captcha's module worker and the sound AudioWorklet are files of the build), the room
// picture and QR codes as blob:/data: images, avatars from any https address, the room WebSocket to this
// server, and inline styles (the UI library positions popovers with them). Nothing may frame the app.
// Helmet itself, built once: the Fastify wrapper built a new Helmet (parsing every directive) on each request. Its
// headers depend on nothing in the request, so they are taken from it once and set from that list on every answer
// (running its dozen middlewares per request cost as much as a signed-in read's own work).
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { TConfig } from '../env';

export const securityHeadersPlugin = fp(
  async (app, options: { config: TConfig }) => {
    const https = options.config.publicUrl.startsWith('https:');
    const applyHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          mediaSrc: ["'self'", 'blob:'],
          fontSrc: ["'self'", 'data:'],
          // 'self' covers ws: and wss: to this same host.
          connectSrc: ["'self'"],
          workerSrc: ["'self'", 'blob:'],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          // Behind plain http (development, tests) an upgrade would break every request.
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      frameguard: { action: 'deny' },
      // Only over https: a browser ignores it on http, and a development machine should not remember it.
      strictTransportSecurity: https ? { maxAge: 180 * 24 * 60 * 60 } : false,
    });
    const headers: Record<string, string | number | string[]> = {};
    const recorder = {
      setHeader: (name: string, value: string | number | readonly string[]) => {
        headers[name.toLowerCase()] = typeof value === 'object' ? [...value] : value;
      },
      // Helmet removes X-Powered-By, which Fastify never sets.
      removeHeader: () => {},
    };
    // Helmet 8 throws instead of passing an error on; it has none to pass for these fixed options.
    applyHeaders(
      {} as Parameters<typeof applyHeaders>[0],
      recorder as unknown as Parameters<typeof applyHeaders>[1],
      () => {},
    );
    // Fastify's own headers, not the raw response's: with nothing set on the raw response Node writes the head
    // from Fastify's list in one pass instead of validating and storing each header twice.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
