/**
 * Keeps a child process running: when it exits without being asked to, it is started again, at once the first
 * time and then after growing pauses, and after too many attempts in a row it is given up on (a process that
 * cannot run is not restarted hot forever). A run that lasts `steadyMs` counts as healthy again, so a crash a day
 * is restarted at once every time. Every exit, restart and failure is reported to `onEvent` to be logged.
 */
import type { ChildProcess } from 'node:child_process';

export type TSupervisionEvent =
  /** The process exited on its own (code or signal); a restart follows after `restartInMs` unless given up. */
  | {
      kind: 'exited';
      pid: number | undefined;
      code: number | null;
      signal: NodeJS.Signals | null;
      uptimeMs: number;
      attempt: number;
      maxAttempts: number;
      restartInMs: number;
    }
  /** A restart attempt started it again; `downMs` since the exit. */
  | { kind: 'restarted'; pid: number | undefined; attempt: number; downMs: number }
  /** A restart attempt failed; the next one follows after `restartInMs`. */
  | { kind: 'restart-failed'; attempt: number; maxAttempts: number; error: Error; restartInMs: number }
  /** `attempts` restarts in a row failed or did not last: no more are tried. */
  | { kind: 'gave-up'; attempts: number; error: Error | undefined };

export interface TSupervisionOptions {
  onEvent(event: TSupervisionEvent): void;
  /** Restart attempts in a row (without a steady run between them) before giving up. */
  maxAttempts?: number;
  /** The pause before the second attempt of a row; it doubles with each further one, up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** How long a run must last for the next exit to start a new row of attempts. */
  steadyMs?: number;
}

export const supervisionDefaults = {
  maxAttempts: 10,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  steadyMs: 60_000,
} as const;

export class ProcessSupervisor {
  private readonly settings: Required<Omit<TSupervisionOptions, 'onEvent'>>;
  /** Attempts in the current row; 0 while the process runs steadily. */
  private attempt = 0;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private restarting: Promise<void> | undefined;

  /** `start` resolves with the process once it serves, and rejects (having ended it) when it cannot. */
  constructor(
    private readonly start: () => Promise<ChildProcess>,
    private readonly options: TSupervisionOptions,
  ) {
    this.settings = { ...supervisionDefaults, ...withoutUndefined(options) };
  }

  /** Watches a process that `start` (or the first start, outside the supervisor) made. */
  watch(child: ChildProcess): void {
    const startedAt = Date.now();
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      const uptimeMs = Date.now() - startedAt;
      if (uptimeMs >= this.settings.steadyMs) this.attempt = 0;
      this.next(Date.now(), (restartInMs, attempt) =>
        this.options.onEvent({
          kind: 'exited',
          pid: child.pid,
          code,
          signal,
          uptimeMs,
          attempt,
          maxAttempts: this.settings.maxAttempts,
          restartInMs,
        }),
      );
    });
  }

  /** No more restarts; waits for one under way, whose process is then the caller's to stop. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.restarting;
  }

  /** The pause before attempt `n` of a row: none for the first, then base, 2 × base, … up to the maximum. */
  delayBefore(attempt: number): number {
    if (attempt <= 1) return 0;
    return Math.min(this.settings.baseDelayMs * 2 ** (attempt - 2), this.settings.maxDelayMs);
  }

  private next(
    downSince: number,
    announce: (restartInMs: number, attempt: number) => void,
    error?: Error,
  ): void {
    this.attempt += 1;
    if (this.attempt > this.settings.maxAttempts) {
      this.options.onEvent({ kind: 'gave-up', attempts: this.attempt - 1, error });
      return;
    }
    const attempt = this.attempt;
    const delay = this.delayBefore(attempt);
    announce(delay, attempt);
    this.timer = setTimeout(() => {
      this.restarting = this.restart(downSince, attempt).finally(() => {
        this.restarting = undefined;
      });
    }, delay);
  }

  private async restart(downSince: number, attempt: number): Promise<void> {
    if (this.stopping) return;
    try {
      const child = await this.start();
      this.options.onEvent({ kind: 'restarted', pid: child.pid, attempt, downMs: Date.now() - downSince });
      this.watch(child);
    } catch (caught) {
      if (this.stopping) return;
      const error = caught instanceof Error ? caught : new Error(String(caught));
      this.next(
        downSince,
        (restartInMs, next) =>
          this.options.onEvent({
            kind: 'restart-failed',
            attempt: next - 1,
            maxAttempts: this.settings.maxAttempts,
            error,
            restartInMs,
          }),
        error,
      );
    }
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
