// A certificate and its private key, checked before a server is handed them: an operator's mistake (a wrong path,
// a key of another certificate, a file that is not PEM) is told in one sentence, not as OpenSSL's stack trace.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';

/** A TLS set-up the operator has to fix; its message is the whole story. */
export class TlsSetupError extends Error {
  override name = 'TlsSetupError';
}

export interface TCertificatePair {
  /** The certificate chain, leaf first (PEM). */
  cert: string;
  key: string;
  notBefore: Date;
  notAfter: Date;
  /** The names the leaf is for (its subject alternative names). */
  names: string[];
  /** SHA-256 of the leaf, to tell one certificate from its renewal. */
  fingerprint: string;
}

/** Where a pair came from, in the words of the configuration (e.g. `TLS_CERT_FILE /etc/…/fullchain.pem`). */
export interface TPairSource {
  cert: string;
  key: string;
}

export function certificatePairOf(cert: string, key: string, source: TPairSource): TCertificatePair {
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
  } catch {
    throw new TlsSetupError(`${source.cert} holds no PEM certificate ("-----BEGIN CERTIFICATE-----")`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new TlsSetupError(
      `${source.key} holds no private key that can be read (PEM, not protected by a passphrase)`,
    );
  }
  if (!leaf.checkPrivateKey(privateKey)) {
    throw new TlsSetupError(
      `the private key in ${source.key} does not belong to the certificate in ${source.cert}`,
    );
  }
  try {
    // What the server itself will do with them: anything OpenSSL still refuses is caught here, at start-up.
    createSecureContext({ cert, key });
  } catch (error) {
    throw new TlsSetupError(
      `${source.cert} and ${source.key} cannot serve TLS: ${error instanceof Error ? error.message : error}`,
    );
  }
  return {
    cert,
    key,
    notBefore: new Date(leaf.validFrom),
    notAfter: new Date(leaf.validTo),
    names: (leaf.subjectAltName ?? '')
      .split(',')
      .map((entry) => entry.trim().replace(/^(DNS|IP Address):/, ''))
      .filter(Boolean),
    fingerprint: leaf.fingerprint256,
  };
}

/** Reads and checks a pair of PEM files; `names` say which settings gave the paths. */
export async function readCertificateFiles(
  certFile: string,
  keyFile: string,
  names = { cert: 'TLS_CERT_FILE', key: 'TLS_KEY_FILE' },
): Promise<TCertificatePair> {
  const source = { cert: `${names.cert} ${certFile}`, key: `${names.key} ${keyFile}` };
  const read = (path: string, what: string) =>
    readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'ENOENT'
          ? 'no such file'
          : error.code === 'EACCES'
            ? 'permission denied'
            : error.message;
      throw new TlsSetupError(`cannot read ${what}: ${why}`);
    });
  const [cert, key] = await Promise.all([read(certFile, source.cert), read(keyFile, source.key)]);
  return certificatePairOf(cert, key, source);
}
