// tRPC is created once here; every router builds on these procedures.
import { User } from '@rooms/db';
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import type { TSessionUser } from './account/session';
import type { TContext } from './context';
import { isDatabaseOutage } from './database-outage';
import { AppError, describeError, type TAppErrorCode } from './errors';
import { hasControlCharacters } from './schemas/common';

/** Procedure metadata: a one-line summary that the REST layer's OpenAPI document shows. */
export interface TMeta {
  summary?: string;
  /** Input fields typed in a text area: line breaks and tabs are allowed in them, in no other field. */
  multiline?: readonly string[];
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
const refuseControlCharacters = t.middleware(async ({ getRawInput, meta, next }) => {
  if (hasControlCharacters(await getRawInput(), new Set(meta?.multiline ?? []))) {
    throw new AppError('TEXT_CONTROL_CHARACTERS');
  }
  return next();
});

/** A database out of reach answers 503 over tRPC too (its adapter takes the status from the error's code). */
const databaseOutage = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isDatabaseOutage(result.error)) {
    throw new AppError('SERVICE_UNAVAILABLE', { cause: result.error });
  }
  return result;
});

export const publicProcedure = t.procedure.use(databaseOutage).use(refuseControlCharacters);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new AppError('NOT_LOGGED_IN');
  return next({ ctx: { ...ctx, session: ctx.session } });
});

/** Not for a session an administrator opened as someone else: that person may not pay or change credentials. */
export const ownSessionProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.session.impersonator) throw new AppError('IMPERSONATION_FORBIDDEN');
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
  .use(refuseControlCharacters);
