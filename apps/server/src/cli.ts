// Operator commands, e.g. creating the first administrator on a fresh install:
//   npm run cli -- user:create --email admin@example.com --password 'a long secret' --admin
// They use the same database as the server with the same environment (DATABASE_URL, or the embedded one of
// DATA_DIR, whoever runs it), say which on stderr, and validate like the API.

import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { admin, type SessionEvents, watchAccountChanges, ZPassword, ZUsername, zEmail } from '@rooms/api';
import {
  type EmbeddedPostgres,
  initOrm,
  migrateAndSeed,
  ownedPostmasterOf,
  ownedPostmasters,
  Session,
  startEmbeddedPostgres,
  type TOwnedPostmaster,
  User,
} from '@rooms/db';
import type { z } from 'zod';
import { ConfigError, parseEnv, type TConfig } from './env';
import { createArgon2Hasher } from './services/passwords/argon2-hasher';
import { notifySessionChange, type TAnnouncedChange } from './services/session-events/session-events';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  user:create  --email <e-mail> --password <password> [--username <name>] [--admin]
  user:password --email <e-mail> --password <password>   set a new password, end the user's sessions
  user:admin   --email <e-mail> [--revoke]                grant (or revoke) the administrator role
  user:disable --email <e-mail>                           block sign-in and end the user's sessions
  user:enable  --email <e-mail>
  user:list                                               list accounts, newest first`;

class UsageError extends Error {}
/** The environment names no database the CLI can safely use. */
class DatabaseChoiceError extends Error {}

function validate<T>(schema: z.ZodType<T>, value: unknown, name: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(`--${name}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

const emailOption = zEmail({ required: 'is required', format: 'is not a valid e-mail address' });

/**
 * The database the server would use with this environment: DATABASE_URL, else the embedded cluster of DATA_DIR —
 * the running server's when it runs it, else started for the command's duration. Says which on stderr (stdout
 * stays the command's own output). Refuses to start DATA_DIR's cluster while a server runs another one: that is
 * the database the operator almost certainly meant, and writing elsewhere would go unnoticed.
 */
async function openDatabase(config: TConfig): Promise<{ orm: MikroORM; close(): Promise<void> }> {
  let url = config.databaseUrl;
  let stop: (() => Promise<void>) | undefined;
  if (url) {
    console.error(`database: ${describeUrl(url)} (DATABASE_URL)`);
  } else {
    const dataDir = join(config.dataDir, 'postgres');
    const running = ownedPostmasterOf(dataDir);
    if (!running) refuseBesideAnotherServer(dataDir, config);
    const isNew = !existsSync(join(dataDir, 'PG_VERSION'));
    // Attaches to the cluster when the server is running it (with its generated password), else starts it.
    const embedded = await startEmbeddedPostgres({ dataDir, port: config.embeddedPgPort });
    url = embedded.url;
    stop = embedded.stop;
    console.error(`database: ${describeEmbedded(dataDir, embedded, running, isNew, config.embeddedPgPort)}`);
  }
  const orm = await initOrm({ clientUrl: url });
  await migrateAndSeed(orm);
  return {
    orm,
    async close() {
      await orm.close();
      await stop?.();
    },
  };
}

/** host:port/database of a postgres:// URL, without its credentials. */
function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

function describeEmbedded(
  dataDir: string,
  embedded: EmbeddedPostgres,
  running: TOwnedPostmaster | undefined,
  isNew: boolean,
  configuredPort: number,
): string {
  const where = `the embedded PostgreSQL in ${dataDir} (127.0.0.1:${embedded.port}/rooms)`;
  if (embedded.attached) {
    const owner = running?.ownerCommand
      ? `process ${embedded.ownerPid}: ${running.ownerCommand}`
      : `process ${embedded.ownerPid}`;
    const port =
      embedded.port === configuredPort
        ? ''
        : `; it listens on ${embedded.port}, not EMBEDDED_PG_PORT=${configuredPort}`;
    return `${where}, run by the server (${owner})${port}`;
  }
  return isNew
    ? `${where}, created now: a new, empty database (no server has used DATA_DIR=${dirname(dataDir)} yet)`
    : `${where}, started for this command (no server is running it)`;
}

/**
 * DATA_DIR's cluster is not running: if a server runs the embedded cluster of another data directory, say which
 * and how to reach it instead of writing to a database that server does not read.
 */
function refuseBesideAnotherServer(dataDir: string, config: TConfig): void {
  const others = ownedPostmasters().filter(
    // A DATA_DIR's cluster is its `postgres` directory (test and bench clusters are named otherwise).
    (cluster) => cluster.dataDir !== dataDir && basename(cluster.dataDir) === 'postgres',
  );
  if (!others.length) return;
  const lines = others.map(
    (cluster) =>
      `  DATA_DIR=${dirname(cluster.dataDir)} EMBEDDED_PG_PORT=${cluster.port}  ` +
      `(run by process ${cluster.ownerPid}${cluster.ownerCommand ? `: ${cluster.ownerCommand}` : ''})`,
  );
  throw new DatabaseChoiceError(
    `no server is running the database of DATA_DIR=${config.dataDir}, but a server is running another one:\n` +
      `${lines.join('\n')}\n` +
      'Run the command again with the settings of the server you mean (the same DATA_DIR and EMBEDDED_PG_PORT, or ' +
      `DATABASE_URL), or start the server of ${config.dataDir} first.`,
  );
}

async function findUser(orm: MikroORM, email: string) {
  const user = await orm.em.fork().findOne(User, { email });
  if (!user) throw new UsageError(`no account with the e-mail ${email}`);
  return user;
}

/**
 * The CLI runs apart from the server, so the end of sessions reaches the server's sockets (and a disabled
 * account's rooms), and an account's change its session cache, through PostgreSQL NOTIFY.
 */
function sessionEventsOf(orm: MikroORM): SessionEvents {
  // The change is saved either way: a notice that cannot go out is said, not a failure of the command.
  const tell = (change: TAnnouncedChange) =>
    notifySessionChange(orm.em.fork(), change).catch((error: Error) =>
      console.warn(`warning: the server was not told (${error.message}); it sees the change within 10 s`),
    );
  return { ended: tell, accountChanged: (userId) => tell({ accountChanged: userId }) };
}

/** The CLI acts through the admin area's own domain functions, audited as 'cli'. */
function adminDeps(em: EntityManager, sessionEvents: SessionEvents): admin.TAdminDeps {
  return { em, actor: admin.CLI_ACTOR, now: new Date(), sessionEvents };
}

async function run(command: string, values: Record<string, string | boolean | undefined>, config: TConfig) {
  const passwords = createArgon2Hasher();
  const database = await openDatabase(config);
  const { orm } = database;
  const sessionEvents = sessionEventsOf(orm);
  watchAccountChanges(orm, sessionEvents);
  try {
    const em = orm.em.fork();
    switch (command) {
      case 'user:create': {
        const email = validate(emailOption, values.email, 'email');
        const password = validate(ZPassword, values.password, 'password');
        const username = validate(ZUsername, values.username ?? email.split('@')[0], 'username');
        if (await em.count(User, { email }))
          throw new UsageError(`an account with the e-mail ${email} exists`);
        em.create(User, {
          username,
          email,
          passwordHash: await passwords.hash(password),
          role: values.admin ? 'admin' : 'user',
        });
        await em.flush();
        console.log(`created ${values.admin ? 'administrator' : 'user'} ${username} <${email}>`);
        return;
      }
      case 'user:password': {
        const user = await findUser(orm, validate(emailOption, values.email, 'email'));
        const password = validate(ZPassword, values.password, 'password');
        await em.nativeUpdate(User, { id: user.id }, { passwordHash: await passwords.hash(password) });
        await em.nativeUpdate(Session, { user: user.id, revokedAt: null }, { revokedAt: new Date() });
        // The server runs in another process: its room sockets of these sessions close on this notification.
        await sessionEvents.ended({ userId: user.id });
        console.log(`password changed for ${user.email}; their sessions were ended`);
        return;
      }
      case 'user:admin': {
        const user = await findUser(orm, validate(emailOption, values.email, 'email'));
        await admin.setUserRole(adminDeps(em, sessionEvents), user.id, values.revoke ? 'user' : 'admin');
        console.log(`${user.email} is ${values.revoke ? 'no longer' : 'now'} an administrator`);
        return;
      }
      case 'user:disable':
      case 'user:enable': {
        const user = await findUser(orm, validate(emailOption, values.email, 'email'));
        const disabled = command === 'user:disable';
        // The server stops the account's rooms when it hears that the sessions ended (plugins/services.ts).
        await admin.setUserDisabled(adminDeps(em, sessionEvents), user.id, disabled);
        console.log(`${user.email} is ${disabled ? 'disabled' : 'enabled'}`);
        return;
      }
      case 'user:list': {
        const users = await em.find(User, {}, { orderBy: { createdAt: 'desc' }, limit: 200 });
        for (const user of users) {
          const flags = [user.role === 'admin' ? 'admin' : '', user.disabled ? 'disabled' : ''].filter(
            Boolean,
          );
          console.log(
            `${user.email}\t${user.username}\tlevel ${user.level}${flags.length ? `\t${flags.join(',')}` : ''}`,
          );
        }
        if (!users.length) console.log('no accounts yet');
        return;
      }
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } finally {
    await database.close();
  }
}

function parseOptions() {
  return parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      username: { type: 'string' },
      admin: { type: 'boolean' },
      revoke: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

async function main() {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions();
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(1);
  }
  const { positionals, values } = parsed;
  const command = positionals[0];
  if (!command || values.help) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 1);
  }
  try {
    await run(command, values, parseEnv());
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof DatabaseChoiceError) {
      console.error(`error: ${error.message}`);
      if (error instanceof UsageError) console.error(`\n${USAGE}`);
      process.exit(1);
    }
    throw error;
  }
}

await main();
