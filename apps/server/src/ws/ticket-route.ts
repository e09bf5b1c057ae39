// POST /ws/ticket — a browser's pass for the room WebSocket. The caller's session token (Authorization header)
// makes it a user's ticket, without one a guest's; either is tied to the browser by a signed cookie
// (guest-id.ts). Entry rules (owner, public, share password with its budget of wrong tries), bans, removals and whether the room runs are
// checked here, where a refusal can still be an HTTP answer a page can read. The room's knock link gets a knock
// ticket (rate-limited apart), whose socket waits for the owner's answer (rooms/hub/knock); an admitted knocker's
// pass (admission-pass.ts) gets a member's ticket again.
import { checkShareAccess, describeError, type RateLimiter, resolveSession } from '@rooms/api';
import {
  ROOM_ERROR_MESSAGES,
  ROOM_TICKET_PATH,
  type TRoomTicketResponse,
  ZRoomTicketRequest,
} from '@rooms/api/room-protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { tokenFrom } from '../context';
import type { RoomRelay } from './room-relay';

/**
 * Per browser (its session, or its guest id) and room, not per address: a household or an office behind one NAT
 * all rejoin a restarted room at once, each within its own budget. Enough for a page waiting out a restart
 * (room-protocol's rejoin schedule asks well under this); wrong passwords have their own, smaller budget per
 * address (checkShareAccess).
 */
const TICKETS_PER_MINUTE = 30;
/** Per browser over all rooms: a script walking room ids gets no budget per id it makes up. */
const CALLER_TICKETS_PER_MINUTE = 120;
/**
 * New guest ids per address: a browser keeps its id for the session, so only a client that drops its cookie asks
 * for one every time, and that is what this holds back.
 */
const NEW_GUESTS_PER_MINUTE = 60;
/**
 * A ceiling per address against floods only: a large office rejoining a restarted room (a few tickets each) stays
 * well under it.
 */
const ADDRESS_TICKETS_PER_MINUTE = 1200;
/**
 * Knock tickets (the room's knock link) per browser and room: a page knocks once and waits, and knocks again only
 * when its socket dropped; a script knocking over and over to pester the owner is held to this.
 */
const KNOCKS_PER_MINUTE = 3;
/** Knock tickets per address and room, for knockers that drop their cookie each time. */
const ADDRESS_KNOCKS_PER_MINUTE = 20;

export function registerTicketRoute(app: FastifyInstance, relay: RoomRelay): void {
  const limiter = app.services.rateLimiter;
  app.post(ROOM_TICKET_PATH, async (request, reply) => {
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

    // Every browser gets the id, signed in or not: a guest banned in it stays banned after logging in.
    let guestId = relay.guestIds.fromCookieHeader(request.headers.cookie);
    if (!guestId) {
      const wait = await limiter.hit(`ws-guest:${request.ip}`, NEW_GUESTS_PER_MINUTE, 60);
      if (wait > 0) return tooMany(reply, wait);
      const issued = relay.guestIds.issue(request.protocol === 'https');
      guestId = issued.guestId;
      reply.header('set-cookie', issued.setCookie);
    }
    const caller = sessionId ? `session:${sessionId}` : `guest:${guestId}`;
    const wait = await hold(limiter, [
      [`ws-ticket:${caller}:${body.data.roomId}`, TICKETS_PER_MINUTE],
      [`ws-ticket:${caller}`, CALLER_TICKETS_PER_MINUTE],
      [`ws-ticket:ip:${request.ip}`, ADDRESS_TICKETS_PER_MINUTE],
    ]);
    if (wait > 0) return tooMany(reply, wait);

    const room = await relay.findRoom(body.data.roomId);
    if (!room) return fail(reply, 404, ROOM_ERROR_MESSAGES.ROOM_NOT_FOUND);
    // An admitted knocker's pass stands for the password; the knock link only gets a ticket to knock with.
    const { admission, knock: knockToken } = body.data;
    let knock = false;
    if (!admission || !relay.passes.admits(admission, room.id, { userId, guestId }, Date.now())) {
      try {
        const access = await checkShareAccess(
          limiter,
          { ip: request.ip, userId },
          room,
          body.data.password,
          {},
          knockToken,
        );
        knock = access === 'knock';
      } catch (error) {
        const refusal = describeError(error);
        if (refusal.appCode === 'ROOM_NOT_FOUND') return fail(reply, 404, ROOM_ERROR_MESSAGES.ROOM_NOT_FOUND);
        return fail(reply, refusal.status, refusal.message);
      }
    }
    if (knock) {
      const knockWait = await hold(limiter, [
        [`ws-knock:${caller}:${room.id}`, KNOCKS_PER_MINUTE],
        [`ws-knock:ip:${request.ip}:${room.id}`, ADDRESS_KNOCKS_PER_MINUTE],
      ]);
      if (knockWait > 0) return tooMany(reply, knockWait);
    }

    // Before "is it running here": the ban or removal may come from another server's hub, and a page kept out
    // must hear so (final) rather than that the room is not running (which it would wait out).
    const keptOut = await relay.keptOut(room, { userId, guestId, ip: request.ip });
    if (keptOut) return fail(reply, 403, ROOM_ERROR_MESSAGES[keptOut]);
    // Wherever it runs: in this process, or on another agent of the fleet.
    if (!relay.isRunning(room.id) && app.services.rooms.state(room.id) !== 'running') {
      return fail(reply, 409, ROOM_ERROR_MESSAGES.ROOM_NOT_RUNNING);
    }

    const issued: TRoomTicketResponse = relay.tickets.issue(
      room.id,
      userId,
      Date.now(),
      guestId,
      sessionId,
      knock,
    );
    return reply.send(issued);
  });
}

/** Counts one ticket against each budget (a minute each); when one is spent, takes it back from all and says the wait. */
async function hold(limiter: RateLimiter, budgets: [key: string, limit: number][]): Promise<number> {
  let wait = 0;
  for (const [key, limit] of budgets) wait = Math.max(wait, await limiter.hit(key, limit, 60));
  if (wait > 0) for (const [key] of budgets) await limiter.undo(key);
  return wait;
}

/** The wait goes in Retry-After too, which the page honours before it asks again. */
function tooMany(reply: FastifyReply, wait: number) {
  reply.header('retry-after', String(wait));
  return fail(reply, 429, `Too many attempts, please try again in ${wait} seconds`);
}

function fail(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ msg: 'error', data: message });
}
