// Knocking, as a page keeps it: a knocker's page waits (knock/waiting) until it is let in (knock/admitted, whose
// pass this tab keeps for its later tickets, so a reconnect or the room's restart lets it back without knocking)
// or turned away (a final close, KNOCK_TURNED_AWAY); the owner's and trusted members' pages hold the knocks waiting
// (knock/pending), and every page who the owner trusts to answer them (knock/trusted).
import type { TKnock, TServerMessageOf } from '@rooms/api/room-protocol';

export interface TKnockState {
  /** This page knocked and waits for an answer. */
  waiting: boolean;
  /** The knocks waiting, for the owner and the members they trust; empty for everyone else. */
  knocks: TKnock[];
  /** The members the owner trusts to answer knocks. */
  trusted: string[];
}

export const INITIAL_KNOCK: TKnockState = { waiting: false, knocks: [], trusted: [] };

export type TKnockMessage =
  | TServerMessageOf<'knock/waiting'>
  | TServerMessageOf<'knock/admitted'>
  | TServerMessageOf<'knock/pending'>
  | TServerMessageOf<'knock/trusted'>;

const PASS_PREFIX = 'rooms.knock-pass.';
const TOKEN_PREFIX = 'rooms.knock-token.';

/** The knock token this tab came with (the link's fragment leaves the address bar), for a reload; null to forget. */
export function rememberKnockToken(roomId: string, token: string | null): void {
  try {
    if (token === null) sessionStorage.removeItem(TOKEN_PREFIX + roomId);
    else sessionStorage.setItem(TOKEN_PREFIX + roomId, token);
  } catch {
    // Not kept: a reload needs the link again.
  }
}

export function rememberedKnockToken(roomId: string): string | null {
  try {
    return sessionStorage.getItem(TOKEN_PREFIX + roomId);
  } catch {
    return null;
  }
}

/** The knock state after one of its messages; an admission's pass is kept for this tab's later tickets. */
export function nextKnockState(roomId: string, state: TKnockState, message: TKnockMessage): TKnockState {
  switch (message.type) {
    case 'knock/waiting':
      return { ...state, waiting: true };
    case 'knock/admitted':
      try {
        sessionStorage.setItem(PASS_PREFIX + roomId, message.pass);
      } catch {
        // Not kept: a reconnect knocks again.
      }
      return { ...state, waiting: false };
    case 'knock/pending':
      return { ...state, knocks: message.knocks };
    case 'knock/trusted':
      return { ...state, trusted: message.memberIds };
  }
}

/** What a ticket asks with for a page that came by a knock link: its pass once admitted, else the knock token. */
export function knockTicketFields(
  roomId: string,
  knock: string | undefined,
): { knock?: string; admission?: string } {
  if (!knock) return {};
  let admission: string | null = null;
  try {
    admission = sessionStorage.getItem(PASS_PREFIX + roomId);
  } catch {
    admission = null;
  }
  return admission ? { knock, admission } : { knock };
}
