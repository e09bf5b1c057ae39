// This server's state for /serverstate: rooms against capacity from the engine, CPU and memory from the
// operating system, and room start times from the engine's state changes.
import { hostname } from 'node:os';
import type { NodeMonitor, RoomEngine, TNodeState } from '@rooms/api';
import { CpuSampler } from './cpu-sampler';
import { memoryInUse } from './memory';
import { StartLatencyLog } from './start-latency-log';

export interface TNodeMonitor extends NodeMonitor {
  close(): void;
}

export function startNodeMonitor(options: {
  engine: Pick<RoomEngine, 'capacity' | 'onStateChange'>;
  now?: () => number;
  name?: string;
}): TNodeMonitor {
  const now = options.now ?? Date.now;
  const startedAt = new Date(now());
  const cpu = new CpuSampler();
  const latency = new StartLatencyLog();
  const startingSince = new Map<string, number>();

  const stopListening = options.engine.onStateChange(({ roomId, state }) => {
    if (state === 'starting') {
      startingSince.set(roomId, now());
      return;
    }
    const since = startingSince.get(roomId);
    if (since === undefined) return;
    startingSince.delete(roomId);
    if (state === 'running') latency.started(now() - since, now());
    else latency.failed(now());
  });

  return {
    state(): TNodeState {
      return {
        name: options.name ?? hostname(),
        startedAt,
        rooms: options.engine.capacity(),
        cpu: { cores: cpu.cores, percent: Math.round(cpu.busy * 10) / 10 },
        memory: memoryInUse(),
        startLatency: latency.summary(now()),
      };
    },
    close() {
      stopListening();
      cpu.close();
    },
  };
}
