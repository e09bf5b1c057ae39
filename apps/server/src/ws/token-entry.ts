// Whether a script that connects with its session token may enter the room: the rules a browser's ticket is
// issued under (owner, public, share password with its budget of wrong tries), checked before the upgrade so a
// room the caller may not enter never gives them a socket. The password comes as `X-Room-Password`.
import { checkShareAccess, describeError, type RateLimiter } from '@rooms/api';
import { ROOM_ERROR_MESSAGES } from '@rooms/api/room-protocol';
import type { TRelayRoom } from './relay-ports';

export type TEntryRefusal = { status: 403 | 404 | 429; message: string };

export type TTokenEntry = (
  roomId: string,
  caller: { userId: string; ip: string },
  password: string | undefined,
) => Promise<TEntryRefusal | null>;

export function tokenEntry(
  findRoom: (roomId: string) => Promise<TRelayRoom | null>,
  limiter: RateLimiter,
): TTokenEntry {
  return async (roomId, caller, password) => {
    const room = await findRoom(roomId);
    // A room the caller may not see answers as a missing one, as the ticket path and the API do.
    if (!room) return { status: 404, message: ROOM_ERROR_MESSAGES.ROOM_NOT_FOUND };
    try {
      await checkShareAccess(limiter, caller, room, password);
      return null;
    } catch (error) {
      const refusal = describeError(error);
      if (refusal.appCode === 'ROOM_NOT_FOUND')
        return { status: 404, message: ROOM_ERROR_MESSAGES.ROOM_NOT_FOUND };
      return { status: refusal.status === 429 ? 429 : 403, message: refusal.message };
    }
  };
}
