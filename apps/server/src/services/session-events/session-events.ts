// Session ends (logout, a password change or reset, an operator disabling an account) told to whoever holds a
// connection opened with those sessions: at once in this process, and through PostgreSQL NOTIFY to every other
// process on the same database (the operator CLI runs apart from the server; a second server node would too).
// A notification lost while the listening connection is down is caught by the relay's periodic re-check.
import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { SessionEvents, TSessionEnd } from '@rooms/api';
import pg from 'pg';
import { z } from 'zod';

export const SESSION_END_CHANNEL = 'rooms_session_ended';
const RECONNECT_MS = 5000;

const ZNotice = z.object({
  /** The sending process, which has already told its own listeners. */
  from: z.string(),
  end: z.union([
    z.object({ sessionId: z.string() }),
    z.object({ userId: z.string(), exceptSessionId: z.string().optional() }),
  ]),
});

/** Tells every process listening on this database (for processes that do not listen, like the CLI). */
export async function notifySessionEnd(em: EntityManager, end: TSessionEnd, from = 'cli'): Promise<void> {
  const notice: z.input<typeof ZNotice> = { from, end };
  await em.execute('select pg_notify(?, ?)', [SESSION_END_CHANNEL, JSON.stringify(notice)]);
}

export interface TSessionEventBus extends SessionEvents {
  subscribe(listener: (end: TSessionEnd) => void): () => void;
  close(): Promise<void>;
}

interface TLog {
  warn(object: object, message: string): void;
}

export function startSessionEvents(orm: MikroORM, log: TLog): TSessionEventBus {
  const self = randomUUID();
  const listeners = new Set<(end: TSessionEnd) => void>();
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const deliver = (end: TSessionEnd) => {
    for (const listener of listeners) {
      try {
        listener(end);
      } catch (error) {
        log.warn({ err: error }, 'a session-end listener failed');
      }
    }
  };

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
      if (message.channel !== SESSION_END_CHANNEL || !message.payload) return;
      let notice: z.infer<typeof ZNotice>;
      try {
        notice = ZNotice.parse(JSON.parse(message.payload));
      } catch {
        return;
      }
      if (notice.from !== self) deliver(notice.end);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${SESSION_END_CHANNEL}`);
    } catch (error) {
      reconnect(error);
    }
  };
  void listen();

  return {
    async ended(end) {
      deliver(end);
      try {
        await notifySessionEnd(orm.em.fork(), end, self);
      } catch (error) {
        log.warn({ err: error }, 'could not tell other processes that sessions ended');
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
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
