// How this process is reached: its address and port, HTTPS (certificate files or ACME), the public addresses its
// links carry, the proxies in front of it and the web build it serves.
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { TEnv } from '../env';
import { REPO_ROOT } from '../paths';
import { commaList, optionalPort, optionalString, type TReport } from './variable';

export const httpVariables = {
  HOST: z.string().default('0.0.0.0'),
  /** Unset: 443 when ACME_DOMAINS is set (the port browsers assume for https), 3000 otherwise. */
  PORT: optionalPort(0),
  /**
   * HTTPS served by this process itself (tls/): a PEM certificate (chain) and its private key, both readable by
   * the server. A renewal that rewrites the files is picked up without a restart.
   */
  TLS_CERT_FILE: optionalString,
  TLS_KEY_FILE: optionalString,
  /**
   * HTTPS with certificates obtained automatically over ACME (Let's Encrypt unless ACME_DIRECTORY_URL says
   * otherwise) for these comma-separated domain names, which must point at this machine, with port 80
   * (HTTP_PORT) reachable for the HTTP-01 challenge; renewed ahead of expiry without a restart.
   */
  ACME_DOMAINS: optionalString,
  /** The contact the certificate authority warns about expiring certificates and problems. */
  ACME_EMAIL: optionalString.pipe(z.email().optional()),
  ACME_DIRECTORY_URL: optionalString.pipe(z.url().optional()),
  /** PEM certificates the ACME directory's own HTTPS is checked against: a private CA, or a local test CA. */
  ACME_CA_FILE: optionalString,
  /**
   * With HTTPS on: a plain-HTTP port that answers ACME challenges (/.well-known/acme-challenge/) and sends every
   * other request to the HTTPS address. Unset: 80 with ACME_DOMAINS, none with certificate files.
   */
  HTTP_PORT: optionalPort(0),
  PUBLIC_URL: z.url().optional(),
  /** Where share links point, when shared rooms live on a domain of their own; PUBLIC_URL otherwise. */
  SHARE_URL: optionalString.pipe(z.url().optional()),
  // How many proxies in front of this server to believe about the client's address (X-Forwarded-For):
  // 'true' is one. Trusting every hop would let a client write its own address, and so dodge per-address
  // limits and bans.
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2})$/, 'must be true, false or a number of proxy hops')
    .default('false')
    .transform((value) => (value === 'true' ? 1 : value === 'false' ? 0 : Number(value))),
  WEB_DIST: z.string().default(join(REPO_ROOT, 'apps/web/dist')),
};

/** A DNS name of at least two labels, as a public certificate authority issues for. */
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

function acmeDomainsOf(value: string | undefined): string[] {
  return [...new Set(commaList((value ?? '').toLowerCase()))];
}

/** Let's Encrypt's production directory, the default certificate authority. */
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

export function httpIssues(env: TEnv, report: TReport): void {
  if (Boolean(env.TLS_CERT_FILE) !== Boolean(env.TLS_KEY_FILE)) {
    report(
      env.TLS_CERT_FILE ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE',
      'is required with the other: HTTPS needs both the certificate and its private key',
    );
  }
  if (env.TLS_CERT_FILE && env.ACME_DOMAINS) {
    report(
      'ACME_DOMAINS',
      'cannot be used with TLS_CERT_FILE: choose certificate files or automatic certificates',
    );
  }
  for (const domain of acmeDomainsOf(env.ACME_DOMAINS)) {
    if (!HOST_NAME.test(domain)) {
      report(
        'ACME_DOMAINS',
        `${domain} is not a domain name (an ACME certificate names domains, not addresses or wildcards)`,
      );
    }
  }
  if (!env.ACME_DOMAINS) {
    for (const name of ['ACME_EMAIL', 'ACME_DIRECTORY_URL', 'ACME_CA_FILE'] as const) {
      if (env[name]) report(name, 'has no effect without ACME_DOMAINS');
    }
  }
  if (env.HTTP_PORT !== undefined && !env.TLS_CERT_FILE && !env.ACME_DOMAINS) {
    report(
      'HTTP_PORT',
      'is the plain-HTTP port beside HTTPS; without TLS_CERT_FILE or ACME_DOMAINS, PORT serves HTTP',
    );
  }
}

/** How this process serves HTTPS, if it does (tls/https-serving.ts); null: plain HTTP. */
function tlsOf(env: TEnv) {
  if (env.TLS_CERT_FILE && env.TLS_KEY_FILE) {
    return {
      kind: 'files' as const,
      certFile: resolve(env.TLS_CERT_FILE),
      keyFile: resolve(env.TLS_KEY_FILE),
      httpPort: env.HTTP_PORT,
    };
  }
  const domains = acmeDomainsOf(env.ACME_DOMAINS);
  if (domains.length === 0) return null;
  return {
    kind: 'acme' as const,
    domains,
    email: env.ACME_EMAIL,
    directoryUrl: env.ACME_DIRECTORY_URL ?? LETS_ENCRYPT_DIRECTORY,
    caFile: env.ACME_CA_FILE ? resolve(env.ACME_CA_FILE) : undefined,
    /** Where the account key and the certificates are kept across restarts. */
    stateDir: join(env.DATA_DIR, 'acme'),
    httpPort: env.HTTP_PORT ?? 80,
  };
}

export function httpConfig(env: TEnv) {
  const port = env.PORT ?? (acmeDomainsOf(env.ACME_DOMAINS).length > 0 ? 443 : 3000);
  const tls = tlsOf(env);
  const defaultHost = tls?.kind === 'acme' ? tls.domains[0] : 'localhost';
  const defaultPort = port === (tls ? 443 : 80) ? '' : `:${port}`;
  const publicUrl = (env.PUBLIC_URL ?? `${tls ? 'https' : 'http'}://${defaultHost}${defaultPort}`).replace(
    /\/$/,
    '',
  );
  return {
    host: env.HOST,
    port,
    /** HTTPS served by this process; null: plain HTTP (behind a proxy that terminates TLS, or on localhost). */
    tls,
    publicUrl,
    /** The address share links start with (SHARE_URL, else publicUrl); no trailing slash. */
    shareUrl: env.SHARE_URL?.replace(/\/$/, '') ?? publicUrl,
    /** Which of PUBLIC_URL and SHARE_URL were set; unset ones follow the request's address in on-screen links. */
    fixedUrls: { publicUrl: env.PUBLIC_URL !== undefined, shareUrl: env.SHARE_URL !== undefined },
    /** Proxy hops whose X-Forwarded-For is believed; 0 believes none. */
    trustProxy: env.TRUST_PROXY,
    webDist: resolve(env.WEB_DIST),
  };
}
