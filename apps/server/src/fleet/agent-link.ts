// How the control plane reaches the agent that runs a room: the agent in its own process (npm start) directly,
// any other over HTTP at the address it registered with, each order signed for that address (fleet-auth.ts).
// Refusals come back as the AppErrors the agent raised.
import { AppError, errorSpec, type TAppErrorCode } from '@rooms/api';
import type { TRoomEnding } from '@rooms/api/room-protocol';
import type { TRunOrder } from './agent-runs';
import type { TFleetCaller } from './fleet-callers';

export interface TAgentLink {
  start(order: TRunOrder): Promise<unknown>;
  stop(roomId: string, ending?: TRoomEnding): Promise<void>;
}

/** A start waits for the browser (cold: a few seconds on a busy machine); a stop for its processes to end. */
const CALL_TIMEOUT_MS = 60_000;

export function httpAgentLink(address: string, caller: TFleetCaller): TAgentLink {
  const call = async (path: string, body: unknown): Promise<void> => {
    let response: Response;
    try {
      const authorization = await caller.authorization(address, 'POST', path);
      response = await fetch(`http://${address}${path}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch {
      // The agent is gone or cut off: the sweep will declare it lost; the caller may try another.
      throw new AppError('ROOMS_UNAVAILABLE');
    }
    if (response.ok) return;
    const answer = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
    const code = answer?.code as TAppErrorCode | undefined;
    throw new AppError(code && errorSpec(code) ? code : 'ROOM_START_FAILED', { message: answer?.message });
  };
  return {
    start: (order) => call('/fleet/runs', order),
    stop: (roomId, ending) => call(`/fleet/rooms/${encodeURIComponent(roomId)}/stop`, { ending }),
  };
}
