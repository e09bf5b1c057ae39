// Where a process hears the database's notices (session ends, account changes, the triggers' table changes):
// - `databaseNotices`: its own LISTEN connection, on the control plane and a single server;
// - `relayedNotices`: the control plane's relay of its LISTEN (GET /fleet/notices, control-routes.ts), on agents and
//   gateways given CONTROL_URL: a thousand agents then cost PostgreSQL no thousand listening connections.
// Either tells its sink when it (re)connects, since what was announced while it was away is unknown.
import pg from 'pg';
import { z } from 'zod';

export interface TNotice {
  channel: string;
  payload: string;
}

export interface TNoticeSink {
  notice(notice: TNotice): void;
  /** Connected (again): notices may have been missed. */
  missed(): void;
}

export interface TNoticeSource {
  /** Starts listening; the returned function stops. */
  start(sink: TNoticeSink): () => Promise<void>;
}

interface TLog {
  warn(object: object, message: string): void;
}

const RECONNECT_MS = 5000;

export function databaseNotices(
  clientUrl: string,
  channels: readonly string[],
  log: TLog,
  applicationName?: string,
): TNoticeSource {
  return {
    start(sink) {
      let client: pg.Client | undefined;
      let retry: NodeJS.Timeout | undefined;
      let closed = false;
      const listen = async () => {
        const next = new pg.Client({ connectionString: clientUrl, application_name: applicationName });
        const reconnect = (error?: unknown) => {
          if (client !== next) return;
          client = undefined;
          quiet(next);
          void next.end().catch(() => {});
          if (error) log.warn({ err: error }, 'the notice listener lost its connection; reconnecting');
          if (closed) return;
          retry = setTimeout(() => void listen(), RECONNECT_MS);
          retry.unref();
        };
        client = next;
        next.on('error', reconnect);
        next.on('end', () => reconnect(new Error('connection ended')));
        next.on('notification', (message) => {
          if (message.payload !== undefined)
            sink.notice({ channel: message.channel, payload: message.payload });
        });
        try {
          await next.connect();
          await next.query(channels.map((channel) => `LISTEN ${channel}`).join('; '));
          sink.missed();
        } catch (error) {
          reconnect(error);
        }
      };
      void listen();
      return async () => {
        closed = true;
        clearTimeout(retry);
        const last = client;
        client = undefined;
        if (!last) return;
        quiet(last);
        await last.end().catch(() => {});
      };
    },
  };
}

/** A client being let go still may emit 'error', which must not be left unhandled. */
function quiet(client: pg.Client): void {
  client.removeAllListeners();
  client.on('error', () => {});
}

/** One line of the relay: a notice, or an empty object that says the stream is alive. */
const ZRelayLine = z.union([z.object({ channel: z.string(), payload: z.string() }), z.object({})]);

/** The relay writes a line at least this often; a stream silent for three of them is dead (a lost peer). */
export const RELAY_KEEPALIVE_MS = 15_000;

/** `authorization`: the Authorization header of one GET of the relay (the process's fleet credential). */
export function relayedNotices(
  noticesUrl: string,
  authorization: () => Promise<string>,
  log: TLog,
): TNoticeSource {
  return {
    start(sink) {
      let closed = false;
      let aborter: AbortController | undefined;
      let retry: NodeJS.Timeout | undefined;
      const follow = async () => {
        const abort = new AbortController();
        aborter = abort;
        let watchdog: NodeJS.Timeout | undefined;
        const alive = () => {
          clearTimeout(watchdog);
          watchdog = setTimeout(
            () => abort.abort(new Error('the notice relay fell silent')),
            3 * RELAY_KEEPALIVE_MS,
          );
          watchdog.unref();
        };
        try {
          alive();
          const response = await fetch(noticesUrl, {
            headers: { authorization: await authorization() },
            signal: abort.signal,
          });
          if (!response.ok || !response.body) throw new Error(`the notice relay answered ${response.status}`);
          sink.missed();
          let pending = '';
          const decoder = new TextDecoder();
          const reader = response.body.getReader();
          for (let read = await reader.read(); !read.done; read = await reader.read()) {
            const chunk = read.value;
            alive();
            pending += decoder.decode(chunk, { stream: true });
            const lines = pending.split('\n');
            pending = lines.pop() ?? '';
            for (const line of lines) {
              if (!line) continue;
              const parsed = ZRelayLine.safeParse(JSON.parse(line));
              if (parsed.success && 'channel' in parsed.data) {
                sink.notice({ channel: parsed.data.channel, payload: parsed.data.payload });
              }
            }
          }
          throw new Error('the notice relay ended the stream');
        } catch (error) {
          if (closed) return;
          log.warn({ err: error }, 'the notice relay is out of reach; following it again');
          retry = setTimeout(() => void follow(), RECONNECT_MS / 5);
          retry.unref();
        } finally {
          clearTimeout(watchdog);
        }
      };
      void follow();
      return async () => {
        closed = true;
        clearTimeout(retry);
        aborter?.abort();
      };
    },
  };
}
