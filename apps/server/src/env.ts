// The server's configuration, parsed once from the environment. Nothing else reads process.env.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { fleetCredentialIssues, fleetCredentials, type TFleetConfig } from './fleet/fleet-config';
import type { TRoomSandboxMode } from './rooms/sandbox/sandbox-support';

/** The checkout: from src/env.ts, or from dist/server.mjs (src/bundle.ts), both one folder below apps/server. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** This workspace, apps/server: its package.json, its sources (the sandbox's scripts) and its bundle. */
export const SERVER_ROOT = join(REPO_ROOT, 'apps/server');

const optionalString = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

const ZEnv = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    /** Unset: 443 when ACME_DOMAINS is set (the port browsers assume for https), 3000 otherwise. */
    PORT: optionalString.pipe(z.coerce.number<string | undefined>().int().min(0).max(65535).optional()),
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
    HTTP_PORT: optionalString.pipe(z.coerce.number<string | undefined>().int().min(0).max(65535).optional()),
    PUBLIC_URL: z.url().optional(),
    /** Where share links point, when shared rooms live on a domain of their own; PUBLIC_URL otherwise. */
    SHARE_URL: optionalString.pipe(z.url().optional()),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
        .optional(),
    ),
    // A relative directory is the repository's, as the default is: `npm start` runs in apps/server and `npm run cli`
    // in the root, and both must find the same database.
    DATA_DIR: z
      .string()
      .default(join(REPO_ROOT, '.data'))
      .transform((dir) => resolve(REPO_ROOT, dir)),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5488),
    SMTP_URL: optionalString.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
        .optional(),
    ),
    MAIL_FROM: z.string().default('Cloud-browser rooms <no-reply@localhost>'),
    /** Where people write for help: the About page and the landing page's Contact link. Unset: no address shown. */
    SUPPORT_EMAIL: optionalString.pipe(z.email().optional()),
    // Development without SMTP: `on` shows the kept mail (reset codes too) at /dev/mailbox to this machine. Off
    // unless asked for: behind a same-host proxy every visitor looks like this machine.
    DEV_MAILBOX: z.enum(['on', 'off']).default('off'),
    CAPTCHA_PROVIDER: z.enum(['self-hosted', 'geetest']).default('self-hosted'),
    // The self-hosted proof of work's difficulty: a client tries half this many hashes on average. Unset: 50,000,
    // about 0.2 s in a browser (self-hosted-captcha.ts).
    CAPTCHA_MAX_NUMBER: z.coerce.number().int().min(1).max(10_000_000).optional(),
    GEETEST_ID: optionalString,
    GEETEST_KEY: optionalString,
    GEETEST_API_SERVER: optionalString.pipe(z.url().optional()),
    APP_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    // Rate limits and throttles shared by every process pointing at this Redis; unset: this process's memory.
    REDIS_URL: optionalString.pipe(z.url().optional()),
    // Prometheus scrapes /metrics with `Authorization: Bearer <token>`; without a token /metrics is off.
    METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // How many proxies in front of this server to believe about the client's address (X-Forwarded-For):
    // 'true' is one. Trusting every hop would let a client write its own address, and so dodge per-address
    // limits and bans.
    TRUST_PROXY: z
      .string()
      .regex(/^(true|false|\d{1,2})$/, 'must be true, false or a number of proxy hops')
      .default('false')
      .transform((value) => (value === 'true' ? 1 : value === 'false' ? 0 : Number(value))),
    WEB_DIST: z.string().default(join(REPO_ROOT, 'apps/web/dist')),
    ROOMS_DATA_DIR: optionalString.transform((dir) => (dir ? resolve(REPO_ROOT, dir) : undefined)),
    CHROMIUM_PATH: optionalString,
    ROOM_CAPACITY: optionalString.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(1000).optional(),
    ),
    /**
     * Room browsers kept started ahead (sandbox, display, sound, browser on a fresh profile) so that a room starts
     * at once; each holds a capacity slot until a room takes it or needs the slot. 0 keeps none; unset, the
     * machine's capacity decides (defaultWarmPool).
     */
    ROOM_WARM_POOL: optionalString.pipe(
      z.coerce.number<string | undefined>().int().min(0).max(100).optional(),
    ),
    /**
     * How rooms stream: `auto` uses H.264 + Opus when Xvfb, pulseaudio and ffmpeg are present and the CDP
     * screencast otherwise; `h264` and `screencast` force one path (tests, benchmarks).
     */
    ROOM_MEDIA: z.enum(['auto', 'h264', 'screencast']).default('auto'),
    /**
     * Room isolation (rooms/sandbox): `auto` isolates rooms where the machine allows it and says at start-up what
     * is missing otherwise, `on` refuses to run rooms without it, `off` runs them as the server's own processes.
     */
    ROOM_SANDBOX: z.enum(['auto', 'on', 'off']).default('auto'),
    /** The unprivileged user every room process runs as (setup creates it). */
    ROOM_SANDBOX_USER: z
      .string()
      .regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'must be a user name')
      .default('room-sandbox'),
    /** A room's memory ceiling: a room over it is killed alone, its neighbours keep running. */
    ROOM_MEMORY_MB: z.coerce.number().int().min(256).max(65536).default(2048),
    /** A room's ceiling on processes and threads together. */
    ROOM_PIDS: z.coerce.number().int().min(64).max(65536).default(2048),
    /** The disk a keep-data room's profile may fill: its own filesystem of this size (where the server is root). */
    ROOM_PROFILE_DISK_MB: z.coerce.number().int().min(64).max(1048576).default(2048),
    /**
     * Comma-separated payment methods on offer: sandbox (our own checkout page, test money, never in production),
     * stripe, alipay. Unset: sandbox outside production, none in production.
     */
    PAYMENT_PROVIDERS: optionalString,
    /** How long an unpaid bill stays payable. */
    PAYMENT_TTL_MINUTES: z.coerce
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .default(30),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Another Stripe API address (tests answer as Stripe from a local server). */
    STRIPE_API_URL: optionalString.pipe(z.url().optional()),
    ALIPAY_APP_ID: optionalString,
    /** The app's RSA private key (PEM or bare base64 PKCS#1/PKCS#8). */
    ALIPAY_PRIVATE_KEY: optionalString,
    /** Alipay's RSA public key, which signs its notifications and replies. */
    ALIPAY_PUBLIC_KEY: optionalString,
    /** Another Alipay gateway (the sandbox one, or a local server in tests). */
    ALIPAY_GATEWAY: optionalString.pipe(z.url().optional()),
    /**
     * What this process is (ARCHITECTURE.md): `all` (npm start: the control plane with one local room agent),
     * `control` (API, web app, tickets, placement, the lost sweep), `agent` (rooms: engine, media, room hubs), or
     * `gateway` (participants' room sockets, forwarded to the agent running the room).
     */
    ROOM_ROLE: z.enum(['all', 'control', 'agent', 'gateway']).default('all'),
    /** Where the control plane and the gateways reach this agent (host:port); required for ROOM_ROLE=agent. */
    AGENT_ADDRESS: optionalString.pipe(
      z
        .string()
        // An IPv6 address in brackets, as a URL writes it: pods of an IPv6 cluster are reached that way.
        .regex(/^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/, 'must be host:port, or [IPv6]:port')
        .refine(
          (address) => Number(address.slice(address.lastIndexOf(':') + 1)) <= 65_535,
          'port must be ≤ 65535',
        )
        .optional(),
    ),
    /** Comma-separated zone codes this agent serves; unset: every enabled zone. */
    AGENT_REGIONS: optionalString,
    /**
     * The control plane's address on the private network (e.g. http://control-plane.rooms:3000), for agents and
     * gateways: agents send their heartbeats there, and both hear the database's notices from its relay. Unset:
     * each writes its heartbeats and listens on the database itself, a connection or two per process, which a large
     * fleet cannot afford.
     */
    CONTROL_URL: optionalString.pipe(z.url().optional()),
    /**
     * The fleet's credentials (ARCHITECTURE.md, "Fleet credentials"). Control planes only: the Ed25519 private key
     * that signs the credentials of agents and gateways and the control plane's orders (PEM, or its 32-byte seed
     * in base64). Unset outside production: derived from APP_SECRET; in production `all` generates one into
     * DATA_DIR.
     */
    FLEET_SIGNING_KEY: optionalString,
    /**
     * Agents (gateways may pin it too): the signing key's public half (PEM, or 32 bytes in base64), what the
     * control plane's orders are checked with. Unset: taken from the control plane at enrolment (CONTROL_URL).
     */
    FLEET_VERIFY_KEY: optionalString,
    /** What an agent enrols with at the control plane (agents and control planes hold it, never gateways). */
    FLEET_AGENT_JOIN_TOKEN: optionalString.pipe(
      z.string().min(32, 'must be at least 32 characters').optional(),
    ),
    /** What a gateway enrols with at the control plane (gateways and control planes hold it, never agents). */
    FLEET_GATEWAY_JOIN_TOKEN: optionalString.pipe(
      z.string().min(32, 'must be at least 32 characters').optional(),
    ),
    /** The agent's name where it runs: its pod's (and so its GameServer's) name on Kubernetes. */
    AGENT_NAME: optionalString.pipe(z.string().max(253).optional()),
    /**
     * How the control plane gets an agent for a start: `process` places it on a registered agent with a free slot;
     * `agones` first allocates a Ready agent GameServer of the room's zone from the Agones Fleet (Kubernetes API),
     * then places the room on that agent.
     */
    ROOM_RUNTIME: z.enum(['process', 'agones']).default('process'),
    /** The room agents' Fleet and its namespace, for ROOM_RUNTIME=agones (deploy/kubernetes). */
    AGONES_FLEET: z.string().default('room-agents'),
    AGONES_NAMESPACE: z.string().default('rooms-agents'),
    /** Set by Agones on a GameServer's containers: the agent then tells the SDK sidecar when it is Ready and healthy. */
    AGONES_SDK_HTTP_PORT: optionalString.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(65535).optional(),
    ),
    /** Scheduled billing work (bill expiry, renewals, metering) on the PostgreSQL job queue. */
    BILLING_JOBS: z.enum(['on', 'off']).default('on'),
    /**
     * Keep-data room profiles in S3-compatible object storage, so a room starts with its profile on whichever
     * machine runs it; unset, they stay on this machine's disk (ROOMS_DATA_DIR). Without the two keys the SDK's
     * own credential chain applies (instance role, AWS_* variables).
     */
    PROFILE_S3_BUCKET: optionalString,
    /** Another S3-compatible service (MinIO, R2, a local test server); path-style addressing is used with it. */
    PROFILE_S3_ENDPOINT: optionalString.pipe(z.url().optional()),
    PROFILE_S3_REGION: z.string().trim().min(1).default('us-east-1'),
    PROFILE_S3_ACCESS_KEY_ID: optionalString,
    PROFILE_S3_SECRET_ACCESS_KEY: optionalString,
    /** Prepended to every object key, for a bucket shared with other data. */
    PROFILE_S3_PREFIX: z.string().default('room-profiles/'),
    /** How often a running keep-data room's profile is saved besides its stop; 0 saves only on stop. */
    PROFILE_CHECKPOINT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
    /** Comma-separated host:port exceptions to the egress guard, for tests that serve pages on loopback. */
    ROOM_EGRESS_ALLOW: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      ),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.TLS_CERT_FILE) !== Boolean(env.TLS_KEY_FILE)) {
      const missing = env.TLS_CERT_FILE ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'is required with the other: HTTPS needs both the certificate and its private key',
      });
    }
    if (env.TLS_CERT_FILE && env.ACME_DOMAINS) {
      ctx.addIssue({
        code: 'custom',
        path: ['ACME_DOMAINS'],
        message: 'cannot be used with TLS_CERT_FILE: choose certificate files or automatic certificates',
      });
    }
    for (const domain of acmeDomainsOf(env.ACME_DOMAINS)) {
      if (!HOST_NAME.test(domain)) {
        ctx.addIssue({
          code: 'custom',
          path: ['ACME_DOMAINS'],
          message: `${domain} is not a domain name (an ACME certificate names domains, not addresses or wildcards)`,
        });
      }
    }
    if (!env.ACME_DOMAINS) {
      for (const name of ['ACME_EMAIL', 'ACME_DIRECTORY_URL', 'ACME_CA_FILE'] as const) {
        if (env[name])
          ctx.addIssue({ code: 'custom', path: [name], message: 'has no effect without ACME_DOMAINS' });
      }
    }
    if (env.HTTP_PORT !== undefined && !env.TLS_CERT_FILE && !env.ACME_DOMAINS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_PORT'],
        message:
          'is the plain-HTTP port beside HTTPS; without TLS_CERT_FILE or ACME_DOMAINS, PORT serves HTTP',
      });
    }
    if (env.CAPTCHA_PROVIDER === 'geetest') {
      for (const name of ['GEETEST_ID', 'GEETEST_KEY'] as const) {
        if (!env[name])
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required when CAPTCHA_PROVIDER=geetest',
          });
      }
    }
    const providers = paymentProvidersOf(env.PAYMENT_PROVIDERS, env.NODE_ENV);
    for (const provider of providers) {
      if (!(paymentProviders as readonly string[]).includes(provider)) {
        ctx.addIssue({
          code: 'custom',
          path: ['PAYMENT_PROVIDERS'],
          message: `unknown provider ${provider}; choose from ${paymentProviders.join(', ')}`,
        });
      }
    }
    if (env.NODE_ENV === 'production' && providers.includes('sandbox')) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_PROVIDERS'],
        message: 'sandbox takes test money and is refused in production',
      });
    }
    const required: Record<string, readonly (keyof typeof env)[]> = {
      stripe: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
      alipay: ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'],
    };
    for (const provider of providers) {
      for (const name of required[provider] ?? []) {
        if (!env[name])
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `is required when PAYMENT_PROVIDERS has ${provider}`,
          });
      }
    }
    if (env.NODE_ENV === 'production') {
      // Mail goes out where the API is served; agents and gateways never send any, so they need not hold it.
      if (!env.SMTP_URL && (env.ROOM_ROLE === 'all' || env.ROOM_ROLE === 'control')) {
        ctx.addIssue({
          code: 'custom',
          path: ['SMTP_URL'],
          message: 'is required in production: without it, verification codes cannot reach users',
        });
      }
      if (!env.APP_SECRET)
        ctx.addIssue({ code: 'custom', path: ['APP_SECRET'], message: 'is required in production' });
      if (env.DEV_MAILBOX === 'on')
        ctx.addIssue({
          code: 'custom',
          path: ['DEV_MAILBOX'],
          message: 'is for development only: the mailbox shows every reset code',
        });
    }
    if (env.ROOM_ROLE === 'agent' && !env.AGENT_ADDRESS) {
      ctx.addIssue({
        code: 'custom',
        path: ['AGENT_ADDRESS'],
        message: 'is required when ROOM_ROLE=agent: the control plane and the gateways reach the agent there',
      });
    }
    // Processes of one install recognise one another's tickets by the shared secret.
    if (env.ROOM_ROLE !== 'all' && !env.APP_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['APP_SECRET'],
        message: `is required when ROOM_ROLE=${env.ROOM_ROLE}: every process of the install must share it`,
      });
    }
    fleetCredentialIssues(env, ctx);
    if (env.ROOM_ROLE !== 'all' && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message: `is required when ROOM_ROLE=${env.ROOM_ROLE}: every process of the install shares one database`,
      });
    }
  });

export type TRoomRole = 'all' | 'control' | 'agent' | 'gateway';

/** A DNS name of at least two labels, as a public certificate authority issues for. */
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

function acmeDomainsOf(value: string | undefined): string[] {
  return [
    ...new Set(
      (value ?? '')
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** Let's Encrypt's production directory, the default certificate authority. */
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

/** How this process serves HTTPS, if it does (tls/https-serving.ts). */
export type TTlsConfig =
  | { kind: 'files'; certFile: string; keyFile: string; httpPort: number | undefined }
  | {
      kind: 'acme';
      domains: string[];
      email: string | undefined;
      directoryUrl: string;
      caFile: string | undefined;
      /** Where the account key and the certificates are kept across restarts. */
      stateDir: string;
      httpPort: number;
    };

export type TRoomMediaMode = 'auto' | 'h264' | 'screencast';

export const paymentProviders = ['sandbox', 'stripe', 'alipay'] as const;
export type TPaymentProviderName = (typeof paymentProviders)[number];

function paymentProvidersOf(value: string | undefined, nodeEnv: string): string[] {
  if (value === undefined) return nodeEnv === 'production' ? [] : ['sandbox'];
  return [
    ...new Set(
      value
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

export interface TPaymentConfig {
  providers: TPaymentProviderName[];
  ttlMinutes: number;
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | null;
  alipay: { appId: string; privateKey: string; alipayPublicKey: string; gateway: string | undefined } | null;
}

export interface TConfig {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** HTTPS served by this process; null: plain HTTP (behind a proxy that terminates TLS, or on localhost). */
  tls: TTlsConfig | null;
  publicUrl: string;
  /** The address share links start with (SHARE_URL, else publicUrl); no trailing slash. */
  shareUrl: string;
  /** Which of PUBLIC_URL and SHARE_URL were set; unset ones follow the request's address in on-screen links. */
  fixedUrls: { publicUrl: boolean; shareUrl: boolean };
  /** Unset: the server runs its own embedded PostgreSQL in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The address the About and landing pages give for help (SUPPORT_EMAIL); undefined: none is shown. */
  supportEmail: string | undefined;
  /** Development without SMTP, when asked for (DEV_MAILBOX=on): kept mail shown at /dev/mailbox. */
  devMailbox: boolean;
  captcha: {
    provider: 'self-hosted' | 'geetest';
    /** The self-hosted proof of work's largest secret number; unset: the captcha's default. */
    maxNumber: number | undefined;
    geetestId: string | undefined;
    geetestKey: string | undefined;
    geetestApiServer: string | undefined;
  };
  /** Signs the self-hosted captcha. */
  appSecret: string;
  /** Where rate limits are counted when several processes serve; undefined: in memory. */
  redisUrl: string | undefined;
  /** The bearer token /metrics asks for; unset: /metrics is off (answers as a missing path). */
  metricsToken: string | undefined;
  logLevel: string;
  /** Proxy hops whose X-Forwarded-For is believed; 0 believes none. */
  trustProxy: number;
  webDist: string;
  payments: TPaymentConfig;
  /** Run the scheduled billing work in this process. */
  billingJobs: boolean;
  /** What this process is: see ROOM_ROLE. */
  role: TRoomRole;
  /** Where an agent or a gateway reaches the control plane (CONTROL_URL); undefined: the database directly. */
  controlUrl: string | undefined;
  /** This process's part of the fleet's credentials (fleet/fleet-auth.ts): each role holds only what it needs. */
  fleet: TFleetConfig;
  agent: {
    /** Where others reach this agent (host:port); undefined in `all`, where the agent is reached in-process. */
    address: string | undefined;
    /** Zone codes this agent serves; undefined: every enabled zone. */
    regions: string[] | undefined;
    /** Its name where it runs (the GameServer's under Agones), reported with its heartbeats. */
    name: string | undefined;
    /** The Agones SDK sidecar's port, when the agent runs as a GameServer. */
    agonesSdkPort: number | undefined;
  };
  /** How the control plane gets an agent for a start: see ROOM_RUNTIME. */
  runtime: { kind: 'process' } | { kind: 'agones'; fleet: string; namespace: string };
  rooms: {
    /** Kept room profiles and the fresh profiles of running rooms. */
    dataDir: string;
    chromiumPath: string;
    /** The most rooms this server runs at once. */
    capacity: number;
    /** Room browsers kept started ahead (at most `capacity`). */
    warmPool: number;
    /** host:port targets the room browsers may reach despite the egress guard (tests only). */
    egressAllow: string[];
    /** Where keep-data profiles are saved: object storage with a bucket, this machine's disk without. */
    profiles: {
      s3: {
        bucket: string;
        endpoint: string | undefined;
        region: string;
        credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
        prefix: string;
      } | null;
      /** Seconds between saves of a running room's profile; 0 saves only on stop. */
      checkpointSeconds: number;
    };
    media: TRoomMediaMode;
    sandbox: {
      mode: TRoomSandboxMode;
      user: string;
      /** The server's directories a room must not see: its data (secrets, database) and its code. */
      hide: string[];
      limits: { memoryMb: number; pids: number };
      /** The size of a keep-data room's own filesystem, which holds its kept profile. */
      profileDiskMb: number;
    };
  };
}

/**
 * Rooms this machine can carry by default. A room repainting its whole 720p page every frame keeps about a core
 * busy and takes 300–450 MB (bench/stream.ts); most pages repaint far less, so two per core, bounded by one per
 * 1.5 GB of memory. ROOM_CAPACITY overrides it.
 */
export function defaultRoomCapacity(cores = availableParallelism(), memoryBytes = totalmem()): number {
  return Math.max(1, Math.min(cores * 2, Math.floor(memoryBytes / (1.5 * 1024 ** 3))));
}

/**
 * Warm browsers kept by default: one per four room slots, at least one, at most four. Starts come in bursts (a
 * group opening rooms together, a morning), and a refill waits for the room just started and takes a browser
 * launch, so a larger machine keeps more than one; each costs what an idle room does (~380 MB, ~5 % of a core,
 * bench/README.md) and gives its slot up to a room that needs it.
 */
export function defaultWarmPool(capacity: number): number {
  return Math.min(4, Math.max(1, Math.ceil(capacity / 4)));
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Development keeps a generated secret in the data directory so restarts keep issued captchas valid. */
function developmentSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('hex');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): TConfig {
  const parsed = ZEnv.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration in the environment:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const roomCapacity = env.ROOM_CAPACITY ?? defaultRoomCapacity();
  const acmeDomains = acmeDomainsOf(env.ACME_DOMAINS);
  const port = env.PORT ?? (acmeDomains.length > 0 ? 443 : 3000);
  const tls: TTlsConfig | null =
    env.TLS_CERT_FILE && env.TLS_KEY_FILE
      ? {
          kind: 'files',
          certFile: resolve(env.TLS_CERT_FILE),
          keyFile: resolve(env.TLS_KEY_FILE),
          httpPort: env.HTTP_PORT,
        }
      : acmeDomains.length > 0
        ? {
            kind: 'acme',
            domains: acmeDomains,
            email: env.ACME_EMAIL,
            directoryUrl: env.ACME_DIRECTORY_URL ?? LETS_ENCRYPT_DIRECTORY,
            caFile: env.ACME_CA_FILE ? resolve(env.ACME_CA_FILE) : undefined,
            stateDir: join(resolve(env.DATA_DIR), 'acme'),
            httpPort: env.HTTP_PORT ?? 80,
          }
        : null;
  const defaultHost = tls?.kind === 'acme' ? tls.domains[0] : 'localhost';
  const defaultPort = port === (tls ? 443 : 80) ? '' : `:${port}`;
  const appSecret = env.APP_SECRET ?? developmentSecret(resolve(env.DATA_DIR));
  const fleet = fleetCredentials(env, appSecret);
  const publicUrl = (env.PUBLIC_URL ?? `${tls ? 'https' : 'http'}://${defaultHost}${defaultPort}`).replace(
    /\/$/,
    '',
  );
  return {
    nodeEnv: env.NODE_ENV,
    host: env.HOST,
    port,
    tls,
    publicUrl,
    shareUrl: env.SHARE_URL?.replace(/\/$/, '') ?? publicUrl,
    fixedUrls: { publicUrl: env.PUBLIC_URL !== undefined, shareUrl: env.SHARE_URL !== undefined },
    databaseUrl: env.DATABASE_URL,
    dataDir: resolve(env.DATA_DIR),
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    supportEmail: env.SUPPORT_EMAIL,
    devMailbox: env.DEV_MAILBOX === 'on' && env.NODE_ENV !== 'production' && !env.SMTP_URL,
    captcha: {
      provider: env.CAPTCHA_PROVIDER,
      maxNumber: env.CAPTCHA_MAX_NUMBER,
      geetestId: env.GEETEST_ID,
      geetestKey: env.GEETEST_KEY,
      geetestApiServer: env.GEETEST_API_SERVER,
    },
    appSecret,
    redisUrl: env.REDIS_URL,
    metricsToken: env.METRICS_TOKEN,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    webDist: resolve(env.WEB_DIST),
    payments: {
      providers: paymentProvidersOf(env.PAYMENT_PROVIDERS, env.NODE_ENV) as TPaymentProviderName[],
      ttlMinutes: env.PAYMENT_TTL_MINUTES,
      stripe:
        env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: env.STRIPE_SECRET_KEY,
              webhookSecret: env.STRIPE_WEBHOOK_SECRET,
              apiUrl: env.STRIPE_API_URL,
            }
          : null,
      alipay:
        env.ALIPAY_APP_ID && env.ALIPAY_PRIVATE_KEY && env.ALIPAY_PUBLIC_KEY
          ? {
              appId: env.ALIPAY_APP_ID,
              privateKey: env.ALIPAY_PRIVATE_KEY,
              alipayPublicKey: env.ALIPAY_PUBLIC_KEY,
              gateway: env.ALIPAY_GATEWAY,
            }
          : null,
    },
    billingJobs: env.BILLING_JOBS === 'on',
    role: env.ROOM_ROLE,
    controlUrl: env.CONTROL_URL,
    fleet,
    agent: {
      address: env.AGENT_ADDRESS,
      regions: env.AGENT_REGIONS?.split(',')
        .map((code) => code.trim())
        .filter(Boolean),
      name: env.AGENT_NAME,
      agonesSdkPort: env.AGONES_SDK_HTTP_PORT,
    },
    runtime:
      env.ROOM_RUNTIME === 'agones'
        ? { kind: 'agones', fleet: env.AGONES_FLEET, namespace: env.AGONES_NAMESPACE }
        : { kind: 'process' },
    rooms: {
      dataDir: resolve(env.ROOMS_DATA_DIR ?? join(env.DATA_DIR, 'rooms')),
      chromiumPath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      capacity: roomCapacity,
      warmPool: env.ROOM_WARM_POOL ?? defaultWarmPool(roomCapacity),
      egressAllow: env.ROOM_EGRESS_ALLOW,
      profiles: {
        s3: env.PROFILE_S3_BUCKET
          ? {
              bucket: env.PROFILE_S3_BUCKET,
              endpoint: env.PROFILE_S3_ENDPOINT,
              region: env.PROFILE_S3_REGION,
              credentials:
                env.PROFILE_S3_ACCESS_KEY_ID && env.PROFILE_S3_SECRET_ACCESS_KEY
                  ? {
                      accessKeyId: env.PROFILE_S3_ACCESS_KEY_ID,
                      secretAccessKey: env.PROFILE_S3_SECRET_ACCESS_KEY,
                    }
                  : undefined,
              prefix: env.PROFILE_S3_PREFIX,
            }
          : null,
        checkpointSeconds: env.PROFILE_CHECKPOINT_SECONDS,
      },
      media: env.ROOM_MEDIA,
      sandbox: {
        mode: env.ROOM_SANDBOX,
        user: env.ROOM_SANDBOX_USER,
        hide: [resolve(env.DATA_DIR), resolve(env.ROOMS_DATA_DIR ?? join(env.DATA_DIR, 'rooms')), REPO_ROOT],
        limits: { memoryMb: env.ROOM_MEMORY_MB, pids: env.ROOM_PIDS },
        profileDiskMb: env.ROOM_PROFILE_DISK_MB,
      },
    },
  };
}

/**
 * The only variables of the server's environment a room process gets, where rooms are not in their own sandbox
 * (rooms/sandbox): where programs are, the locale and the time zone. Never a secret. Read here so that this file
 * stays the only reader of process.env.
 */
export function roomBaseEnvironment(): NodeJS.ProcessEnv {
  const names = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ'] as const;
  return Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
}
