// The egress proxy's refusals, summed per room into one warning line a minute. A page that retries a blocked
// address in a loop (or a stranger's script that scans the private network) would otherwise write a line per try,
// drowning the other rooms' lines and filling the disk; the sum says as much: which room, how many, and what it
// tried to reach.

/** One refused target (host and port only: paths and queries can carry the user's tokens). */
export interface TBlockedRequest {
  target: string;
  via: 'http' | 'connect' | 'upgrade';
  reason: string;
}

export interface TBlockedLogOptions {
  logger: { warn(obj: object, msg: string): void };
  /** How long refusals are summed before their line is written; a minute unless a test says otherwise. */
  intervalMs?: number;
}

/** Distinct targets named in a room's line: enough to see what it reached for, bounded whatever it tried. */
const TARGETS_SHOWN = 5;

interface TRoomTally {
  count: number;
  targets: Map<string, Omit<TBlockedRequest, 'target'>>;
}

export class BlockedLog {
  private readonly tallies = new Map<string, TRoomTally>();
  private timer: NodeJS.Timeout | undefined;
  private readonly intervalMs: number;

  constructor(private readonly options: TBlockedLogOptions) {
    this.intervalMs = options.intervalMs ?? 60_000;
  }

  /** `room`: the room's id, or the run's own while it waits in the warm pool. */
  record(room: string, request: TBlockedRequest): void {
    let tally = this.tallies.get(room);
    if (!tally) {
      tally = { count: 0, targets: new Map() };
      this.tallies.set(room, tally);
    }
    tally.count++;
    if (tally.targets.size < TARGETS_SHOWN && !tally.targets.has(request.target)) {
      tally.targets.set(request.target, { via: request.via, reason: request.reason });
    }
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes one line per room with refusals since the last one; the proxy's close writes what is left. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const [room, tally] of this.tallies) {
      this.options.logger.warn(
        {
          room,
          blocked: tally.count,
          targets: [...tally.targets].map(([target, about]) => ({ target, ...about })),
        },
        'room browser egress blocked',
      );
    }
    this.tallies.clear();
  }
}
