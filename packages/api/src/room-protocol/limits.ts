// The room's fixed limits, shared so the web client validates and counts exactly as the server does.

export const NICKNAME_MAX_LENGTH = 24;
export const CHAT_MAX_LENGTH = 500;
/** A member may send this many chat messages per window… */
export const CHAT_RATE_LIMIT = 5;
/** …of this many milliseconds (a sliding window). */
export const CHAT_RATE_WINDOW_MS = 5000;
/** Joiners see this many of the latest chat messages. */
export const CHAT_HISTORY_SIZE = 100;
export const URL_MAX_LENGTH = 2048;
/** Find in page (Ctrl+F in the room) looks for at most this many characters. */
export const FIND_MAX_LENGTH = 200;
/** Tickets for the room WebSocket are valid this long and only once. */
export const ROOM_TICKET_TTL_MS = 60_000;
/** A member's pointer moves pass on at most this many per window; the rest are dropped (the next move follows)… */
export const POINTER_RATE_LIMIT = 20;
/** …of this many milliseconds. */
export const POINTER_RATE_WINDOW_MS = 1000;
/** Pages send a pointer move at most this often, well inside the limit. */
export const POINTER_SEND_INTERVAL_MS = 70;
/** A pointer's ghost fades this long after its last move. */
export const POINTER_FADE_MS = 3000;
/** A member may send this many reactions per window… */
export const REACTION_RATE_LIMIT = 5;
/** …of this many milliseconds (a sliding window). */
export const REACTION_RATE_WINDOW_MS = 5000;
