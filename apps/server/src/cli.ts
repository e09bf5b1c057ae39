// Operator commands, e.g. creating the first administrator on a fresh install:
//   npm run cli -- user:create --email admin@example.com --password 'a long secret' --admin
// They use the same database as the server (DATABASE_URL, or the embedded one in the data directory) and the
// same validation as the API.

import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { admin, type SessionEvents, watchAccountChanges, ZPassword, ZUsername, zEmail } from '@rooms/api';
import { initOrm, migrateAndSeed, Session, startEmbeddedPostgres, User } from '@rooms/db';
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

function validate<T>(schema: z.ZodType<T>, value: unknown, name: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(`--${name}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

const emailOption = zEmail({ required: 'is required', format: 'is not a valid e-mail address' });

/** Uses the running server's embedded database when there is one, else starts it for the command's duration. */
async function openDatabase(config: TConfig): Promise<{ orm: MikroORM; close(): Promise<void> }> {
  let url = config.databaseUrl;
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    // Attaches to the cluster when the server is running it (with its generated password), else starts it.
    const embedded = await startEmbeddedPostgres({
      dataDir: join(config.dataDir, 'postgres'),
      port: config.embeddedPgPort,
    });
    url = embedded.url;
    stop = embedded.stop;
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
    if (error instanceof UsageError || error instanceof ConfigError) {
      console.error(`error: ${error.message}`);
      if (error instanceof UsageError) console.error(`\n${USAGE}`);
      process.exit(1);
    }
    throw error;
  }
}

await main();
