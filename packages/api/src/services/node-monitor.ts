// What this server reports about itself on /serverstate: the rooms it runs against its capacity, its CPU and
// memory, and how long rooms took to start over the last hour. apps/server samples these; the API only reads.

export interface TStartLatency {
  /** The window the figures cover, in minutes. */
  windowMinutes: number;
  /** Rooms that reached running within the window. */
  started: number;
  /** Starts that ended in a failure (crash or refusal before running) within the window. */
  failed: number;
  medianMs: number | null;
  p95Ms: number | null;
  maxMs: number | null;
}

export interface TNodeState {
  /** This server's name (NODE_NAME, by default its host name). */
  name: string;
  startedAt: Date;
  rooms: { running: number; max: number };
  cpu: { cores: number /** Busy share of all cores over the last sample, 0–100. */; percent: number };
  memory: { totalBytes: number; usedBytes: number };
  startLatency: TStartLatency;
}

export interface NodeMonitor {
  state(): TNodeState;
}
