// A room's share password at rest: an argon2id hash to check guesses against, and a copy sealed with the app
// secret (SecretBox) so that its owner can still be shown it and put it in share links. Nobody else ever gets it.
import { timingSafeEqual } from 'node:crypto';
import type { Room } from '@rooms/db';
import type { TServices } from '../../context';
import type { PasswordHasher } from '../../services/ports';

/**
 * The hasher for share passwords checked without the caller's services at hand (the WebSocket ticket passes only
 * its rate limiter to checkShareAccess); the server sets it once, to the same hasher as services.passwords.
 */
let sharePasswordHasher: PasswordHasher | undefined;

export function setSharePasswordHasher(hasher: PasswordHasher): void {
  sharePasswordHasher = hasher;
}

/** An argon2 hash, as opposed to the plain text that rooms kept before share passwords were hashed. */
export function isPasswordHash(stored: string): boolean {
  // A plain-text share password had at most 32 characters; an argon2 hash is far longer.
  return stored.startsWith('$argon2') && stored.length > 32;
}

function sameText(expected: string, given: string): boolean {
  const left = Buffer.from(expected);
  const right = Buffer.from(given);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Whether `given` is the room's password. `stored` null stands for a room that must answer as if it had a
 * password (a missing room in the lobby): the same hashing work is done, and the answer is no.
 */
export async function matchesSharePassword(
  stored: string | null,
  given: string,
  hasher: PasswordHasher | undefined = sharePasswordHasher,
): Promise<boolean> {
  // A row still in plain text (hashed when the server starts; only rows written behind its back stay so).
  if (stored !== null && !isPasswordHash(stored)) return sameText(stored, given);
  if (!hasher) throw new Error('No hasher for share passwords: call setSharePasswordHasher when starting');
  return hasher.verify(stored, given);
}

/** What a room stores for this share password (null clears it): the hash for checking, the sealed copy. */
export async function sharePasswordColumns(
  password: string | null,
  services: Pick<TServices, 'passwords' | 'secretBox'>,
): Promise<{ password: string | null; passwordSealed: string | null }> {
  if (password === null) return { password: null, passwordSealed: null };
  return {
    password: await services.passwords.hash(password),
    passwordSealed: services.secretBox.seal(password),
  };
}

/** The share password as the owner is shown it; null when there is none, or it cannot be read back. */
export function ownersSharePassword(room: Room, services: Pick<TServices, 'secretBox'>): string | null {
  const stored = room.password ?? null;
  if (stored === null) return null;
  if (!isPasswordHash(stored)) return stored;
  // Sealed with another app secret than this server's: the owner has to set a new one.
  return room.passwordSealed ? services.secretBox.open(room.passwordSealed) : null;
}
