// Who may enter a room that is not theirs (spec §6 room sharing): anyone when it is public, anyone with the share
// password when it has one, nobody else (it then answers as a missing room). Wrong passwords are a budget per
// address and per address group (/24, /64), shared by the API and POST /ws/ticket, so guessing through either
// path, or from many addresses of one network, counts once. The budget is kept in the rate limiter, which is
// Redis when several servers run (REDIS_URL): one budget whichever server is asked.
import { addressBudgets, giveBack, holdOrRefuse } from '../../account/budgets';
import { AppError } from '../../errors';
import type { PasswordHasher, RateLimiter } from '../../services/ports';
import { matchesSharePassword } from './share-password';

/**
 * Wrong passwords allowed in a window. Until an address (or its network) has spent its budget, the right
 * password lets it in whatever it guessed before; past it, every try is refused, the right one too. There is no
 * budget per room: one would lock the room's real guests out as soon as strangers guessed at it.
 */
export const ROOM_PASSWORD_LIMITS = {
  perAddress: { limit: 10, groupLimit: 30, windowSeconds: 15 * 60 },
} as const;

export interface TShareableRoom {
  id: string;
  ownerId: string;
  isPublic: boolean;
  /** The stored share password (its argon2id hash); null when the room has none. */
  password: string | null;
}

/** How a caller got in: owners and public rooms need no password. */
export type TShareAccess = 'owner' | 'public' | 'password';

/**
 * Throws ROOM_NOT_FOUND (a private room without a password), ROOM_PASSWORD_REQUIRED (none given),
 * TOO_MANY_REQUESTS (the budget of wrong passwords is spent) or ROOM_PASSWORD_INCORRECT.
 */
export async function checkShareAccess(
  limiter: RateLimiter,
  caller: { ip: string; userId: string | null },
  room: TShareableRoom,
  password: string | null | undefined,
  hasher?: PasswordHasher,
): Promise<TShareAccess> {
  if (caller.userId !== null && caller.userId === room.ownerId) return 'owner';
  if (room.isPublic) return 'public';
  if (room.password === null) throw new AppError('ROOM_NOT_FOUND');
  await checkPassword(limiter, caller.ip, room.password, password, hasher);
  return 'password';
}

/**
 * The answers of a room with a password, for a room that is missing or hidden: the same refusals, the same
 * budget spent and the same hashing work, so a name or an id cannot be probed. Always throws.
 */
export async function refuseAsPasswordRoom(
  limiter: RateLimiter,
  caller: { ip: string },
  password: string | null | undefined,
  hasher?: PasswordHasher,
): Promise<never> {
  await checkPassword(limiter, caller.ip, null, password, hasher);
  throw new AppError('ROOM_PASSWORD_INCORRECT');
}

async function checkPassword(
  limiter: RateLimiter,
  ip: string,
  stored: string | null,
  password: string | null | undefined,
  hasher: PasswordHasher | undefined,
): Promise<void> {
  if (!password) throw new AppError('ROOM_PASSWORD_REQUIRED');
  const budgets = addressBudgets('room-password', ip, ROOM_PASSWORD_LIMITS.perAddress);
  // The try is counted before the hashing work and given back if the password is right: guesses sent at once
  // (the hash takes a while) are counted one by one, so a burst, to one server or several, gets no more tries.
  await holdOrRefuse(limiter, budgets);
  if (await matchesSharePassword(stored, password, hasher)) {
    await giveBack(limiter, budgets);
    return;
  }
  throw new AppError('ROOM_PASSWORD_INCORRECT');
}
