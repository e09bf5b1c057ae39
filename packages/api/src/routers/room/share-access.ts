// Who may enter a room that is not theirs (spec §6 room sharing): anyone when it is public, anyone with the share
// password when it has one, nobody else (it then answers as a missing room). Wrong passwords are a budget per
// address and per room, shared by the API and POST /ws/ticket, so guessing through either path counts once.
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors';
import type { RateLimiter } from '../../services/ports';

/**
 * Wrong passwords allowed in a window. Past the address budget every try from that address is refused, correct
 * ones included; past the room budget, only addresses that have guessed wrong are refused, so strangers cannot
 * lock a room's real guests out.
 */
export const ROOM_PASSWORD_LIMITS = {
  perAddress: { limit: 10, windowSeconds: 15 * 60 },
  /** Many addresses guessing at one room. */
  perRoom: { limit: 100, windowSeconds: 15 * 60 },
} as const;

export interface TShareableRoom {
  id: string;
  ownerId: string;
  isPublic: boolean;
  password: string | null;
}

/** How a caller got in: owners and public rooms need no password. */
export type TShareAccess = 'owner' | 'public' | 'password';

function sameText(expected: string, given: string): boolean {
  const left = Buffer.from(expected);
  const right = Buffer.from(given);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Throws ROOM_NOT_FOUND (a private room without a password), ROOM_PASSWORD_REQUIRED (none given),
 * TOO_MANY_REQUESTS (the budget of wrong passwords is spent) or ROOM_PASSWORD_INCORRECT.
 */
export async function checkShareAccess(
  limiter: RateLimiter,
  caller: { ip: string; userId: string | null },
  room: TShareableRoom,
  password: string | null | undefined,
): Promise<TShareAccess> {
  if (caller.userId !== null && caller.userId === room.ownerId) return 'owner';
  if (room.isPublic) return 'public';
  if (room.password === null) throw new AppError('ROOM_NOT_FOUND');
  if (!password) throw new AppError('ROOM_PASSWORD_REQUIRED');

  const address = [`room-password:ip:${caller.ip}`, ROOM_PASSWORD_LIMITS.perAddress] as const;
  const wholeRoom = [`room-password:room:${room.id}`, ROOM_PASSWORD_LIMITS.perRoom] as const;
  const addressWait = await limiter.peek(address[0], address[1].limit);
  if (addressWait > 0) throw new AppError('TOO_MANY_REQUESTS', { args: [addressWait] });
  // Once many addresses have guessed at the room, only addresses that have not guessed wrong yet may try: a
  // guest typing the right password still gets in, while each guessing address is down to a single try.
  const roomWait = await limiter.peek(wholeRoom[0], wholeRoom[1].limit);
  if (roomWait > 0 && (await limiter.peek(address[0], 1)) > 0) {
    throw new AppError('TOO_MANY_REQUESTS', { args: [roomWait] });
  }
  if (sameText(room.password, password)) return 'password';
  for (const [key, { limit, windowSeconds }] of [address, wholeRoom])
    await limiter.hit(key, limit, windowSeconds);
  throw new AppError('ROOM_PASSWORD_INCORRECT');
}
