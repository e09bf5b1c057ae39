// How a page waits for a room that went away to run again, shared by the web app and the tests that act as it.
// Soon after a restart the room is back within seconds, so the page asks often, then less often: every ask spends
// a ticket (POST /ws/ticket) of the browser's budget for the room, and the pages of a household or an office ask
// side by side. A little randomness keeps them from asking in step.

/** The first ask after the room went away restarting, and how each wait grows from there up to its ceiling. */
export const REJOIN_FIRST_MS = 400;
const REJOIN_GROWTH = 1.5;
export const REJOIN_RESTARTING_MAX_MS = 1_500;
/** A room stopped (or restarting for longer than REJOIN_PATIENCE_MS) is asked after this calmly. */
export const REJOIN_STOPPED_MS = 3_000;
export const REJOIN_PATIENCE_MS = 30_000;
/** Each wait is this share shorter or longer, at random. */
const REJOIN_JITTER = 0.2;

/**
 * How long to wait before asking again whether the room runs: `asked` times already since it went away, for
 * `waitedMs`, restarting (the server said so) or stopped.
 */
export function rejoinDelayMs(
  asked: number,
  waitedMs: number,
  restarting: boolean,
  random: () => number = Math.random,
): number {
  const base =
    restarting && waitedMs < REJOIN_PATIENCE_MS
      ? Math.min(REJOIN_RESTARTING_MAX_MS, REJOIN_FIRST_MS * REJOIN_GROWTH ** asked)
      : REJOIN_STOPPED_MS;
  return Math.round(base * (1 - REJOIN_JITTER + 2 * REJOIN_JITTER * random()));
}

/** How long a refused ask (429) says to wait, from its Retry-After (seconds); undefined when it says nothing. */
export function retryAfterMs(header: string | null | undefined): number | undefined {
  const seconds = Number(header);
  return header && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}
