// The outside world as the API sees it. apps/server implements these (SMTP, GeeTest, argon2, …) and hands them
// in through the tRPC context, so procedures stay testable against real local implementations.
import type { TKnock } from '../room-protocol/knock';
import type { TCaptchaFields } from '../schemas/captcha';

export interface TMailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Delivers the message or throws; the caller turns a failure into 'Sending failed'. */
  send(message: TMailMessage): Promise<void>;
}

export type TCaptchaProvider = 'self-hosted' | 'geetest';

export interface CaptchaVerifier {
  readonly provider: TCaptchaProvider;
  /** The captcha_id a client must use (GeeTest id, or the self-hosted captcha's id). */
  readonly captchaId: string;
  /**
   * Checks a solved captcha once. Throws AppError CAPTCHA_FAILED when it is not valid, PASS_TOKEN_USED when this
   * pass_token was already accepted, CAPTCHA_UNAVAILABLE when the provider cannot be asked (fail closed).
   */
  verify(fields: TCaptchaFields): Promise<void>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * Checks a password against a stored hash. With no hash (unknown account) it still does the same work and
   * answers false, so the reply time does not tell whether an account exists.
   */
  verify(hash: string | null, password: string): Promise<boolean>;
}

/**
 * Encrypts small secrets the server must read back later (a room's share password, shown to its owner) with a key
 * from the app secret, so a copy of the database alone does not give them away.
 */
export interface SecretBox {
  seal(plain: string): string;
  /** The sealed text, or null when it was not sealed with this server's key (or was tampered with). */
  open(sealed: string): string | null;
}

/** Fixed-window counters keyed by a string (login per IP, codes per account, …). */
export interface RateLimiter {
  /** Counts one hit; returns the seconds to wait when the limit is exceeded, else 0. */
  hit(key: string, limit: number, windowSeconds: number): Promise<number>;
  /**
   * The seconds to wait when `limit` hits were already counted in the key's current window, else 0; counts
   * nothing. Not a guard for a slow try (a password check): tries sent at once all pass a peek made before any
   * of them is counted; hold the try with `hit` and give it back with `undo` (domains/accounts/budgets.ts holdOrRefuse).
   */
  peek(key: string, limit: number): Promise<number>;
  /**
   * Takes back one hit of the key's current window (none when the window is over or empty). A budget of failures
   * can so be held before a slow try and given back when the try succeeds: tries sent at once, to one server or to
   * several, are then counted one by one instead of all passing a check made before any of them was counted.
   */
  undo(key: string): Promise<void>;
}

/** Who is in the rooms this server runs right now, and who knocks at their doors (the relay knows; the API asks). */
export interface RoomPresence {
  /** Members connected to the room on this server; 0 when nobody is or it does not run here. */
  memberCount(roomId: string): number;
  /** Knocks waiting for an answer at the room's door, oldest first; none when it does not run here. */
  knocks(roomId: string): TKnock[];
}

/** Remembers single-use keys (captcha pass tokens, room-socket tickets) until they expire, on every server. */
export interface OnceStore {
  /** True the first time a key is claimed; false when it was claimed before. */
  claim(key: string, expiresAt: Date): Promise<boolean>;
}

/**
 * Sessions that just ended: one (logout), or all of a user's but maybe the caller's own (password, disable).
 * `disabled`: because the account was disabled, which its room sockets are told instead of a sign-out.
 */
export type TSessionEnd =
  | { sessionId: string }
  | { userId: string; exceptSessionId?: string; disabled?: boolean };

/**
 * Where the API says that sessions ended (after revoking them), so connections opened with them, the room
 * sockets, close at once instead of outliving the session, and that an account changed, so the session cache of
 * every process reads it again. Never throws: the database holds the truth either way.
 */
export interface SessionEvents {
  ended(end: TSessionEnd): Promise<void>;
  accountChanged(userId: string): Promise<void>;
}
