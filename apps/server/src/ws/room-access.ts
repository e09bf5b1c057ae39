// Who may enter a room (spec §1, §6 room sharing): its owner always; anyone when it is public; with the share
// password when it has one; otherwise nobody else, and the room answers as if it did not exist, like the API.
import { timingSafeEqual } from 'node:crypto';
import type { TRelayRoom } from './relay-ports';

export type TRoomAccess = 'ok' | 'ROOM_NOT_FOUND' | 'WRONG_PASSWORD';

export function roomAccess(
  room: TRelayRoom,
  userId: string | null,
  password: string | undefined,
): TRoomAccess {
  if (userId !== null && userId === room.ownerId) return 'ok';
  if (room.isPublic) return 'ok';
  if (room.password === null) return 'ROOM_NOT_FOUND';
  return password !== undefined && sameText(room.password, password) ? 'ok' : 'WRONG_PASSWORD';
}

function sameText(expected: string, given: string): boolean {
  const left = Buffer.from(expected);
  const right = Buffer.from(given);
  return left.length === right.length && timingSafeEqual(left, right);
}
