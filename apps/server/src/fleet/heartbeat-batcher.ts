// The control plane's side of agents' heartbeats: what reaches it within a few milliseconds is written in one
// transaction (fleet.heartbeats), so a thousand agents beating every 3 s cost PostgreSQL a handful of transactions a
// second on the control plane's own connections, instead of a transaction and a connection per agent. Each caller
// gets its own agent's answer. An agent of `npm start` (role all), or one told no CONTROL_URL, uses the same batcher
// in its own process.
import type { MikroORM } from '@mikro-orm/postgresql';
import { fleet } from '@rooms/api';
import type { RoomAgentState } from '@rooms/db';

/** How long the first heartbeat of a batch waits for others: far below the 3 s between an agent's beats. */
const BATCH_WINDOW_MS = 20;
/** A batch this big is written at once: one statement's JSON stays small (a report is ~1 KB). */
const MAX_BATCH = 500;

/** An answer as it travels: the runs' ids are all an agent needs of them. */
export type THeartbeatAnswer =
  | { ok: true; state: RoomAgentState; runIds: string[] }
  | { ok: false; reason: 'lost' | 'not-found' };

/** Where an agent sends its heartbeats: this process's batcher, or the control plane's over HTTP. */
export type THeartbeatSink = (requests: fleet.THeartbeatRequest[]) => Promise<THeartbeatAnswer[]>;

interface TWaiting {
  request: fleet.THeartbeatRequest;
  resolve(answer: THeartbeatAnswer): void;
  reject(error: unknown): void;
}

export class HeartbeatBatcher {
  private waiting: TWaiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Batches written one after another: each locks its agents, and a second at once would only wait for it. */
  private writing: Promise<unknown> = Promise.resolve();
  private readonly stats = { batches: 0, beats: 0 };

  constructor(
    private readonly orm: MikroORM,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Heartbeats of one agent process (one per zone it serves), answered in order. */
  readonly beat: THeartbeatSink = (requests) =>
    Promise.all(
      requests.map(
        (request) =>
          new Promise<THeartbeatAnswer>((resolve, reject) => {
            this.waiting.push({ request, resolve, reject });
            if (this.waiting.length >= MAX_BATCH) this.flush();
            else this.timer ??= setTimeout(() => this.flush(), BATCH_WINDOW_MS);
          }),
      ),
    );

  /** Batches written and heartbeats in them since the start (bench:fleet reads them). */
  counts(): { batches: number; beats: number } {
    return { ...this.stats };
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting.splice(0);
    if (batch.length === 0) return;
    this.writing = this.writing.then(async () => {
      try {
        const answers = await fleet.heartbeats(
          this.orm.em.fork(),
          batch.map((waiting) => waiting.request),
          this.now(),
        );
        this.stats.batches++;
        this.stats.beats += batch.length;
        for (const [index, waiting] of batch.entries()) waiting.resolve(toWire(answers[index]!));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    });
  }
}

function toWire(answer: fleet.THeartbeat): THeartbeatAnswer {
  if (!answer.ok) return answer;
  return { ok: true, state: answer.state, runIds: answer.runs.map((run) => run.id) };
}
