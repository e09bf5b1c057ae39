// The server's configuration, parsed once from the environment; nothing else reads process.env. Each variable is
// declared once, with its default, check and meaning, in the config/ module of its concern; the schema below
// gathers them, checks the rules between them and builds the typed configuration, TConfig, by its transform.
import { z } from 'zod';
import { databaseConfig, databaseVariables } from './config/database';
import { fleetConfig, fleetIssues, fleetVariables } from './config/fleet';
import { httpConfig, httpIssues, httpVariables } from './config/http';
import { mailConfig, mailIssues, mailVariables } from './config/mail';
import { paymentConfig, paymentIssues, paymentVariables } from './config/payments';
import { roomsConfig, roomVariables } from './config/rooms';
import { appSecretOf, securityConfig, securityIssues, securityVariables } from './config/security';
import type { TReport } from './config/variable';

export { REPO_ROOT, SERVER_ROOT } from './paths';

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ...httpVariables,
  ...databaseVariables,
  ...mailVariables,
  ...securityVariables,
  ...roomVariables,
  ...paymentVariables,
  ...fleetVariables,
});

/** The environment's variables as parsed, each by its own declaration. */
export type TEnv = z.output<typeof ZEnv>;

const ZConfig = ZEnv.superRefine((env, ctx) => {
  const report: TReport = (variable, message) => ctx.addIssue({ code: 'custom', path: [variable], message });
  for (const issues of [httpIssues, securityIssues, paymentIssues, mailIssues, fleetIssues])
    issues(env, report);
}).transform((env) => {
  const appSecret = appSecretOf(env);
  return {
    nodeEnv: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    ...httpConfig(env),
    ...databaseConfig(env),
    ...mailConfig(env),
    ...securityConfig(env, appSecret),
    ...paymentConfig(env),
    ...fleetConfig(env, appSecret),
    rooms: roomsConfig(env),
  };
});

/** The server's configuration, by concern (config/). */
export type TConfig = z.output<typeof ZConfig>;
export type TPaymentConfig = TConfig['payments'];
export type TRoomMediaMode = TConfig['rooms']['media'];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): TConfig {
  const parsed = ZConfig.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration in the environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
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
