// HTTPS served by the process itself, for one server on the Internet without a proxy in front: browsers give a
// page WebCodecs and AudioWorklet only in a secure context, so over plain HTTP anywhere but localhost a room falls
// back to still pictures without sound. The certificate comes from files (TLS_CERT_FILE/TLS_KEY_FILE) or from an
// ACME authority (ACME_DOMAINS); either way a new one replaces the served one without a restart.
import type { Server as TlsServer } from 'node:tls';
import type { TConfig } from '../env';
import { AcmeCertificates } from './acme-certificates';
import { watchCertificateFiles } from './certificate-file-watch';
import { readCertificateFiles, type TCertificatePair, TlsSetupError } from './certificate-pair';
import { startPlainHttpListener, type TAcmeChallenges, type TPlainHttpListener } from './plain-http-listener';

export interface TTlsLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface TTlsServing {
  /** Fastify's `https` option: the certificate served from the start. */
  https: { cert: string; key: string };
  /** The plain-HTTP listener beside HTTPS (challenges and redirects), if there is one. */
  plainHttp: TPlainHttpListener | null;
  /** From now on every new certificate is applied to `server` (tls.Server#setSecureContext). */
  attach(server: TlsServer): void;
  close(): Promise<void>;
}

export interface TTlsServingOptions {
  /** How often certificate files are looked at (tests shorten it). */
  pollMs?: number;
}

/** Null when the configuration serves plain HTTP. Throws TlsSetupError for a setup the operator must fix. */
export async function openTlsServing(
  config: Pick<TConfig, 'tls' | 'host' | 'port' | 'publicUrl' | 'fixedUrls'>,
  log: TTlsLog,
  options: TTlsServingOptions = {},
): Promise<TTlsServing | null> {
  const tls = config.tls;
  if (!tls) return null;
  const challenges: TAcmeChallenges = new Map();
  let server: TlsServer | null = null;
  const plainHttp =
    tls.httpPort === undefined
      ? null
      : await startPlainHttpListener({
          host: config.host,
          port: tls.httpPort,
          challenges,
          httpsOrigin: config.fixedUrls.publicUrl ? new URL(config.publicUrl).origin : null,
          httpsPort: () => {
            const address = server?.address();
            return address && typeof address === 'object' ? address.port : config.port;
          },
        }).catch((error: NodeJS.ErrnoException) => {
          throw new TlsSetupError(
            `HTTP_PORT ${tls.httpPort} cannot be opened (${error.code ?? error.message})${
              error.code === 'EACCES' ? ': ports below 1024 need root or CAP_NET_BIND_SERVICE' : ''
            }`,
          );
        });
  const apply = (pair: TCertificatePair, why: string) => {
    server?.setSecureContext({ cert: pair.cert, key: pair.key });
    log.info(
      `HTTPS: ${why}; now serving the certificate for ${pair.names.join(', ')} valid until ${pair.notAfter.toISOString()}`,
    );
  };
  try {
    if (tls.kind === 'files') {
      const pair = await readCertificateFiles(tls.certFile, tls.keyFile);
      warnIfExpired(pair, log);
      let watch: ReturnType<typeof watchCertificateFiles> | null = null;
      return {
        https: { cert: pair.cert, key: pair.key },
        plainHttp,
        attach(target) {
          server = target;
          watch ??= watchCertificateFiles({
            certFile: tls.certFile,
            keyFile: tls.keyFile,
            current: pair.fingerprint,
            pollMs: options.pollMs,
            onPair: (next) => {
              warnIfExpired(next, log);
              apply(next, 'the certificate files changed');
            },
            onError: (error) =>
              log.error(
                `HTTPS: the changed certificate files are not used (the served one stays): ${error.message}`,
              ),
          });
        },
        async close() {
          watch?.stop();
          await plainHttp?.close();
        },
      };
    }
    if (!plainHttp) throw new TlsSetupError('ACME needs HTTP_PORT for its challenges');
    const certificates = await AcmeCertificates.open({ ...tls, challenges, log });
    return {
      https: { cert: certificates.current.cert, key: certificates.current.key },
      plainHttp,
      attach(target) {
        server = target;
        certificates.start((pair) => apply(pair, 'the certificate was renewed'));
      },
      async close() {
        certificates.stop();
        await plainHttp.close();
      },
    };
  } catch (error) {
    await plainHttp?.close();
    throw error;
  }
}

function warnIfExpired(pair: TCertificatePair, log: TTlsLog): void {
  if (pair.notAfter.getTime() < Date.now()) {
    log.warn(`HTTPS: the certificate ran out on ${pair.notAfter.toISOString()}; browsers will refuse it`);
  }
}
