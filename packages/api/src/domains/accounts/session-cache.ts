// Resolved sessions kept for a few seconds, so a signed-in page's reads, polls and tickets skip the session query.
// Correctness rests on events, not on the lifetime: a session that ends and an account that changes (level, role,
// name, disabled) are forgotten at once in this process and, through the session-event bus, in every other. The
// short lifetime only bounds what a lost event could leave behind.
import { ShortLivedCache } from '../../cache/short-lived-cache';
import type { TSessionEnd } from '../../services/ports';
import type { TSessionUser } from './session';

/** Long enough that a busy page reuses its session, short enough that a missed event heals quickly. */
export const SESSION_CACHE_TTL_MS = 10_000;
/** Far above the sessions one server sees in ten seconds; a flood of tokens cannot grow memory beyond it. */
export const SESSION_CACHE_MAX_ENTRIES = 20_000;

/**
 * What makes cached sessions stale: sessions that ended, an account that changed, or `missed` when news may have
 * been lost (the bus's database connection was down): then everything is read again.
 */
export type TSessionChange = TSessionEnd | { accountChanged: string } | { missed: true };

export class SessionCache {
  private readonly byTokenHash: ShortLivedCache<string, TSessionUser>;

  constructor(
    ttlMs = SESSION_CACHE_TTL_MS,
    maxEntries = SESSION_CACHE_MAX_ENTRIES,
    clock: () => number = () => performance.now(),
  ) {
    this.byTokenHash = new ShortLivedCache(ttlMs, maxEntries, clock);
  }

  get(tokenHash: string): TSessionUser | undefined {
    return this.byTokenHash.get(tokenHash);
  }

  /** Taken before the database read whose result `remember` stores. */
  generation(): number {
    return this.byTokenHash.generation();
  }

  /** Stores a session read at `generation`, unless something changed since: then the read may be stale. */
  remember(tokenHash: string, session: TSessionUser, generation: number): void {
    this.byTokenHash.remember(tokenHash, session, generation);
  }

  forget(change: TSessionChange): void {
    if ('missed' in change) this.byTokenHash.clear();
    else this.byTokenHash.forgetWhere((session) => concerns(change, session));
  }

  get size(): number {
    return this.byTokenHash.size;
  }
}

function concerns(change: Exclude<TSessionChange, { missed: true }>, session: TSessionUser): boolean {
  if ('sessionId' in change) return session.sessionId === change.sessionId;
  // An administrator's changed account also changes the sessions they opened as someone else (the banner names them).
  if ('accountChanged' in change) {
    return session.user.id === change.accountChanged || session.impersonator?.id === change.accountChanged;
  }
  return session.user.id === change.userId && session.sessionId !== change.exceptSessionId;
}
