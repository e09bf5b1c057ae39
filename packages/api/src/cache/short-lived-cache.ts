// Values kept in memory for a few seconds, evicted by events (the session cache, the balance cache). Correctness
// rests on the events; the lifetime only bounds what a lost event could leave behind.

export class ShortLivedCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  /** Bumped by every eviction: a read that began before a change must not store what it read. */
  private changes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > this.clock()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Taken before the read whose result `remember` stores. */
  generation(): number {
    return this.changes;
  }

  /** Stores a value read at `generation`, unless something was evicted since: then the read may be stale. */
  remember(key: K, value: V, generation: number): void {
    if (generation !== this.changes) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, until: this.clock() + this.ttlMs });
  }

  /** The value for `key`, read by `read` and kept when it is not in the cache. */
  async through(key: K, read: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const generation = this.changes;
    const value = await read();
    this.remember(key, value, generation);
    return value;
  }

  forget(key: K): void {
    this.changes++;
    this.entries.delete(key);
  }

  forgetWhere(concerns: (value: V) => boolean): void {
    this.changes++;
    for (const [key, { value }] of this.entries) if (concerns(value)) this.entries.delete(key);
  }

  clear(): void {
    this.changes++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
