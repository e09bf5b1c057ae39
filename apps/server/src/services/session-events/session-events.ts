// Session ends (logout, a password change or reset, an operator disabling an account) told to whoever holds a
// connection opened with those sessions, and account changes told to the session caches: at once in this
// process, and through PostgreSQL NOTIFY to every other process on the same database (the operator CLI runs apart
// from the server; a second server node would too). The database itself announces ledger writes and room-list
// changes (triggers), which the balance and room-list caches hear through the same connection. A notification lost while the listening connection is down is
// caught by the relay's periodic re-check and by the session cache's short lifetime.
import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { SessionEvents, TSessionChange, TSessionEnd } from '@rooms/api';
import { BALANCE_CHANGED_CHANNEL, ROOM_LIST_CHANGED_CHANNEL, RUN_CHANGED_CHANNEL } from '@rooms/db';
import pg from 'pg';
import { z } from 'zod';

export const SESSION_END_CHANNEL = 'rooms_session_ended';
const RECONNECT_MS = 5000;

const ZNotice = z.object({
  /** The sending process, which has already told its own listeners. */
  from: z.string(),
  change: z.union([
    z.object({ sessionId: z.string() }),
    z.object({ userId: z.string(), exceptSessionId: z.string().optional() }),
    z.object({ accountChanged: z.string() }),
  ]),
});

/** What one process tells the others (`missed` is each listener's own conclusion, never sent). */
export type TAnnouncedChange = Exclude<TSessionChange, { missed: true }>;

/** Tells every process listening on this database (for processes that do not listen, like the CLI). */
export async function notifySessionChange(
  em: EntityManager,
  change: TAnnouncedChange,
  from = 'cli',
): Promise<void> {
  const notice: z.input<typeof ZNotice> = { from, change };
  await em.execute('select pg_notify(?, ?)', [SESSION_END_CHANNEL, JSON.stringify(notice)]);
}

export interface TSessionEventBus extends SessionEvents {
  /** Session ends only: what closes connections. */
  subscribe(listener: (end: TSessionEnd) => void): () => void;
  /** Session ends and account changes: what the session cache forgets. */
  subscribeChanges(listener: (change: TSessionChange) => void): () => void;
  /**
   * What a trigger announced on `channel` once its transaction committed (the payload: a user's id for the ledger,
   * an owner's id or '*' for room lists), what a cache forgets; `missed`: anything may have changed.
   */
  subscribeTable(channel: TTriggerChannel, listener: (change: TTableChange) => void): () => void;
  close(): Promise<void>;
}

/** The channels the database's own triggers announce on. */
const TRIGGER_CHANNELS = [BALANCE_CHANGED_CHANNEL, ROOM_LIST_CHANGED_CHANNEL, RUN_CHANGED_CHANNEL] as const;
export type TTriggerChannel = (typeof TRIGGER_CHANNELS)[number];
export type TTableChange = { key: string } | { missed: true };

interface TLog {
  warn(object: object, message: string): void;
}

export function startSessionEvents(orm: MikroORM, log: TLog): TSessionEventBus {
  const self = randomUUID();
  const listeners = new Set<(change: TSessionChange) => void>();
  const tableListeners = new Map<string, Set<(change: TTableChange) => void>>(
    TRIGGER_CHANNELS.map((channel) => [channel, new Set()]),
  );
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const deliverTo = <T>(to: Set<(change: T) => void>, change: T) => {
    for (const listener of to) {
      try {
        listener(change);
      } catch (error) {
        log.warn({ err: error }, 'a session-end listener failed');
      }
    }
  };
  const deliver = (change: TSessionChange) => deliverTo(listeners, change);

  const listen = async () => {
    const next = new pg.Client({ connectionString: orm.config.get('clientUrl') });
    const reconnect = (error?: unknown) => {
      if (client !== next) return;
      client = undefined;
      quiet(next);
      void next.end().catch(() => {});
      if (error) log.warn({ err: error }, 'session-end listener lost its connection; reconnecting');
      if (closed) return;
      retry = setTimeout(() => void listen(), RECONNECT_MS);
      retry.unref();
    };
    client = next;
    next.on('error', reconnect);
    next.on('end', () => reconnect(new Error('connection ended')));
    next.on('notification', (message) => {
      const table = tableListeners.get(message.channel);
      if (table) {
        if (message.payload) deliverTo(table, { key: message.payload });
        return;
      }
      if (message.channel !== SESSION_END_CHANNEL || !message.payload) return;
      let notice: z.infer<typeof ZNotice>;
      try {
        notice = ZNotice.parse(JSON.parse(message.payload));
      } catch {
        return;
      }
      if (notice.from !== self) deliver(notice.change);
    });
    try {
      await next.connect();
      await next.query(
        [SESSION_END_CHANNEL, ...TRIGGER_CHANNELS].map((channel) => `LISTEN ${channel}`).join('; '),
      );
      // Whatever was announced while no connection listened is unknown: caches start afresh.
      deliver({ missed: true });
      for (const table of tableListeners.values()) deliverTo(table, { missed: true });
    } catch (error) {
      reconnect(error);
    }
  };
  void listen();

  const announce = async (change: TAnnouncedChange) => {
    deliver(change);
    try {
      await notifySessionChange(orm.em.fork(), change, self);
    } catch (error) {
      log.warn({ err: error }, 'could not tell other processes that sessions ended or an account changed');
    }
  };

  return {
    ended: announce,
    accountChanged: (userId) => announce({ accountChanged: userId }),
    subscribe(listener) {
      const endsOnly = (change: TSessionChange) => {
        if ('sessionId' in change || 'userId' in change) listener(change);
      };
      listeners.add(endsOnly);
      return () => listeners.delete(endsOnly);
    },
    subscribeChanges(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscribeTable(channel, listener) {
      const table = tableListeners.get(channel);
      table?.add(listener);
      return () => table?.delete(listener);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      if (!last) return;
      quiet(last);
      await last.end().catch(() => {});
    },
  };
}

/** A client being let go still may emit 'error', which must not be left unhandled. */
function quiet(client: pg.Client): void {
  client.removeAllListeners();
  client.on('error', () => {});
}
