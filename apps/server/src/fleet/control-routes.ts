// The control plane's routes for the other processes of the install (fleet-auth.ts): agents send their heartbeats
// here, each only as the agents its credential names, to be written in batches (heartbeat-batcher.ts); agents and
// gateways follow the database's notices here (session ends, account and table changes), rather than each holding
// database connections of its own for them; and they enrol here for their credentials (fleet-enrolment.ts).
import type { ServerResponse } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { RELAY_KEEPALIVE_MS } from '../services/session-events/notice-sources';
import type { TSessionEventBus } from '../services/session-events/session-events';
import { checkCaller, type TFleetAuth } from './fleet-auth';
import type { TFleetCaller } from './fleet-callers';
import { CONTROL_AUDIENCE, type TCredential, type TFleetRole } from './fleet-credentials';
import { registerEnrolment } from './fleet-enrolment';
import type { THeartbeatSink } from './heartbeat-batcher';

/** One agent process speaks for each zone it serves; a run's id per room it has. */
export const ZHeartbeats = z.object({
  beats: z
    .array(
      z.object({
        agentId: z.uuid(),
        report: z.record(z.string(), z.unknown()).optional(),
        held: z.array(z.uuid()).max(10_000).optional(),
      }),
    )
    .min(1)
    .max(64),
});
export type THeartbeats = z.infer<typeof ZHeartbeats>;

export const HEARTBEATS_PATH = '/fleet/heartbeats';
/** One line of JSON per notice (ndjson), and `{}` every RELAY_KEEPALIVE_MS while there are none. */
export const NOTICES_PATH = '/fleet/notices';

export interface TControlRoutesOptions {
  sink: THeartbeatSink;
  notices: Pick<TSessionEventBus, 'subscribeNotices'>;
  auth: TFleetAuth;
  orm: MikroORM;
}

/** The fleet's caller of this request, once fleetOnly let it through. */
const callers = new WeakMap<FastifyRequest, TCredential>();

export function registerControlRoutes(app: FastifyInstance, options: TControlRoutesOptions) {
  const { auth } = options;
  const fleetOnly =
    (roles: readonly TFleetRole[], refused: string) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const checked = checkCaller(request, auth, roles);
      if (!checked.ok) {
        const message =
          checked.status === 401 ? 'Only the processes of this install may call the fleet’s routes' : refused;
        return reply.code(checked.status).send({ code: 'FORBIDDEN', message, reason: checked.reason });
      }
      callers.set(request, checked.caller);
    };

  if (auth.authority) {
    registerEnrolment(app, {
      orm: options.orm,
      signingKey: auth.authority.signingKey,
      verifyKey: auth.verifyKey()!,
      joinTokens: auth.authority.joinTokens,
    });
  }

  const heartbeatsOnly = fleetOnly(['agent'], 'Only a room agent sends heartbeats');
  app.post(HEARTBEATS_PATH, { preHandler: heartbeatsOnly }, async (request, reply) => {
    const parsed = ZHeartbeats.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return reply.code(400).send({ message: `${issue?.path.join('.') || 'body'}: ${issue?.message}` });
    }
    // An agent beats for the agents it registered as, the ids of its own credential, and for no other.
    const caller = callers.get(request)!;
    const other = parsed.data.beats.find((beat) => !caller.agents.includes(beat.agentId));
    if (other) {
      return reply.code(403).send({
        code: 'FORBIDDEN',
        message: `An agent heartbeats only as itself: ${other.agentId} is not an agent of this credential`,
      });
    }
    const answers = await options.sink(
      parsed.data.beats.map((beat) => ({
        agentId: beat.agentId,
        report: beat.report,
        held: beat.held ? new Set(beat.held) : undefined,
      })),
    );
    return { answers };
  });

  // Followers' streams never end by themselves: a shutting down control plane ends them, and the followers follow
  // another replica (or this one again once it is back).
  const followers = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of followers) stream.destroy();
  });
  const followersOnly = fleetOnly(['agent', 'gateway'], 'Only agents and gateways follow the notices');
  app.get(NOTICES_PATH, { preHandler: followersOnly }, (_request, reply) => {
    reply.hijack();
    const stream = reply.raw;
    followers.add(stream);
    // The connection is the stream's alone: when it ends, by either side, the socket goes with it.
    stream.writeHead(200, {
      'content-type': 'application/x-ndjson',
      'cache-control': 'no-store',
      connection: 'close',
    });
    // Sent at once, so the follower knows it is connected (and caches its notices may have missed start afresh).
    stream.write('{}\n');
    const stop = options.notices.subscribeNotices((notice) => {
      stream.write(`${JSON.stringify({ channel: notice.channel, payload: notice.payload })}\n`);
    });
    const keepalive = setInterval(() => stream.write('{}\n'), RELAY_KEEPALIVE_MS);
    stream.on('close', () => {
      followers.delete(stream);
      clearInterval(keepalive);
      stop();
    });
  });
}

/** An agent's heartbeats sent to the control plane at `controlUrl` (CONTROL_URL), signed with its credential. */
export function controlPlaneSink(controlUrl: string, caller: TFleetCaller, timeoutMs = 5000): THeartbeatSink {
  const url = new URL(HEARTBEATS_PATH, controlUrl);
  return async (requests) => {
    const authorization = await caller.authorization(CONTROL_AUDIENCE, 'POST', HEARTBEATS_PATH);
    const body: THeartbeats = {
      beats: requests.map((request) => ({
        agentId: request.agentId,
        report: request.report,
        held: request.held ? [...request.held] : undefined,
      })),
    };
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      throw new Error(
        `the control plane refused the heartbeat (${response.status}): ${await response.text()}`,
      );
    }
    const { answers } = (await response.json()) as { answers: Awaited<ReturnType<THeartbeatSink>> };
    if (!Array.isArray(answers) || answers.length !== requests.length) {
      throw new Error('the control plane answered the heartbeat with the wrong number of answers');
    }
    return answers;
  };
}
