// The plain-HTTP port beside HTTPS: it answers the certificate authority's HTTP-01 challenges and sends everyone
// else to the HTTPS address, so that `http://rooms.example.com` still reaches the rooms, over a secure context.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

export const ACME_CHALLENGE_PATH = '/.well-known/acme-challenge/';

/** Key authorizations of the challenges in flight, by token (acme-certificates.ts fills it). */
export type TAcmeChallenges = Map<string, string>;

export interface TPlainHttpListener {
  server: Server;
  port: number;
  close(): Promise<void>;
}

export async function startPlainHttpListener(options: {
  host: string;
  port: number;
  challenges: TAcmeChallenges;
  /** Where to send browsers: the fixed public origin, or null to keep the host they asked for. */
  httpsOrigin: string | null;
  /** The HTTPS port, once it listens (PORT=0 picks one). */
  httpsPort: () => number;
}): Promise<TPlainHttpListener> {
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    if (url.startsWith(ACME_CHALLENGE_PATH)) {
      const answer = options.challenges.get(url.slice(ACME_CHALLENGE_PATH.length));
      response.writeHead(answer ? 200 : 404, { 'content-type': 'text/plain' });
      response.end(answer ?? 'no such challenge');
      return;
    }
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    const origin =
      options.httpsOrigin ??
      (host ? `https://${host}${options.httpsPort() === 443 ? '' : `:${options.httpsPort()}`}` : null);
    if (!origin) {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end('This server answers over HTTPS.');
      return;
    }
    // 308 keeps a POST a POST; browsers follow it the same as a 301.
    response.writeHead(308, { location: `${origin}${url}` });
    response.end();
  });
  server.listen(options.port, options.host);
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([error]) => {
      throw error;
    }),
  ]);
  const address = server.address();
  return {
    server,
    port: address && typeof address === 'object' ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
