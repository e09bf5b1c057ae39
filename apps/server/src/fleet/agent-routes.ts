// A room agent's own routes, each for the one role that calls it (fleet-auth.ts): the control plane orders runs
// started and rooms stopped, and gateways forward participants' sockets here, each with the identity the gateway
// verified (its ticket or session token), and fetch the files rooms offered their controllers (agent-downloads.ts).
// Every call is signed for this agent's address, so what one agent is sent cannot be replayed to another.
import { describeError } from '@rooms/api';
import { ZSystemRoomEnded } from '@rooms/api/room-protocol';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RoomRelay } from '../ws/room-relay';
import { openRoomConnection, type TRoomSocketContext } from '../ws/room-socket';
import { defineSocketHandler } from '../ws/socket-handler';
import { registerAgentDownloads } from './agent-downloads';
import { agentFeedHandler } from './agent-feed';
import type { AgentRuns } from './agent-runs';
import { checkCaller, type TFleetAuth } from './fleet-auth';
import { MEDIA_BY_GATEWAY_HEADER } from './room-feed';

/** The identity a gateway forwards with a participant's socket, as JSON in this header (base64url). */
export const FORWARDED_IDENTITY_HEADER = 'x-room-identity';

export const ZForwardedIdentity = z.object({
  userId: z.uuid().nullable(),
  guestId: z.string().max(200).nullable(),
  sessionId: z.uuid().nullable(),
  ip: z.string().max(100).nullable(),
  /** A knock ticket's socket: it may only ask to be let in (rooms/hub/knock). */
  knock: z.boolean().optional(),
  via: z.enum(['ticket', 'token']),
});
export type TForwardedIdentity = z.infer<typeof ZForwardedIdentity>;

const ZRunOrder = z.object({
  runId: z.uuid(),
  epoch: z.number().int().positive(),
  spec: z.object({
    roomId: z.uuid(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    maxFrameRate: z.number().int().positive(),
    videoBitrateKbps: z.number().int().positive(),
    startUrl: z.string().max(4096),
    keepData: z.boolean(),
    autoCloseMs: z.number().int().positive().nullable(),
  }),
});

export interface TAgentRoutesOptions {
  runs: AgentRuns;
  relay: RoomRelay;
  auth: TFleetAuth;
}

export function registerAgentRoutes(app: FastifyInstance, options: TAgentRoutesOptions): void {
  const { runs, relay, auth } = options;
  // Orders come from the control plane alone: an agent's or a gateway's credential orders nothing.
  const fleetOnly = async (
    request: FastifyRequest,
    reply: { code(status: number): { send(body: unknown): unknown } },
  ) => {
    const checked = checkCaller(request, auth, ['control']);
    if (!checked.ok) {
      const message =
        checked.status === 401
          ? 'Only the processes of this install may call an agent'
          : 'Only the control plane orders an agent';
      return reply.code(checked.status).send({ code: 'FORBIDDEN', message, reason: checked.reason });
    }
  };

  app.post('/fleet/runs', { preHandler: fleetOnly }, async (request, reply) => {
    const order = ZRunOrder.safeParse(request.body);
    if (!order.success) return reply.code(400).send({ message: order.error.issues[0]?.message });
    try {
      return { state: await runs.start(order.data) };
    } catch (error) {
      const refusal = describeError(error);
      // The control plane hears only the code and words; why the room did not start is said here, where it is known.
      if (refusal.status >= 500) {
        request.log.error(
          { err: error, roomId: order.data.spec.roomId },
          'a run ordered here failed to start',
        );
      }
      return reply.code(refusal.status).send({ code: refusal.appCode, message: refusal.message });
    }
  });

  app.post<{ Params: { roomId: string } }>(
    '/fleet/rooms/:roomId/stop',
    { preHandler: fleetOnly },
    async (request, reply) => {
      const body = z
        .object({ ending: ZSystemRoomEnded.omit({ type: true }).optional() })
        .safeParse(request.body ?? {});
      if (!body.success || !z.uuid().safeParse(request.params.roomId).success) {
        return reply.code(400).send({ message: 'Not a room stop' });
      }
      await runs.stop(request.params.roomId, body.data.ending);
      return { state: 'stopped' };
    },
  );

  agentSocketHandler.register(app, { relay, auth, log: app.log });
  agentFeedHandler.register(app, { relay, auth, log: app.log });
  registerAgentDownloads(app, { relay, auth });
}

/** A participant a gateway forwarded, with the identity the gateway verified (its ticket or session token). */
const agentSocketHandler = defineSocketHandler<
  TRoomSocketContext,
  { relay: RoomRelay; auth: TFleetAuth; log: FastifyBaseLogger }
>({
  path: '/fleet/rooms/:roomId/socket',
  async authenticate(request, deps) {
    // The identity forwarded is believed: only a gateway, which checked it, may forward one.
    const checked = checkCaller(request, deps.auth, ['gateway']);
    if (!checked.ok) {
      return {
        ok: false,
        status: checked.status,
        message: `Only a gateway of this install may forward a participant: ${checked.reason}`,
      };
    }
    const identity = forwardedIdentity(request.headers[FORWARDED_IDENTITY_HEADER]);
    if (!identity)
      return { ok: false, status: 400, message: 'The forwarded identity is missing or malformed' };
    const { via, ...rest } = identity;
    return {
      ok: true,
      context: { identity: rest, via, mediaByGateway: request.headers[MEDIA_BY_GATEWAY_HEADER] === '1' },
    };
  },
  handle(socket, request, context, deps) {
    openRoomConnection(socket, request, context, deps);
  },
});

export function encodeForwardedIdentity(identity: TForwardedIdentity): string {
  return Buffer.from(JSON.stringify(identity)).toString('base64url');
}

function forwardedIdentity(header: string | string[] | undefined): TForwardedIdentity | null {
  if (typeof header !== 'string' || header.length > 2048) return null;
  try {
    const parsed = ZForwardedIdentity.safeParse(
      JSON.parse(Buffer.from(header, 'base64url').toString('utf8')),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
