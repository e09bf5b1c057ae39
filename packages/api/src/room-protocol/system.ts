// Messages of the `system/…` domain: errors for people, and a ping for round-trip and clock estimates.
import { z } from 'zod';

/** Stable machine codes; the client may translate by code, `message` is the English text. */
export const ZRoomErrorCode = z.enum([
  'BAD_MESSAGE',
  'NOT_JOINED',
  'ALREADY_JOINED',
  'NOT_CONTROLLER',
  'CANNOT_GRANT',
  'NOT_OWNER',
  'NOT_A_MEMBER',
  'CANNOT_KICK_OWNER',
  'ROOM_FULL',
  'ROOM_NOT_FOUND',
  'ROOM_NOT_RUNNING',
  'WRONG_PASSWORD',
  'RATE_LIMITED',
  'BROWSER_ACTION_FAILED',
  'KICKED',
  'BANNED',
  'TOO_MANY_BAD_MESSAGES',
  'TOO_SLOW',
  'JOIN_TIMEOUT',
  'TOO_MANY_UNJOINED',
  'NICKNAME_RESERVED',
  'NICKNAME_TAKEN',
  'SESSION_ENDED',
  'ACCOUNT_DISABLED',
  'OWNER_DISABLED',
  'KNOCK_TURNED_AWAY',
  'KNOCK_UNANSWERED',
  'TOO_MANY_KNOCKS',
]);
export type TRoomErrorCode = z.infer<typeof ZRoomErrorCode>;

/** The English text for each code, written once here so the server and the client agree. */
export const ROOM_ERROR_MESSAGES: Record<TRoomErrorCode, string> = {
  BAD_MESSAGE: 'This message could not be understood',
  NOT_JOINED: 'Please enter your nickname',
  ALREADY_JOINED: 'You have already joined this room',
  NOT_CONTROLLER: 'You are not in control of the browser; request control first',
  CANNOT_GRANT: 'Only the person in control or the room owner can hand over control',
  NOT_OWNER: 'Only the room owner can do this',
  NOT_A_MEMBER: 'This person is no longer in the room',
  CANNOT_KICK_OWNER: 'The room owner cannot be removed',
  ROOM_FULL: 'This room is full',
  ROOM_NOT_FOUND: 'This room does not exist',
  ROOM_NOT_RUNNING: 'This room is not running',
  WRONG_PASSWORD: 'The room password is incorrect',
  RATE_LIMITED: 'You are sending messages too fast',
  BROWSER_ACTION_FAILED: 'The browser could not do that',
  KICKED: 'You were removed from the room by its owner',
  BANNED: 'You were banned from this room by its owner',
  TOO_MANY_BAD_MESSAGES: 'Too many messages could not be understood; the connection was closed',
  TOO_SLOW: 'Your connection is too slow for this room',
  JOIN_TIMEOUT: 'Please enter your nickname',
  TOO_MANY_UNJOINED: 'Too many of your connections are waiting to join a room; close some tabs and try again',
  NICKNAME_RESERVED: 'This nickname is the room owner’s; please choose another',
  NICKNAME_TAKEN: 'Someone in this room already uses this nickname; please choose another',
  SESSION_ENDED: 'You were signed out; please sign in again to rejoin',
  ACCOUNT_DISABLED: 'Your account has been disabled; your rooms have ended',
  OWNER_DISABLED: 'This room has ended: its owner’s account has been disabled',
  KNOCK_TURNED_AWAY: 'The room’s owner did not let you in',
  KNOCK_UNANSWERED: 'Nobody answered your knock; try again later',
  TOO_MANY_KNOCKS: 'Too many people are waiting to be let into this room; try again later',
};

/**
 * WebSocket close codes (4000–4999 are the application's), so a client knows whether reconnecting makes sense:
 * after KICKED, ROOM_FULL or ROOM_NOT_FOUND it does not.
 */
export const ROOM_CLOSE_CODES = {
  KICKED: 4001,
  BANNED: 4002,
  ROOM_FULL: 4003,
  ROOM_NOT_FOUND: 4004,
  ROOM_NOT_RUNNING: 4005,
  WRONG_PASSWORD: 4006,
  TOO_MANY_BAD_MESSAGES: 4008,
  TOO_SLOW: 4009,
  JOIN_TIMEOUT: 4010,
  TOO_MANY_UNJOINED: 4011,
  NICKNAME_RESERVED: 4012,
  NICKNAME_TAKEN: 4013,
  /** The session the connection was opened with ended: logout, a password change or reset, a disabled account. */
  SESSION_ENDED: 4014,
  /** The session ended because an administrator disabled the account: no signing in again, its rooms stopped. */
  ACCOUNT_DISABLED: 4015,
  /** The room stopped because its owner's account was disabled: it does not come back while that holds. */
  OWNER_DISABLED: 4016,
  /** Knocking (knock.ts): turned away, unanswered for too long, or too many waiting. */
  KNOCK_TURNED_AWAY: 4030,
  KNOCK_UNANSWERED: 4031,
  TOO_MANY_KNOCKS: 4032,
} as const satisfies Partial<Record<TRoomErrorCode, number>>;

/**
 * Why a room's browser went away, told to its members just before their sockets close, so their pages can say
 * so and follow the room back: `restarting` comes back by itself, `stopped` when the owner starts it again;
 * `account-disabled` (its owner's account was disabled) has ended it, and its members' sockets close for good.
 */
export const ZRoomEndReason = z.enum([
  'stopped',
  'restarting',
  'crashed',
  'idle',
  'time-up',
  'moderation',
  'server-restart',
  'account-disabled',
]);
export type TRoomEndReason = z.infer<typeof ZRoomEndReason>;

// Client → server

/** `t` is any number of the client's choosing (e.g. its performance.now()), echoed back. */
export const ZSystemPing = z.object({ type: z.literal('system/ping'), t: z.number() });

// Server → client

export const ZSystemPong = z.object({
  type: z.literal('system/pong'),
  t: z.number(),
  /** The server's monotonic clock (the clock of media frame timestamps), to estimate picture latency. */
  serverTime: z.number(),
});
export const ZSystemError = z.object({
  type: z.literal('system/error'),
  code: ZRoomErrorCode,
  message: z.string(),
  /** The `type` of the message that caused it, when there was one. */
  about: z.string().optional(),
});

export type TSystemError = z.infer<typeof ZSystemError>;

export const ZSystemRoomEnded = z.object({
  type: z.literal('system/room-ended'),
  reason: ZRoomEndReason,
  /** Who stopped or restarted it (their account name), when a person did. */
  by: z.string().nullable(),
});
export type TRoomEnding = Omit<z.infer<typeof ZSystemRoomEnded>, 'type'>;
