// The ticket a room socket opens with (POST /ws/ticket): asked as the page's session or as a guest, and refused
// with the status and the wait the server gave.
import { ROOM_TICKET_PATH, retryAfterMs } from '@rooms/api/room-protocol';
import { apiFetch, RestError } from '../http';

/** The ticket endpoint's answer for a room whose browser is not running (ticket-route.ts). */
export const NOT_RUNNING_STATUS = 409;

/** A ticket refused; a refusal for asking too often says how long to wait (Retry-After). */
export class TicketRefused extends RestError {
  constructor(
    message: string,
    status: number,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message, status);
  }
}

/**
 * `asGuest`: asked without the session token, so a page that entered as a guest stays one. `knock`: a knock link's
 * token, or the pass its knock was admitted with (lib/room/knock-state.ts).
 */
export async function fetchRoomTicket(
  roomId: string,
  password?: string,
  asGuest = false,
  knock: { knock?: string; admission?: string } = {},
): Promise<string> {
  const response = await apiFetch(
    ROOM_TICKET_PATH,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ roomId, password, ...knock }),
    },
    { withSession: !asGuest },
  );
  const body = (await response.json().catch(() => null)) as { ticket?: string; data?: unknown } | null;
  if (response.ok && body?.ticket) return body.ticket;
  throw new TicketRefused(
    typeof body?.data === 'string' ? body.data : 'Request failed',
    response.status,
    retryAfterMs(response.headers.get('retry-after')),
  );
}
