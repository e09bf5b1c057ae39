// tRPC is created once here; every router builds on these procedures.
import { initTRPC } from '@trpc/server';
import superjson from 'superjson';
import type { TContext } from './context';
import { AppError, describeError, type TAppErrorCode } from './errors';

/** Procedure metadata: a one-line summary that the REST layer's OpenAPI document shows. */
export interface TMeta {
  summary?: string;
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

export const publicProcedure = t.procedure;

export const protectedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new AppError('NOT_LOGGED_IN');
  return next({ ctx: { ...ctx, session: ctx.session } });
});

export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.session.user.role !== 'admin') throw new AppError('FORBIDDEN');
  return next();
});
