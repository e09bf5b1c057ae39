// tRPC is created once here; every router builds on these procedures.
import { initTRPC } from '@trpc/server';
import superjson from 'superjson';
import type { TContext } from './context';
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
export const publicProcedure = t.procedure.use(async ({ getRawInput, meta, next }) => {
  if (hasControlCharacters(await getRawInput(), new Set(meta?.multiline ?? []))) {
    throw new AppError('TEXT_CONTROL_CHARACTERS');
  }
  return next();
});

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new AppError('NOT_LOGGED_IN');
  return next({ ctx: { ...ctx, session: ctx.session } });
});

export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.session.user.role !== 'admin') throw new AppError('FORBIDDEN');
  return next();
});
