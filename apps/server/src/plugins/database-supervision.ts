// What the server says about its embedded PostgreSQL when that dies under it (killed, crashed, out of disk): why it
// went (its exit code or signal, its last log lines), each restart and how long requests were refused, and when it
// stops trying. Requests that need the database answer 503 "briefly unavailable" meanwhile.
import type { TEmbeddedPostgresEvent } from '@rooms/db';
import type { FastifyBaseLogger } from 'fastify';

export function logEmbeddedPostgresEvent(log: FastifyBaseLogger, event: TEmbeddedPostgresEvent): void {
  const postgresLog = event.lastLogLines;
  switch (event.kind) {
    case 'exited': {
      // Exit code 0 is a shutdown someone asked for (a Ctrl-C that reached the whole process group, pg_ctl): started
      // again all the same, since the server needs it, but there is nothing to recover.
      const asked = !event.signal && event.code === 0;
      const why = event.signal
        ? `was killed by ${event.signal}`
        : asked
          ? 'was shut down without the server asking (exit code 0)'
          : `exited with code ${event.code}`;
      const when = event.restartInMs ? `in ${(event.restartInMs / 1000).toFixed(1)} s` : 'now';
      log.error(
        { pid: event.pid, code: event.code, signal: event.signal, uptimeMs: event.uptimeMs, postgresLog },
        `the embedded PostgreSQL ${why}; restarting it ${when} (attempt ${event.attempt} of ${event.maxAttempts})` +
          (asked ? '' : ', with crash recovery'),
      );
      return;
    }
    case 'restart-failed':
      log.error(
        { err: event.error, attempt: event.attempt, restartInMs: event.restartInMs, postgresLog },
        `the embedded PostgreSQL did not start again (attempt ${event.attempt} of ${event.maxAttempts}); ` +
          `next attempt in ${(event.restartInMs / 1000).toFixed(1)} s`,
      );
      return;
    case 'restarted':
      log.warn(
        { pid: event.pid, attempt: event.attempt, downMs: event.downMs },
        `the embedded PostgreSQL runs again (pid ${event.pid}, after ${(event.downMs / 1000).toFixed(1)} s); the server reconnects`,
      );
      return;
    case 'gave-up':
      log.fatal(
        { err: event.error, attempts: event.attempts, postgresLog },
        `gave up restarting the embedded PostgreSQL after ${event.attempts} attempts: requests that need the ` +
          'database answer 503 until the server is restarted (see the PostgreSQL log lines above for why)',
      );
      return;
  }
}
