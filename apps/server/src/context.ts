// The tRPC context of one HTTP request, shared by the tRPC endpoint and the REST layer.
import { AppError, isDatabaseOutage, resolveSession, type SessionCache, type TContext } from '@rooms/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The token comes raw in the Authorization header; a `Bearer ` prefix is tolerated. */
export function tokenFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization?.trim();
  if (!header) return null;
  return header.replace(/^Bearer\s+/i, '') || null;
}

/**
 * The entity manager is forked when a procedure first reads `ctx.em`, not per request: a signed-in read served from
 * the caches (the session, the balance) and every call refused before its procedure runs never touch the database,
 * and a fork costs more than the rest of such a request. Nothing spreads the context on the way to a procedure
 * (packages/api trpc.ts narrows the session without copying it), so the getter runs only when a procedure uses it.
 */
export async function createRequestContext(app: FastifyInstance, request: FastifyRequest): Promise<TContext> {
  let em: TContext['em'] | undefined;
  const entityManager = () => {
    em ??= app.orm.em.fork() as TContext['em'];
    return em;
  };
  const services = app.services;
  const token = tokenFrom(request);
  return {
    get em() {
      return entityManager();
    },
    services,
    request: {
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      token,
      origin: originOf(request),
    },
    session: token
      ? await resolveSessionOrUnavailable(entityManager, token, services.now(), services.sessionCache)
      : null,
  };
}

/** The session lookup runs before any procedure: a database out of reach answers 503 here already. */
async function resolveSessionOrUnavailable(
  em: () => TContext['em'],
  token: string,
  now: Date,
  cache: SessionCache,
) {
  try {
    return await resolveSession(em, token, now, cache);
  } catch (error) {
    if (isDatabaseOutage(error)) throw new AppError('SERVICE_UNAVAILABLE', { cause: error });
    throw error;
  }
}

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/** `protocol://host` as the request came (behind a trusted proxy, as it says); null for a malformed Host. */
export function originOf(request: FastifyRequest): string | null {
  const host = request.host;
  return host && HOST.test(host) ? `${request.protocol}://${host}` : null;
}
