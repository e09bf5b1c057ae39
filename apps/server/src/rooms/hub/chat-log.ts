// The room's chat: the latest messages for joiners (a bounded ring) and each member's sliding-window rate limit.
import {
  CHAT_HISTORY_SIZE,
  CHAT_RATE_LIMIT,
  CHAT_RATE_WINDOW_MS,
  type TChatEntry,
} from '@rooms/api/room-protocol';

export class ChatLog {
  private readonly entries: TChatEntry[] = [];

  constructor(private readonly capacity = CHAT_HISTORY_SIZE) {}

  add(entry: TChatEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.shift();
  }

  /** Oldest first. */
  history(): TChatEntry[] {
    return [...this.entries];
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
    while (this.times.length > 0 && now - this.times[0]! >= this.windowMs) this.times.shift();
    if (this.times.length >= this.limit) return false;
    this.times.push(now);
    return true;
  }
}
