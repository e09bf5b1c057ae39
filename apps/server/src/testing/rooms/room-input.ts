// Input a participant sends, for tests that drive a room's browser through its RoomSession.
import { type TRoomInput, ZRoomInput } from '@rooms/api/room-protocol';
import type { RoomSession } from '../../rooms/room-session';

export const input = (value: unknown): TRoomInput => ZRoomInput.parse(value);

/** A left click at normalised coordinates (0…1 of the picture). */
export const press = (x: number, y: number): TRoomInput[] => [
  input({ type: 'input/pointer', action: 'move', x, y }),
  input({ type: 'input/pointer', action: 'down', x, y, button: 'left', buttons: 1, clickCount: 1 }),
  input({ type: 'input/pointer', action: 'up', x, y, button: 'left', buttons: 0, clickCount: 1 }),
];

export const key = (name: string, code: string): TRoomInput[] => [
  input({ type: 'input/key', action: 'down', key: name, code }),
  input({ type: 'input/key', action: 'up', key: name, code }),
];

export async function apply(session: Pick<RoomSession, 'applyInput'>, inputs: TRoomInput[]): Promise<void> {
  for (const event of inputs) await session.applyInput(event);
}
