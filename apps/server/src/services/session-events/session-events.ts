// Session ends (logout, a password change or reset, an operator disabling an account) told to whoever holds a
// connection opened with those sessions, and account changes told to the session caches: at once in this
// process, and through PostgreSQL NOTIFY to every other process on the same database (the operator CLI runs apart
// from the server; a second server node would too). The database itself announces ledger writes and room-list
// changes (triggers), which the balance and room-list caches hear through the same connection. A notification lost
// while the listening connection is down is caught by the relay's periodic re-check and by the session cache's
// short lifetime. Where the notices come from is the source's business (notice-sources.ts): the database's LISTEN on
// the control plane and a single server; on agents and gateways with CONTROL_URL, the control plane's relay of it,
// so a fleet of a thousand agents holds no thousand listening connections.
import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { SessionEvents, TSessionChange, TSessionEnd } from '@rooms/api';
import { BALANCE_CHANGED_CHANNEL, ROOM_LIST_CHANGED_CHANNEL, RUN_CHANGED_CHANNEL } from '@rooms/db';
import { z } from 'zod';
import type { TNotice, TNoticeSource } from './notice-sources';

export const SESSION_END_CHANNEL = 'rooms_session_ended';

const ZNotice = z.object({
  /** The sending process, which has already told its own listeners. */
  from: z.string(),
  change: z.union([
    z.object({ sessionId: z.string() }),
    z.object({
      userId: z.string(),
      exceptSessionId: z.string().optional(),
      disabled: z.boolean().optional(),
    }),
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
  /** Every notice as it came (the control plane relays them to agents and gateways: control-routes.ts). */
  subscribeNotices(listener: (notice: TNotice) => void): () => void;
  close(): Promise<void>;
}

/** The channels the database's own triggers announce on. */
export const TRIGGER_CHANNELS = [
  BALANCE_CHANGED_CHANNEL,
  ROOM_LIST_CHANGED_CHANNEL,
  RUN_CHANGED_CHANNEL,
] as const;
/** Everything the bus listens to. */
export const SESSION_EVENT_CHANNELS = [SESSION_END_CHANNEL, ...TRIGGER_CHANNELS] as const;
export type TTriggerChannel = (typeof TRIGGER_CHANNELS)[number];
export type TTableChange = { key: string } | { missed: true };

interface TLog {
  warn(object: object, message: string): void;
}

export function startSessionEvents(orm: MikroORM, log: TLog, source: TNoticeSource): TSessionEventBus {
  const self = randomUUID();
  const listeners = new Set<(change: TSessionChange) => void>();
  const tableListeners = new Map<string, Set<(change: TTableChange) => void>>(
    TRIGGER_CHANNELS.map((channel) => [channel, new Set()]),
  );
  const noticeListeners = new Set<(notice: TNotice) => void>();

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

  const stopSource = source.start({
    notice(notice) {
      deliverTo(noticeListeners, notice);
      const table = tableListeners.get(notice.channel);
      if (table) {
        if (notice.payload) deliverTo(table, { key: notice.payload });
        return;
      }
      if (notice.channel !== SESSION_END_CHANNEL || !notice.payload) return;
      let parsed: z.infer<typeof ZNotice>;
      try {
        parsed = ZNotice.parse(JSON.parse(notice.payload));
      } catch {
        return;
      }
      if (parsed.from !== self) deliver(parsed.change);
    },
    // Whatever was announced while nothing listened is unknown: caches start afresh.
    missed() {
      deliver({ missed: true });
      for (const table of tableListeners.values()) deliverTo(table, { missed: true });
    },
  });

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
    subscribeNotices(listener) {
      noticeListeners.add(listener);
      return () => noticeListeners.delete(listener);
    },
    close: stopSource,
  };
}
