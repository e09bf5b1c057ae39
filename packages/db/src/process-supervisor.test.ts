// The supervisor's restart policy on real processes: restarted at once, then after growing pauses, given up on after
// a bounded number of attempts in a row, a fresh row after a steady run, nothing after stop().
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessSupervisor, type TSupervisionEvent } from './process-supervisor';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A Node process that exits with `code` after `ms`. */
function short(code: number, ms = 0): ChildProcess {
  const child = spawn(process.execPath, ['-e', `setTimeout(() => process.exit(${code}), ${ms})`], {
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

/** Collects events until one of `kind` arrives. */
function recorder() {
  const events: TSupervisionEvent[] = [];
  let wake: (() => void) | undefined;
  return {
    events,
    onEvent(event: TSupervisionEvent) {
      events.push(event);
      wake?.();
    },
    async until(kind: TSupervisionEvent['kind'], count = 1) {
      while (events.filter((event) => event.kind === kind).length < count) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

const fast = { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 50, steadyMs: 60_000 };

describe('ProcessSupervisor', () => {
  it('restarts a process that keeps dying at growing pauses, then gives up', async () => {
    const record = recorder();
    let started = 0;
    const supervisor = new ProcessSupervisor(
      async () => {
        started += 1;
        return short(3);
      },
      { ...fast, onEvent: record.onEvent },
    );
    supervisor.watch(short(3));
    await record.until('gave-up');

    const exits = record.events.filter((event) => event.kind === 'exited');
    expect(exits.map((event) => [event.code, event.signal, event.attempt, event.restartInMs])).toEqual([
      [3, null, 1, 0],
      [3, null, 2, 20],
      [3, null, 3, 40],
      [3, null, 4, 50],
    ]);
    expect(record.events.filter((event) => event.kind === 'restarted')).toHaveLength(4);
    expect(record.events.at(-1)).toMatchObject({ kind: 'gave-up', attempts: 4 });
    expect(started).toBe(4);
  });

  it('retries a start that fails, then gives up with its error', async () => {
    const record = recorder();
    const supervisor = new ProcessSupervisor(
      async () => {
        throw new Error('could not bind 127.0.0.1');
      },
      { ...fast, onEvent: record.onEvent },
    );
    const child = short(0);
    supervisor.watch(child);
    await record.until('gave-up');

    expect(
      record.events.map((event) => [event.kind, 'restartInMs' in event ? event.restartInMs : null]),
    ).toEqual([
      ['exited', 0],
      ['restart-failed', 20],
      ['restart-failed', 40],
      ['restart-failed', 50],
      ['gave-up', null],
    ]);
    expect(record.events.at(-1)).toMatchObject({
      attempts: 4,
      error: { message: 'could not bind 127.0.0.1' },
    });
  });

  it('restarts at once again after a steady run', async () => {
    const record = recorder();
    // Each run outlives steadyMs, so every exit begins a new row of attempts.
    const supervisor = new ProcessSupervisor(async () => short(1, 300), {
      ...fast,
      steadyMs: 100,
      onEvent: record.onEvent,
    });
    supervisor.watch(short(1, 300));
    await record.until('exited', 3);
    await supervisor.stop();

    const exits = record.events.filter((event) => event.kind === 'exited');
    expect(exits.slice(0, 3).map((event) => [event.attempt, event.restartInMs])).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
  });

  it('leaves a process stopped after stop()', async () => {
    const record = recorder();
    const supervisor = new ProcessSupervisor(async () => short(0), { ...fast, onEvent: record.onEvent });
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(child);
    supervisor.watch(child);
    await supervisor.stop();
    child.kill('SIGTERM');
    await once(child, 'exit');
    await new Promise((resolve) => setImmediate(resolve));
    expect(record.events).toEqual([]);
  });
});
