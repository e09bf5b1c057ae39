// The budget of wrong share passwords, counted per room: from one address and from its /24 or /64 (a guesser
// rotating addresses of one network), and over every room from that address and network (spraying many rooms).
// A spent budget never locks anyone out, since a household or an office behind one NAT shares it: each further
// try needs a solved captcha instead, and the right password with one always enters. Where no captcha can be
// sent (room tickets on every rejoin), an address that already entered with the password keeps entering with it.
import { createHash } from 'node:crypto';
import { AppError } from '../../errors';
import type { PasswordHasher, RateLimiter } from '../../services/ports';
import { addressBudgets, giveBack, hold, normalizeAddress, type TBudget } from '../accounts/budgets';
import { matchesSharePassword } from './share-password';

export const ROOM_PASSWORD_LIMITS = {
  /** Wrong passwords for one room before the captcha is needed: from one address, from its /24 or /64. */
  perRoom: { limit: 5, groupLimit: 15, windowSeconds: 15 * 60 },
  /** Wrong passwords over every room, from one address and from its network. */
  perAddress: { limit: 30, groupLimit: 90, windowSeconds: 15 * 60 },
  /** Wrong tries left when a refusal starts to say how many remain. */
  warnWhenLeft: 2,
  /** How long an address that entered with the password may use it again without a captcha (a room's run). */
  enteredSeconds: 12 * 60 * 60,
} as const;

/** How a caller proves to be a person once the free tries are spent; absent where none can be sent. */
export type TVerifyCaptcha = () => Promise<void>;

export interface TPasswordTry {
  limiter: RateLimiter;
  ip: string;
  /** The room's id, or for a room that does not exist, what it was asked for by. */
  roomKey: string;
  /** The room's stored password (its hash); null for a room that must answer as if it had one. */
  stored: string | null;
  password: string | null | undefined;
  hasher?: PasswordHasher | undefined;
  captcha?: TVerifyCaptcha | undefined;
}

function passwordBudgets(roomKey: string, ip: string): TBudget[] {
  return [
    ...addressBudgets(`room-password:${roomKey}`, ip, ROOM_PASSWORD_LIMITS.perRoom),
    ...addressBudgets('room-password', ip, ROOM_PASSWORD_LIMITS.perAddress),
  ];
}

/**
 * The mark an address gets when it enters with a password. It names the password itself (a digest salted with
 * the room's stored hash), so it lets in only that password: a guesser behind the same NAT cannot use it.
 */
function enteredKey(roomKey: string, ip: string, stored: string, password: string): string {
  const digest = createHash('sha256')
    .update([roomKey, normalizeAddress(ip), stored, password].join('\0'))
    .digest('base64url');
  return `room-password:entered:${digest}`;
}

/** The fewest wrong tries left over the budgets, counted up to `upTo` (peeks only; beyond it the exact number does not matter). */
async function triesLeft(limiter: RateLimiter, budgets: readonly TBudget[], upTo: number): Promise<number> {
  let fewest = upTo + 1;
  for (const budget of budgets) {
    for (let left = 0; left < fewest; left++) {
      if ((await limiter.peek(budget.key, budget.limit - left)) > 0) {
        fewest = left;
        break;
      }
    }
  }
  return fewest;
}

/** Resolves when the password is the room's; throws the refusal a person can act on otherwise. */
export async function checkPasswordTry(attempt: TPasswordTry): Promise<void> {
  const { limiter, ip, roomKey, stored, password } = attempt;
  if (!password) throw new AppError('ROOM_PASSWORD_REQUIRED');
  const budgets = passwordBudgets(roomKey, ip);
  const entered = stored === null ? null : enteredKey(roomKey, ip, stored, password);
  // The try is counted before the hashing work and given back if the password is right: guesses sent at once
  // (the hash takes a while) are counted one by one, so a burst gets no more free tries than the budget's.
  const free = (await hold(limiter, budgets)) === 0;
  if (!free) {
    const knownHere = entered !== null && (await limiter.peek(entered, 1)) > 0;
    if (!knownHere) {
      if (!attempt.captcha) throw new AppError('ROOM_PASSWORD_VERIFY_REQUIRED');
      await attempt.captcha();
    }
    // Still counted past the limit, so a network that keeps guessing keeps needing the captcha.
    for (const budget of budgets) await limiter.hit(budget.key, budget.limit, budget.windowSeconds);
  }
  if (await matchesSharePassword(stored, password, attempt.hasher)) {
    await giveBack(limiter, budgets);
    if (entered !== null) await limiter.hit(entered, 1, ROOM_PASSWORD_LIMITS.enteredSeconds);
    return;
  }
  if (!free) throw new AppError('ROOM_PASSWORD_INCORRECT_VERIFY');
  const left = await triesLeft(limiter, budgets, ROOM_PASSWORD_LIMITS.warnWhenLeft);
  if (left === 0) throw new AppError('ROOM_PASSWORD_INCORRECT_VERIFY');
  if (left <= ROOM_PASSWORD_LIMITS.warnWhenLeft)
    throw new AppError('ROOM_PASSWORD_TRIES_LEFT', { args: [left] });
  throw new AppError('ROOM_PASSWORD_INCORRECT');
}
