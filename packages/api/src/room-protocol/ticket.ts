// The ticket a browser fetches (POST /ws/ticket, with its session token or as a guest) just before opening the
// room WebSocket, because browsers cannot set an Authorization header on a WebSocket.
import { z } from 'zod';

export const ROOM_TICKET_PATH = '/ws/ticket';
/** `/ws/room/:roomId?ticket=…` (browsers) or `?token=…` (scripts with a session token). */
export const roomSocketPath = (roomId: string) => `/ws/room/${encodeURIComponent(roomId)}`;

export const ZRoomTicketRequest = z.object({
  roomId: z.string().min(1).max(64),
  /** The room's password, when it has one (the owner never needs it). */
  password: z.string().max(128).optional(),
  /** The knock link's token: a ticket to knock with (the hub waits for the owner's answer), never to enter. */
  knock: z.string().max(64).optional(),
  /** The pass a knocker was admitted with (knock/admitted): a member's ticket again, without knocking. */
  admission: z.string().max(1024).optional(),
});

export const ZRoomTicketResponse = z.object({
  ticket: z.string(),
  /** Epoch milliseconds; the ticket is also single use. */
  expiresAt: z.number(),
});

export type TRoomTicketRequest = z.infer<typeof ZRoomTicketRequest>;
export type TRoomTicketResponse = z.infer<typeof ZRoomTicketResponse>;
