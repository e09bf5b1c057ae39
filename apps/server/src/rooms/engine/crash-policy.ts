// Whether a room whose browser (or display, or sound server) died by itself starts again: it does, unless it
// died this often lately, then it is left crashed for its owner to see instead of looping.

/** A room whose browser dies starts again by itself, unless it died this often within this window. */
const CRASH_RESTARTS = 3;
const CRASH_WINDOW_MS = 60_000;

/**
 * The room's recent crashes with this one (`now`, performance.now()) added, and whether it starts again.
 * `crashes` are the times of its earlier ones.
 */
export function afterCrash(crashes: readonly number[], now: number): { crashes: number[]; restart: boolean } {
  const recent = [...crashes.filter((at) => now - at < CRASH_WINDOW_MS), now];
  return { crashes: recent, restart: recent.length <= CRASH_RESTARTS };
}
