// Helmet's security headers on every answer, with a Content-Security-Policy written for this web app: its own
// scripts only (the captcha's module worker and the sound AudioWorklet are files of the build), the room
// picture and QR codes as blob:/data: images, avatars from any https address, the room WebSocket to this
// server, and inline styles (the UI library positions popovers with them). Nothing may frame the app.
// Helmet itself, built once: the Fastify wrapper built a new Helmet (parsing every directive) on each request.
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
    // Helmet 8 throws instead of passing an error on; it has none to pass for these fixed options.
    app.addHook('onRequest', (request, reply, done) => applyHeaders(request.raw, reply.raw, () => done()));
  },
  { name: 'security-headers' },
);
