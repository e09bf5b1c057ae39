// Who may open a room WebSocket: checked before the upgrade, so a stranger never gets a socket.
// Browsers come with a ticket from POST /ws/ticket (they cannot set headers on a WebSocket) and always send an
// Origin, which must be one of ours (allowed-origins.ts): that is what stops another site's page from riding a
// visitor's session. Scripts come with their session token (`?token=` or an Authorization header), may omit
// Origin, and are held to the room's entry rules here, as a ticket is when it is issued (token-entry.ts).
import type { FastifyRequest } from 'fastify';
import type { TJoinIdentity } from '../rooms/hub/room-hub';
import type { TOriginCheck } from './allowed-origins';
import type { TicketBook } from './ticket';
import type { TTokenEntry } from './token-entry';

export type TSocketAuth =
  | { ok: true; identity: TJoinIdentity; via: 'ticket' | 'token' }
  | { ok: false; status: 401 | 403 | 404 | 429; message: string };

export interface TSocketAuthDeps {
  tickets: TicketBook;
  /** The live session behind a token, or null when it is unknown, expired, revoked or its account disabled. */
  sessionOfToken(token: string): Promise<{ userId: string; sessionId: string } | null>;
  /** Of these sessions, those still live. */
  liveSessions(sessionIds: string[]): Promise<Set<string>>;
  /** Whether a page of this Origin is ours (allowedOrigins). */
  originAllowed: TOriginCheck;
  /** Why a token's holder may not enter the room, or null when they may. */
  tokenEntry: TTokenEntry;
  now(): number;
}

const refused = (status: 401 | 403 | 404 | 429, message: string): TSocketAuth => ({
  ok: false,
  status,
  message,
});

export async function authenticateSocket(
  request: FastifyRequest<{ Params: { roomId: string }; Querystring: Record<string, string | undefined> }>,
  deps: TSocketAuthDeps,
): Promise<TSocketAuth> {
  const origin = request.headers.origin;
  if (origin !== undefined && !deps.originAllowed(origin)) {
    return refused(403, 'This page is not on this site’s address, so it may not open a room connection');
  }
  const { ticket, token: queryToken } = request.query;
  if (ticket) {
    if (origin === undefined) return refused(403, 'A room ticket is only accepted from our web pages');
    const claims = await deps.tickets.redeem(ticket, request.params.roomId, deps.now());
    if (!claims) return refused(401, 'The room ticket is invalid or has expired');
    // Signed out between the ticket and the socket: the ticket went with the session.
    if (claims.sessionId && !(await deps.liveSessions([claims.sessionId])).has(claims.sessionId)) {
      return refused(401, 'Not logged in');
    }
    return {
      ok: true,
      identity: {
        userId: claims.userId,
        guestId: claims.guestId,
        ip: request.ip,
        sessionId: claims.sessionId,
        ...(claims.knock ? { knock: true } : {}),
      },
      via: 'ticket',
    };
  }
  const token = queryToken ?? bearer(request.headers.authorization);
  if (token) {
    const session = await deps.sessionOfToken(token);
    if (!session) return refused(401, 'Not logged in');
    const password = request.headers['x-room-password'];
    const refusal = await deps.tokenEntry(
      request.params.roomId,
      { userId: session.userId, ip: request.ip },
      typeof password === 'string' ? password : undefined,
    );
    if (refusal) return refused(refusal.status, refusal.message);
    return { ok: true, identity: { ...session, ip: request.ip }, via: 'token' };
  }
  return refused(401, 'Not logged in');
}

function bearer(header: string | undefined): string | undefined {
  return header?.trim().replace(/^Bearer\s+/i, '') || undefined;
}
