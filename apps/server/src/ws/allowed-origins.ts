// Which pages may open a room socket: those served from this install's own addresses, as configured. Never the
// request's Host: a DNS-rebinding page (evil.example resolving to this server) sends an Origin equal to the Host
// it addressed, so matching the two would let any site's page ride a visitor's session.
import type { TConfig } from '../env';

/** A page on one of these names is on this machine: DNS rebinding hands out the attacker's name, never these. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export type TOriginCheck = (origin: string) => boolean;

/**
 * PUBLIC_URL and SHARE_URL, and the ACME names HTTPS is served for. Without PUBLIC_URL (development, `npm start`)
 * also any loopback page: the server's own http://localhost:PORT and http://127.0.0.1:PORT, and a dev server on
 * another port that proxies /ws (Vite keeps the page's Origin). An install reached by another name sets PUBLIC_URL.
 */
export function allowedOrigins(
  config: Pick<TConfig, 'publicUrl' | 'shareUrl' | 'fixedUrls' | 'tls' | 'port'>,
): TOriginCheck {
  const origins = new Set([new URL(config.publicUrl).origin, new URL(config.shareUrl).origin]);
  if (config.tls?.kind === 'acme') {
    const port = config.port === 443 ? '' : `:${config.port}`;
    for (const domain of config.tls.domains) origins.add(`https://${domain}${port}`);
  }
  const loopbackToo = !config.fixedUrls.publicUrl;
  return (origin) => {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return false;
    }
    if (origins.has(parsed.origin)) return true;
    return loopbackToo && /^https?:$/.test(parsed.protocol) && LOOPBACK_HOSTS.has(parsed.hostname);
  };
}
