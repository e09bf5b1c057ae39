import type { TRoomStateChange } from '@rooms/api';
import { describe, expect, it } from 'vitest';
import { busyPercent } from './cpu-sampler';
import { memoryInUse } from './memory';
import { startNodeMonitor } from './node-monitor';

function fakeEngine() {
  const listeners = new Set<(change: TRoomStateChange) => void>();
  return {
    running: 0,
    capacity() {
      return { running: this.running, max: 4 };
    },
    onStateChange(listener: (change: TRoomStateChange) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(change: TRoomStateChange) {
      for (const listener of listeners) listener(change);
    },
  };
}

describe('startNodeMonitor', () => {
  it('times starts from starting to running, and counts starts that never ran as failed', () => {
    let clock = 1_000_000;
    const engine = fakeEngine();
    const monitor = startNodeMonitor({ engine, now: () => clock, name: 'node-a' });

    engine.emit({ roomId: 'a', state: 'starting' });
    clock += 1500;
    engine.emit({ roomId: 'a', state: 'running' });
    engine.running = 1;
    engine.emit({ roomId: 'b', state: 'starting' });
    clock += 300;
    engine.emit({ roomId: 'b', state: 'crashed', reason: 'crashed' });
    // A stop of a running room is not a start.
    engine.emit({ roomId: 'a', state: 'stopping' });

    const state = monitor.state();
    monitor.close();
    expect(state).toMatchObject({
      name: 'node-a',
      rooms: { running: 1, max: 4 },
      startLatency: { windowMinutes: 60, started: 1, failed: 1, medianMs: 1500, maxMs: 1500 },
    });
    expect(state.cpu.cores).toBeGreaterThan(0);
    expect(state.memory.usedBytes).toBeGreaterThan(0);
    expect(state.memory.usedBytes).toBeLessThanOrEqual(state.memory.totalBytes);
  });
});

describe('load readings', () => {
  it('gives the busy share between two CPU readings', () => {
    expect(busyPercent({ busy: 100, total: 1000 }, { busy: 350, total: 1500 })).toBe(50);
    expect(busyPercent({ busy: 1, total: 10 }, { busy: 1, total: 10 })).toBe(0);
  });

  it('counts reclaimable memory as available', () => {
    const used = memoryInUse('MemTotal: 100 kB\nMemFree: 10 kB\nMemAvailable:    1024 kB\n');
    expect(used.usedBytes).toBe(used.totalBytes - 1024 * 1024);
  });
});
