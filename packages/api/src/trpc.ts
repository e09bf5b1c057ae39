// tRPC is created once here; every router builds on these procedures.
import { User } from '@rooms/db';
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import type { TContext } from './context';
import { isDatabaseOutage } from './database-outage';
import type { TSessionUser } from './domains/accounts/session';
import {
  recordImpersonatedChange,
  recordImpersonationRefusal,
  type TImpersonatedCall,
} from './domains/admin/impersonated-calls';
import { AppError, describeError, type TAppErrorCode } from './errors';
import type { TRestMeta } from './rest/rest-meta';
import { hasControlCharacters } from './schemas/common';

/** Procedure metadata, given with `.meta({ … })` on the procedure's builder (tRPC merges successive calls). */
export interface TMeta {
  /** A one-line summary that the REST layer's OpenAPI document shows. */
  summary?: string;
  /** Input fields typed in a text area: line breaks and tabs are allowed in them, in no other field. */
  multiline?: readonly string[];
  /** The procedure's REST path; without it the procedure is reached over tRPC alone (rest/route-table.ts). */
  rest?: TRestMeta;
}

export const t = initTRPC
  .context<TContext>()
  .meta<TMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error }) {
      const { appCode, status, message } = describeError(error);
      // Internal failures never leak their text; everything else is a message meant for people.
      return {
        ...shape,
        message,
        data: {
          ...shape.data,
          appCode: appCode satisfies TAppErrorCode,
          httpStatus: status,
          stack: undefined,
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every procedure refuses input with control characters, over tRPC and REST alike, before its schema runs: a NUL
 * byte would otherwise reach PostgreSQL and fail there as a 500, and the others only ever arrive by mistake or
 * to confuse whoever reads the text later.
 */
async function refuseControlCharacters(getRawInput: () => Promise<unknown>, meta: TMeta | undefined) {
  if (hasControlCharacters(await getRawInput(), new Set(meta?.multiline ?? []))) {
    throw new AppError('TEXT_CONTROL_CHARACTERS');
  }
}

/** A database out of reach answers 503 over tRPC too (its adapter takes the status from the error's code). */
function refuseDatabaseOutage<TResult extends { ok: boolean; error?: unknown }>(result: TResult): TResult {
  if (!result.ok && isDatabaseOutage(result.error)) {
    throw new AppError('SERVICE_UNAVAILABLE', { cause: result.error });
  }
  return result;
}

const databaseOutage = t.middleware(async ({ next }) => refuseDatabaseOutage(await next()));

// The checks every call goes through are one middleware each for public and signed-in procedures, in the order
// they had as separate ones (outage mapping around everything, control characters, then the session): every
// middleware level costs tRPC copies of the call's options, and a signed-in read spent more there than in its
// procedure.
export const publicProcedure = t.procedure.use(async ({ getRawInput, meta, next }) => {
  await refuseControlCharacters(getRawInput, meta);
  return refuseDatabaseOutage(await next());
});

/**
 * The narrowed context is the same object: tRPC would copy the whole context into a new one for `next({ ctx })`,
 * which costs time and reads every field, the lazily forked entity manager included (apps/server context.ts).
 * Passing no context keeps the object, whose session has just been found present.
 */
const sessionPresent = undefined as unknown as { session: TSessionUser };

/** The call of a session an administrator opened as the user, or null for anyone's own session. */
async function impersonatedCall(
  ctx: TContext,
  path: string,
  getRawInput: () => Promise<unknown>,
): Promise<TImpersonatedCall | null> {
  const session = ctx.session;
  if (!session?.impersonator) return null;
  return {
    session: { ...session, impersonator: session.impersonator },
    ip: ctx.request.ip,
    path,
    input: await getRawInput(),
  };
}

export const protectedProcedure = t.procedure.use(async ({ ctx, getRawInput, meta, next, path, type }) => {
  await refuseControlCharacters(getRawInput, meta);
  if (!ctx.session) throw new AppError('NOT_LOGGED_IN');
  const result = refuseDatabaseOutage(await next({ ctx: sessionPresent }));
  // A change made in a session an administrator opened as the user is the administrator's, and the audit log says
  // so: each call that went through (a refused call changed nothing, and a query changes nothing).
  if (result.ok && type === 'mutation' && ctx.session.impersonator) {
    const call = await impersonatedCall(ctx, path, getRawInput);
    if (call) await recordImpersonatedChange(ctx.em, call, result.data);
  }
  return result;
});

/**
 * Not for a session an administrator opened as someone else: what cannot be undone is the account holder's own to
 * do (paying, deleting a room, the password). The attempt is written to the audit log as the administrator's.
 */
export const ownSessionProcedure = protectedProcedure.use(async ({ ctx, getRawInput, next, path }) => {
  const call = await impersonatedCall(ctx, path, getRawInput);
  if (call) {
    await recordImpersonationRefusal(ctx.em, call);
    throw new AppError('IMPERSONATION_FORBIDDEN');
  }
  return next();
});

/**
 * The refusal for a path that does not exist, word for word as tRPC words it (the REST layer turns it into its own
 * 404). Admin procedures give it to everyone but an administrator in their own session, before reading any input,
 * so probing them tells an outsider nothing, not even that they exist.
 */
export function missingPath(path: string): TRPCError {
  return new TRPCError({ code: 'NOT_FOUND', message: `No procedure found on path "${path}"` });
}

/**
 * An administrator in their own session (an impersonated one is the user's). The session may come from the
 * cache: the role is read again, so a revoked administrator is out at once even if the news of it was lost on the
 * way to this process.
 */
export async function isAdministrator(em: TContext['em'], session: TSessionUser): Promise<boolean> {
  if (session.user.role !== 'admin' || session.impersonator) return false;
  // The whole row: a partial one would stay in the request's identity map and leave its other fields unset.
  const fresh = await em.findOne(User, session.user.id);
  return fresh?.role === 'admin' && !fresh.disabled;
}

export const adminProcedure = t.procedure
  .use(databaseOutage)
  .use(async ({ ctx, path, next }) => {
    const session = ctx.session;
    if (!session || !(await isAdministrator(ctx.em, session))) throw missingPath(path);
    return next({ ctx: { ...ctx, session } });
  })
  .use(async ({ getRawInput, meta, next }) => {
    await refuseControlCharacters(getRawInput, meta);
    return next();
  });
