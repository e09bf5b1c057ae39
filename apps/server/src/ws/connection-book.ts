// Every room socket this server has let in, with what outlives a single room: the person behind it (so one
// account cannot hold unlimited sockets that never join) and the session it was opened with (so a logout, a
// password change or a disabled account closes it). Transport-free, like RoomHub.
import type { TSessionEnd } from '@rooms/api';
import type { TRoomErrorCode } from '@rooms/api/room-protocol';
import type { TJoinIdentity } from '../rooms/hub/room-hub';

export interface TBookedConnection {
  readonly identity: TJoinIdentity;
  /** Tells the participant why, and closes the socket. */
  end(code: TRoomErrorCode): void;
}

/**
 * Sockets of one account, or one guest browser, that have not sent member/join yet. A page joins as soon as its
 * socket opens, so even a person with several tabs reconnecting at once stays far below this.
 */
export const MAX_UNJOINED_PER_PERSON = 8;
/** Guests behind one address: a class or an office behind one NAT may open the shared link together. */
export const MAX_UNJOINED_PER_ADDRESS = 32;

/** The counters a waiting socket takes a place in: its account; or, for a guest, its browser and address. */
function waitingKeys(identity: TJoinIdentity): [key: string, limit: number][] {
  if (identity.userId !== null) return [[`user:${identity.userId}`, MAX_UNJOINED_PER_PERSON]];
  const keys: [string, number][] = [];
  if (identity.guestId) keys.push([`guest:${identity.guestId}`, MAX_UNJOINED_PER_PERSON]);
  if (identity.ip) keys.push([`address:${identity.ip}`, MAX_UNJOINED_PER_ADDRESS]);
  return keys;
}

export class ConnectionBook {
  private readonly open = new Set<TBookedConnection>();
  private readonly waiting = new Map<TBookedConnection, string[]>();
  private readonly waitingPer = new Map<string, number>();

  get size(): number {
    return this.open.size;
  }

  /** Books a socket that has not joined yet; false, and nothing booked, when its person has too many waiting. */
  admit(connection: TBookedConnection): boolean {
    const keys = waitingKeys(connection.identity);
    if (keys.some(([key, limit]) => (this.waitingPer.get(key) ?? 0) >= limit)) return false;
    for (const [key] of keys) this.waitingPer.set(key, (this.waitingPer.get(key) ?? 0) + 1);
    this.waiting.set(
      connection,
      keys.map(([key]) => key),
    );
    this.open.add(connection);
    return true;
  }

  /** The socket joined its room: it no longer counts as waiting. */
  joined(connection: TBookedConnection): void {
    const keys = this.waiting.get(connection);
    if (!keys) return;
    this.waiting.delete(connection);
    for (const key of keys) {
      const left = (this.waitingPer.get(key) ?? 1) - 1;
      if (left > 0) this.waitingPer.set(key, left);
      else this.waitingPer.delete(key);
    }
  }

  remove(connection: TBookedConnection): void {
    this.joined(connection);
    this.open.delete(connection);
  }

  /** Ends the sockets opened with these sessions, saying why (signed out, or the account disabled); how many. */
  endSessions(end: TSessionEnd): number {
    const why = 'disabled' in end && end.disabled ? 'ACCOUNT_DISABLED' : 'SESSION_ENDED';
    const matches =
      'sessionId' in end
        ? (identity: TJoinIdentity) => identity.sessionId === end.sessionId
        : (identity: TJoinIdentity) =>
            identity.userId === end.userId && identity.sessionId !== end.exceptSessionId;
    let ended = 0;
    for (const connection of [...this.open]) {
      if (!connection.identity.sessionId || !matches(connection.identity)) continue;
      this.remove(connection);
      connection.end(why);
      ended += 1;
    }
    return ended;
  }

  /**
   * Asks which sessions of the open sockets are still live and ends the sockets of the others: what a lost
   * notification, a session's expiry or a change made straight in the database left open.
   */
  async recheckSessions(live: (sessionIds: string[]) => Promise<Set<string>>): Promise<number> {
    const ids = new Set<string>();
    for (const connection of this.open)
      if (connection.identity.sessionId) ids.add(connection.identity.sessionId);
    if (ids.size === 0) return 0;
    const alive = await live([...ids]);
    let ended = 0;
    for (const id of ids) if (!alive.has(id)) ended += this.endSessions({ sessionId: id });
    return ended;
  }
}
