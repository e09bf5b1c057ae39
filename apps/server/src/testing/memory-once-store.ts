// A single-process OnceStore: for unit tests and a one-instance dev server. Production uses the PostgreSQL store,
// which several server processes share; this one forgets everything on restart.
import type { OnceStore } from '@rooms/api';

/** Sweeping on every claim would make each claim O(n); once a minute keeps memory bounded by the traffic. */
const SWEEP_INTERVAL_MS = 60_000;

export class MemoryOnceStore implements OnceStore {
  readonly #expiries = new Map<string, number>();
  readonly #now: () => number;
  #lastSweep: number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#lastSweep = this.#now();
  }

  async claim(key: string, expiresAt: Date): Promise<boolean> {
    const now = this.#now();
    if (now - this.#lastSweep >= SWEEP_INTERVAL_MS) this.#sweep(now);
    const held = this.#expiries.get(key);
    if (held !== undefined && held > now) return false;
    this.#expiries.set(key, expiresAt.getTime());
    return true;
  }

  /** Keys currently remembered, expired or not; lets tests see the sweep work. */
  get size(): number {
    return this.#expiries.size;
  }

  #sweep(now: number): void {
    for (const [key, expiresAt] of this.#expiries) if (expiresAt <= now) this.#expiries.delete(key);
    this.#lastSweep = now;
  }
}
