// A room protocol error as the participant gets it: its code, the words for it, and what it answers.
import { ROOM_ERROR_MESSAGES, type TRoomErrorCode, type TServerMessage } from '@rooms/api/room-protocol';

export function errorMessage(code: TRoomErrorCode, about?: string, message?: string): TServerMessage {
  return {
    type: 'system/error',
    code,
    message: message ?? ROOM_ERROR_MESSAGES[code],
    ...(about ? { about } : {}),
  };
}
