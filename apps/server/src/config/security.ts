// The install's secret, the captcha in front of sign-up and sign-in, where rate limits are counted, and the token
// /metrics asks for.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { TEnv } from '../env';
import { optionalString, type TReport } from './variable';

export const securityVariables = {
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
};

export function securityIssues(env: TEnv, report: TReport): void {
  if (env.CAPTCHA_PROVIDER === 'geetest') {
    for (const name of ['GEETEST_ID', 'GEETEST_KEY'] as const) {
      if (!env[name]) report(name, 'is required when CAPTCHA_PROVIDER=geetest');
    }
  }
  if (env.NODE_ENV === 'production' && !env.APP_SECRET) report('APP_SECRET', 'is required in production');
  // Processes of one install recognise one another's tickets by the shared secret.
  if (env.ROOM_ROLE !== 'all' && !env.APP_SECRET) {
    report(
      'APP_SECRET',
      `is required when ROOM_ROLE=${env.ROOM_ROLE}: every process of the install must share it`,
    );
  }
}

/** APP_SECRET; outside production, when unset, a secret generated once and kept in the data directory. */
export function appSecretOf(env: TEnv): string {
  return env.APP_SECRET ?? developmentSecret(env.DATA_DIR);
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

export function securityConfig(env: TEnv, appSecret: string) {
  return {
    captcha: {
      provider: env.CAPTCHA_PROVIDER,
      /** The self-hosted proof of work's largest secret number; unset: the captcha's default. */
      maxNumber: env.CAPTCHA_MAX_NUMBER,
      geetestId: env.GEETEST_ID,
      geetestKey: env.GEETEST_KEY,
      geetestApiServer: env.GEETEST_API_SERVER,
    },
    /** Signs the self-hosted captcha. */
    appSecret,
    /** Where rate limits are counted when several processes serve; undefined: in memory. */
    redisUrl: env.REDIS_URL,
    /** The bearer token /metrics asks for; unset: /metrics is off (answers as a missing path). */
    metricsToken: env.METRICS_TOKEN,
  };
}
