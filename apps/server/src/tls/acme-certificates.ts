// Certificates from an ACME certificate authority (Let's Encrypt by default) through acme-client: the account key
// and the latest certificate are kept in the data directory, so a restart serves at once and orders nothing; a
// certificate is renewed once a third of its lifetime is left (Let's Encrypt's own advice: 30 of 90 days), checked
// twice a day, and handed to the running server.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { Agent } from 'node:https';
import { join } from 'node:path';
import { crypto as acmeCrypto, axios as acmeHttp, Client } from 'acme-client';
import { certificatePairOf, type TCertificatePair, TlsSetupError } from './certificate-pair';
import type { TAcmeChallenges } from './plain-http-listener';

export interface TAcmeOptions {
  domains: string[];
  email: string | undefined;
  directoryUrl: string;
  /** PEM the directory's HTTPS is checked against (a private or test CA); unset: the system's. */
  caFile: string | undefined;
  stateDir: string;
  /** Filled while an order waits for the authority to fetch its challenge from the plain-HTTP port. */
  challenges: TAcmeChallenges;
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
  /** When a certificate is due; by default once a third of its lifetime is left. */
  renewalDue?: (pair: TCertificatePair, now: Date) => boolean;
  checkEveryMs?: number;
}

/** A certificate is renewed once a third of its lifetime is left. */
export function renewalDueByLifetime(pair: TCertificatePair, now: Date): boolean {
  const lifetime = pair.notAfter.getTime() - pair.notBefore.getTime();
  return pair.notAfter.getTime() - now.getTime() < lifetime / 3;
}

const TWELVE_HOURS = 12 * 60 * 60 * 1000;

export class AcmeCertificates {
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<boolean> | null = null;
  private listeners = new Set<(pair: TCertificatePair) => void>();

  private constructor(
    private readonly options: TAcmeOptions,
    public current: TCertificatePair,
  ) {}

  /** The kept certificate if it covers the domains and is not due, else a new one (the first start waits for it). */
  static async open(options: TAcmeOptions): Promise<AcmeCertificates> {
    if (options.caFile) {
      const ca = await readFile(options.caFile, 'utf8').catch(() => {
        throw new TlsSetupError(`cannot read ACME_CA_FILE ${options.caFile}`);
      });
      // acme-client speaks to the directory through its own axios instance; this process has one authority.
      acmeHttp.defaults.httpsAgent = new Agent({ ca });
    }
    const kept = await readKept(options);
    const due = options.renewalDue ?? renewalDueByLifetime;
    if (kept && covers(kept, options.domains) && !due(kept, new Date())) {
      options.log.info(
        `HTTPS: the kept certificate for ${options.domains.join(', ')} is valid until ${kept.notAfter.toISOString()}`,
      );
      return new AcmeCertificates(options, kept);
    }
    const certificates = new AcmeCertificates(options, kept ?? (await order(options)));
    if (kept) await certificates.renewIfDue();
    return certificates;
  }

  /** Checks twice a day; every renewed pair goes to `onPair` (the server's setSecureContext). */
  start(onPair: (pair: TCertificatePair) => void): void {
    this.listeners.add(onPair);
    if (this.timer) return;
    this.timer = setInterval(() => {
      void this.renewIfDue().catch(() => {});
    }, this.options.checkEveryMs ?? TWELVE_HOURS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }

  /**
   * Orders a new certificate when the current one is due (or names other domains). A failure is logged and the
   * current certificate stays: the next check tries again, with weeks left before it runs out.
   */
  renewIfDue(now = new Date()): Promise<boolean> {
    const due = this.options.renewalDue ?? renewalDueByLifetime;
    if (covers(this.current, this.options.domains) && !due(this.current, now)) return Promise.resolve(false);
    this.renewing ??= order(this.options)
      .then((pair) => {
        this.current = pair;
        for (const listener of this.listeners) listener(pair);
        return true;
      })
      .catch((error: unknown) => {
        this.options.log.error(
          `HTTPS: renewing the certificate failed (the current one is valid until ${this.current.notAfter.toISOString()}): ${messageOf(error)}`,
        );
        return false;
      })
      .finally(() => {
        this.renewing = null;
      });
    return this.renewing;
  }
}

function covers(pair: TCertificatePair, domains: string[]): boolean {
  return domains.every((domain) => pair.names.includes(domain));
}

function keptPaths(options: TAcmeOptions) {
  // One account per authority, one certificate per set of domains: changing either orders afresh.
  const authority = createHash('sha256').update(options.directoryUrl).digest('hex').slice(0, 12);
  const domains = createHash('sha256').update(options.domains.join(',')).digest('hex').slice(0, 12);
  return {
    accountKey: join(options.stateDir, `account-${authority}.key`),
    accountUrl: join(options.stateDir, `account-${authority}.url`),
    cert: join(options.stateDir, `${options.domains[0]}-${domains}.crt`),
    key: join(options.stateDir, `${options.domains[0]}-${domains}.key`),
  };
}

async function readKept(options: TAcmeOptions): Promise<TCertificatePair | null> {
  const paths = keptPaths(options);
  try {
    const [cert, key] = await Promise.all([readFile(paths.cert, 'utf8'), readFile(paths.key, 'utf8')]);
    return certificatePairOf(cert, key, { cert: paths.cert, key: paths.key });
  } catch {
    return null;
  }
}

/** Written beside and renamed over, so that a crash never leaves half a key. */
async function writePrivate(path: string, content: string | Buffer): Promise<void> {
  await writeFile(`${path}.new`, content, { mode: 0o600 });
  await rename(`${path}.new`, path);
}

async function accountKeyOf(options: TAcmeOptions): Promise<Buffer> {
  const path = keptPaths(options).accountKey;
  const kept = await readFile(path).catch(() => null);
  if (kept) return kept;
  const key = await acmeCrypto.createPrivateEcdsaKey();
  await writePrivate(path, key);
  return key;
}

async function order(options: TAcmeOptions): Promise<TCertificatePair> {
  const [first, ...others] = options.domains;
  options.log.info(
    `HTTPS: ordering a certificate for ${options.domains.join(', ')} from ${options.directoryUrl}`,
  );
  try {
    await mkdir(options.stateDir, { recursive: true, mode: 0o700 });
    // The account's URL is kept beside its key: registering again would be answered "exists" and turned by the
    // library into an account update, which an authority may refuse when there is nothing to update (no e-mail).
    const paths = keptPaths(options);
    const accountUrl = (await readFile(paths.accountUrl, 'utf8').catch(() => '')).trim() || undefined;
    const client = new Client({
      directoryUrl: options.directoryUrl,
      accountKey: await accountKeyOf(options),
      ...(accountUrl ? { accountUrl } : {}),
    });
    const [key, csr] = await acmeCrypto.createCsr(
      { commonName: first, altNames: [first!, ...others] },
      await acmeCrypto.createPrivateEcdsaKey(),
    );
    const cert = await client.auto({
      csr,
      email: options.email,
      termsOfServiceAgreed: true,
      challengePriority: ['http-01'],
      // The authority checks the challenge itself; a check from this machine of its own public name fails behind
      // the many routers that do not loop back, and would refuse a setup that works.
      skipChallengeVerification: true,
      challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
        options.challenges.set(challenge.token, keyAuthorization);
      },
      challengeRemoveFn: async (_authz, challenge) => {
        options.challenges.delete(challenge.token);
      },
    });
    if (!accountUrl) await writeFile(paths.accountUrl, client.getAccountUrl());
    const pair = certificatePairOf(cert, key.toString(), { cert: 'the ordered certificate', key: 'its key' });
    await writePrivate(paths.key, key);
    await writePrivate(paths.cert, cert);
    options.log.info(
      `HTTPS: new certificate for ${options.domains.join(', ')}, valid until ${pair.notAfter.toISOString()}`,
    );
    return pair;
  } catch (error) {
    if (error instanceof TlsSetupError) throw error;
    throw new TlsSetupError(
      `no certificate for ${options.domains.join(', ')} from ${options.directoryUrl}: ${messageOf(error)}. ` +
        'The names must point at this machine and its port 80 (HTTP_PORT) must be reachable from the Internet.',
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
