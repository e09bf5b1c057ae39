// Fixed-window counters in this process's memory. One node serves the API today; a shared store (Redis) belongs
// here when there are several.
import type { RateLimiter } from '@rooms/api';

interface TWindow {
  count: number;
  resetsAt: number;
}

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter & { clear(): void } {
  const windows = new Map<string, TWindow>();
  let lastSweep = now();

  function sweep(at: number) {
    if (at - lastSweep < 60_000) return;
    lastSweep = at;
    for (const [key, window] of windows) if (window.resetsAt <= at) windows.delete(key);
  }

  return {
    async hit(key, limit, windowSeconds) {
      const at = now();
      sweep(at);
      let window = windows.get(key);
      if (!window || window.resetsAt <= at) {
        window = { count: 0, resetsAt: at + windowSeconds * 1000 };
        windows.set(key, window);
      }
      window.count += 1;
      return window.count > limit ? Math.ceil((window.resetsAt - at) / 1000) : 0;
    },
    async peek(key, limit) {
      const at = now();
      const window = windows.get(key);
      if (!window || window.resetsAt <= at || window.count < limit) return 0;
      return Math.ceil((window.resetsAt - at) / 1000);
    },
    async undo(key) {
      const window = windows.get(key);
      if (window && window.resetsAt > now() && window.count > 0) window.count -= 1;
    },
    clear: () => windows.clear(),
  };
}
