// Who may enter a room that is not theirs: anyone when it is public, anyone with the share
// password when it has one, nobody else (it then answers as a missing room). Wrong passwords spend a budget per
// room and address (share-password-budget.ts), shared by the API and POST /ws/ticket, so guessing through either
// path counts once; it is kept in the rate limiter, which is Redis when several servers run (REDIS_URL).
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors';
import type { PasswordHasher, RateLimiter } from '../../services/ports';
import { checkPasswordTry, type TVerifyCaptcha } from './share-password-budget';

/** What a password check may use besides the limiter: the hasher, and the caller's solved captcha if sent. */
export interface TShareCheckOptions {
  hasher?: PasswordHasher | undefined;
  captcha?: TVerifyCaptcha | undefined;
}

export interface TShareableRoom {
  id: string;
  ownerId: string;
  isPublic: boolean;
  /** The stored share password (its argon2id hash); null when the room has none. */
  password: string | null;
  /** The knock link's token; null or absent while knocking is off. */
  knockToken?: string | null | undefined;
}

/**
 * How a caller got in: owners and public rooms need no password; `knock` is the knock link's, which lets its
 * holder ask to be let in, never in (the hub waits for the owner's answer).
 */
export type TShareAccess = 'owner' | 'public' | 'password' | 'knock';

/** Whether `given` is the room's knock token (knocking on), compared in constant time. */
export function matchesKnockToken(
  room: Pick<TShareableRoom, 'knockToken'>,
  given: string | undefined,
): boolean {
  const stored = room.knockToken;
  if (!stored || !given) return false;
  const left = Buffer.from(stored);
  const right = Buffer.from(given);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * `knock`: the knock link's token, which lets in nobody but lets its holder knock (a wrong or stale one counts for
 * nothing). Throws ROOM_NOT_FOUND (a private room without a password), ROOM_PASSWORD_REQUIRED (none given), one of the
 * ROOM_PASSWORD_* refusals of a wrong password, or ROOM_PASSWORD_VERIFY_REQUIRED (the captcha is needed first).
 */
export async function checkShareAccess(
  limiter: RateLimiter,
  caller: { ip: string; userId: string | null },
  room: TShareableRoom,
  password: string | null | undefined,
  options: TShareCheckOptions = {},
  knock?: string | undefined,
): Promise<TShareAccess> {
  if (caller.userId !== null && caller.userId === room.ownerId) return 'owner';
  if (room.isPublic) return 'public';
  // A knock link opened without a password: a knock, whether or not the room also has a password.
  if (!password && matchesKnockToken(room, knock)) return 'knock';
  if (room.password === null) throw new AppError('ROOM_NOT_FOUND');
  await checkPasswordTry({
    limiter,
    ip: caller.ip,
    roomKey: room.id,
    stored: room.password,
    password,
    ...options,
  });
  return 'password';
}

/**
 * The answers of a room with a password, for a room that is missing or hidden: the same refusals, the same
 * budget spent and the same hashing work, so a name or an id cannot be probed. Always throws.
 */
export async function refuseAsPasswordRoom(
  limiter: RateLimiter,
  caller: { ip: string },
  roomKey: string,
  password: string | null | undefined,
  options: TShareCheckOptions = {},
): Promise<never> {
  await checkPasswordTry({ limiter, ip: caller.ip, roomKey, stored: null, password, ...options });
  throw new AppError('ROOM_PASSWORD_INCORRECT');
}
