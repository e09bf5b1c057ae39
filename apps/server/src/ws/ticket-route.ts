// POST /ws/ticket — a browser's pass for the room WebSocket. The caller's session token (Authorization header)
// makes it a user's ticket, without one a guest's; either is tied to the browser by a signed cookie
// (guest-id.ts). Entry rules (owner, public, share password with its budget of wrong tries), bans and whether the room runs are
// checked here, where a refusal can still be an HTTP answer a page can read.
import { checkShareAccess, describeError, resolveSession } from '@rooms/api';
import {
  ROOM_ERROR_MESSAGES,
  ROOM_TICKET_PATH,
  type TRoomTicketResponse,
  ZRoomTicketRequest,
} from '@rooms/api/room-protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { tokenFrom } from '../context';
import type { RoomRelay } from './room-relay';

/** Per address: enough for reconnects; wrong passwords have their own, smaller budget (checkShareAccess). */
const TICKETS_PER_MINUTE = 30;

export function registerTicketRoute(app: FastifyInstance, relay: RoomRelay): void {
  app.post(ROOM_TICKET_PATH, async (request, reply) => {
    const wait = await app.services.rateLimiter.hit(`ws-ticket:${request.ip}`, TICKETS_PER_MINUTE, 60);
    if (wait > 0) return fail(reply, 429, `Too many attempts, please try again in ${wait} seconds`);

    const body = ZRoomTicketRequest.safeParse(request.body ?? {});
    if (!body.success) return fail(reply, 400, body.error.issues[0]?.message ?? 'Request error');

    let userId: string | null = null;
    let sessionId: string | null = null;
    const token = tokenFrom(request);
    if (token) {
      // A token that does not resolve is an error, not a quiet downgrade to a guest: the owner would lose control.
      const session = await resolveSession(
        app.orm.em.fork(),
        token,
        app.services.now(),
        app.services.sessionCache,
      );
      if (!session) return fail(reply, 401, 'Not logged in');
      userId = session.user.id;
      sessionId = session.sessionId;
    }

    const room = await relay.findRoom(body.data.roomId);
    if (!room) return fail(reply, 404, ROOM_ERROR_MESSAGES.ROOM_NOT_FOUND);
    try {
      await checkShareAccess(app.services.rateLimiter, { ip: request.ip, userId }, room, body.data.password);
    } catch (error) {
      const refusal = describeError(error);
      if (refusal.appCode === 'ROOM_NOT_FOUND') return fail(reply, 404, ROOM_ERROR_MESSAGES.ROOM_NOT_FOUND);
      return fail(reply, refusal.status, refusal.message);
    }

    // Every browser gets the id, signed in or not: a guest banned in it stays banned after logging in.
    let guestId = relay.guestIds.fromCookieHeader(request.headers.cookie);
    if (!guestId) {
      const issued = relay.guestIds.issue(request.protocol === 'https');
      guestId = issued.guestId;
      reply.header('set-cookie', issued.setCookie);
    }
    // Before "is it running here": the ban may come from another server's hub, and a banned page must hear that
    // it is banned (final) rather than that the room is not running (which it would wait out).
    if (await relay.isBanned(room, { userId, guestId, ip: request.ip })) {
      return fail(reply, 403, ROOM_ERROR_MESSAGES.BANNED);
    }
    // Wherever it runs: in this process, or on another agent of the fleet.
    if (!relay.isRunning(room.id) && app.services.rooms.state(room.id) !== 'running') {
      return fail(reply, 409, ROOM_ERROR_MESSAGES.ROOM_NOT_RUNNING);
    }

    const issued: TRoomTicketResponse = relay.tickets.issue(room.id, userId, Date.now(), guestId, sessionId);
    return reply.send(issued);
  });
}

function fail(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ msg: 'error', data: message });
}
