// How an agent or a gateway gets its credential: it asks a control plane (`POST /fleet/enrol`) with the join token
// of its role, which holds no signing power, and the public half of a key it made for itself. An agent is
// registered here, by the control plane, in the zones it asks for: the agent ids in its credential are the ones this
// call made, so no process can obtain a credential for another's. The same call renews a credential before it
// expires, keeping the agent ids the caller shows, signed, that it already holds.
import type { KeyObject } from 'node:crypto';
import { timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { fleet } from '@rooms/api';
import { Region } from '@rooms/db';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CONTROL_AUDIENCE, checkFleetCall, issueCredential } from './fleet-credentials';
import { publicKeyText } from './fleet-keys';

export const ENROL_PATH = '/fleet/enrol';
/** A credential held already, with the enrolment signed by its holder: the agent ids it keeps. */
export const HELD_CREDENTIAL_HEADER = 'x-fleet-credential';

export const ZEnrolment = z
  .object({
    role: z.enum(['agent', 'gateway']),
    /** The caller's own public key (32 bytes, base64url): its calls are signed with the private half. */
    key: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be an Ed25519 public key (32 bytes, base64url)'),
    name: z.string().min(1).max(300),
    agent: z
      .object({
        address: z.string().min(1).max(300),
        /** Zones to register in now, each as a new agent (an earlier one at this address there is lost). */
        register: z.array(z.string().min(1).max(100)).max(64),
        /** Agent ids of the held credential to keep. */
        keep: z.array(z.uuid()).max(64),
        capacity: z.number().int().min(1).max(1000).optional(),
        version: z.string().min(1).max(100).optional(),
      })
      .optional(),
  })
  .refine((body) => (body.role === 'agent') === (body.agent !== undefined), {
    message: 'an agent enrols with its address and zones, a gateway without',
    path: ['agent'],
  })
  .refine((body) => !body.agent?.register.length || (body.agent.capacity && body.agent.version), {
    message: 'registering in a zone takes the agent’s capacity and version',
    path: ['agent', 'capacity'],
  });
export type TEnrolment = z.infer<typeof ZEnrolment>;

export const ZEnrolled = z.object({
  credential: z.string().max(8192),
  /** The fleet's verify key (32 bytes, base64url): what the control plane's orders are checked with. */
  verifyKey: z.string(),
  /** The agents this enrolment registered, by zone code. */
  registered: z.record(z.string(), z.uuid()),
});
export type TEnrolled = z.infer<typeof ZEnrolled>;

export interface TEnrolmentOptions {
  orm: MikroORM;
  signingKey: KeyObject;
  verifyKey: KeyObject;
  /** Each role's join token; a role without one cannot enrol here. */
  joinTokens: { agent: string | undefined; gateway: string | undefined };
  now?: () => Date;
}

function sameToken(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerEnrolment(app: FastifyInstance, options: TEnrolmentOptions): void {
  const now = options.now ?? (() => new Date());
  app.post(ENROL_PATH, async (request, reply) => {
    const parsed = ZEnrolment.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return reply.code(400).send({ message: `${issue?.path.join('.') || 'body'}: ${issue?.message}` });
    }
    const body = parsed.data;
    const joinToken = request.headers.authorization?.replace(/^Bearer\s+/i, '');
    if (!options.joinTokens[body.role]) {
      return reply.code(403).send({
        code: 'FORBIDDEN',
        message: `This control plane enrols no ${body.role}: it was given no join token for that role`,
      });
    }
    if (!sameToken(joinToken, options.joinTokens[body.role])) {
      return reply.code(401).send({
        code: 'FORBIDDEN',
        message: `Only the install’s ${body.role} join token enrols a ${body.role}`,
      });
    }
    const keep = body.agent?.keep ?? [];
    if (keep.length > 0) {
      const held = checkFleetCall(request.headers[HELD_CREDENTIAL_HEADER] as string | undefined, {
        verifyKey: options.verifyKey,
        audience: CONTROL_AUDIENCE,
        method: request.method,
        path: request.url,
      });
      const refusal = !held.ok
        ? held.reason
        : held.caller.role !== 'agent' || held.caller.key !== body.key
          ? 'the held credential is not this agent’s'
          : held.caller.address !== body.agent?.address
            ? 'the held credential is for another address'
            : keep.find((agentId) => !held.caller.agents.includes(agentId))
              ? 'an agent id to keep is not in the held credential'
              : null;
      if (refusal) {
        return reply.code(403).send({
          code: 'FORBIDDEN',
          message: `An agent keeps only the agent ids of its own credential: ${refusal}`,
        });
      }
    }
    const registered: Record<string, string> = {};
    if (body.agent?.register.length) {
      // Every zone checked first: a refusal registers none of them.
      const codes = [...new Set(body.agent.register)];
      const known = await options.orm.em.fork().find(Region, { code: { $in: codes } });
      const unknown = codes.find((code) => !known.some((region) => region.code === code));
      if (unknown !== undefined) {
        return reply.code(400).send({ message: `No zone with the code ${JSON.stringify(unknown)}` });
      }
      for (const regionCode of codes) {
        const { agent } = await fleet.registerAgent(
          options.orm.em.fork(),
          {
            regionCode,
            address: body.agent.address,
            capacity: body.agent.capacity!,
            version: body.agent.version!,
          },
          now(),
        );
        registered[regionCode] = agent.id;
      }
    }
    const credential = issueCredential(
      options.signingKey,
      {
        role: body.role,
        sub: body.name,
        key: body.key,
        agents: [...new Set([...keep, ...Object.values(registered)])],
        address: body.agent?.address ?? null,
      },
      now().getTime(),
    );
    request.log.info(
      { role: body.role, name: body.name, registered, kept: keep.length },
      'fleet: enrolled a process',
    );
    return { credential, verifyKey: publicKeyText(options.verifyKey), registered } satisfies TEnrolled;
  });
}
