// The room's chat in memory: the latest messages for joiners (a bounded list that knows who wrote each, so a ban
// can take a person's messages away) and the sliding-window rate limit, per person.
import {
  CHAT_HISTORY_SIZE,
  CHAT_RATE_LIMIT,
  CHAT_RATE_WINDOW_MS,
  type TChatEntry,
} from '@rooms/api/room-protocol';

/** Who wrote a message: never shown to anyone, only matched when the owner bans someone. */
export interface TChatAuthor {
  userId: string | null;
  guestId: string | null;
}

/** A message as the room keeps it: what readers see, and its author. */
export interface TChatRecord extends TChatEntry {
  author: TChatAuthor;
}

/** Whether the message was written by one of these authors (by account, or by browser). */
export function writtenBy(author: TChatAuthor, authors: readonly TChatAuthor[]): boolean {
  return authors.some(
    (other) =>
      (author.userId !== null && author.userId === other.userId) ||
      (author.guestId !== null && author.guestId === other.guestId),
  );
}

export class ChatLog {
  private entries: TChatRecord[];

  constructor(
    earlier: readonly TChatRecord[] = [],
    private readonly capacity = CHAT_HISTORY_SIZE,
  ) {
    this.entries = earlier.slice(-capacity);
  }

  add(record: TChatRecord): void {
    this.entries.push(record);
    if (this.entries.length > this.capacity) this.entries.shift();
  }

  /** Takes away the messages of these authors; whether there were any. */
  retract(authors: readonly TChatAuthor[]): boolean {
    const kept = this.entries.filter((record) => !writtenBy(record.author, authors));
    const changed = kept.length !== this.entries.length;
    this.entries = kept;
    return changed;
  }

  /** Oldest first, as readers see them. */
  history(): TChatEntry[] {
    return this.entries.map(({ author: _author, ...entry }) => entry);
  }
}

/** At most `limit` events in any `windowMs`; a refused event does not count, so waiting always helps. */
export class SlidingWindow {
  private readonly times: number[] = [];

  constructor(
    private readonly limit = CHAT_RATE_LIMIT,
    private readonly windowMs = CHAT_RATE_WINDOW_MS,
  ) {}

  allow(now: number): boolean {
    this.forget(now);
    if (this.times.length >= this.limit) return false;
    this.times.push(now);
    return true;
  }

  /** Whether nothing in the window counts any more at `now`. */
  idle(now: number): boolean {
    this.forget(now);
    return this.times.length === 0;
  }

  private forget(now: number): void {
    while (this.times.length > 0 && now - this.times[0]! >= this.windowMs) this.times.shift();
  }
}

/** Beyond this many people with a window, the idle windows are dropped (whose count no longer matters). */
const SWEEP_ABOVE = 256;

/**
 * One window per person (by account, browser or address, else by seat), not per seat: leaving and joining
 * again, or a second tab, does not give anyone a fresh allowance.
 */
export class ChatRateLimits {
  private readonly windows = new Map<string, SlidingWindow>();

  allow(person: string, now: number): boolean {
    if (this.windows.size > SWEEP_ABOVE) {
      for (const [key, window] of this.windows) if (window.idle(now)) this.windows.delete(key);
    }
    let window = this.windows.get(person);
    if (!window) {
      window = new SlidingWindow();
      this.windows.set(person, window);
    }
    return window.allow(now);
  }
}
