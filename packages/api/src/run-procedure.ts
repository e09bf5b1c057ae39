// Runs one procedure exactly as tRPC 11's `callTRPCProcedure` does (the same middlewares in the same order, each
// given the same options, the same errors), with the call options copied by native object spread instead of the
// transpiled `_objectSpread2` helper tRPC ships, which cost a signed-in read more than its whole procedure did.
// Used by the REST layer and the direct /trpc handler; written against @trpc/server 11.19 (pinned), whose
// `callRecursive` in initTRPC is the model line for line.
import {
  type AnyTRPCProcedure,
  callTRPCProcedure,
  getTRPCErrorFromUnknown,
  TRPCError,
  type TRPCProcedureType,
} from '@trpc/server';
import type { TContext } from './context';
import { appRouter } from './root';

type TMiddlewareResult = { ok: true; data: unknown; ctx: unknown } | { ok: false; error: TRPCError };
type TCallOptions = {
  router: typeof appRouter;
  path: string;
  type: TRPCProcedureType;
  ctx: TContext;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
  allowMethodOverride?: boolean;
  input?: unknown;
};
type TNextOptions = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> } | undefined;
type TMiddleware = (options: object) => Promise<TMiddlewareResult>;
interface TProcedureDef {
  type: TRPCProcedureType;
  meta: unknown;
  middlewares: TMiddleware[];
  caller?: unknown;
}

const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure | undefined>;

async function callRecursive(
  index: number,
  def: TProcedureDef,
  options: TCallOptions,
): Promise<TMiddlewareResult> {
  try {
    const middleware = def.middlewares[index] as TMiddleware;
    return await middleware({
      ...options,
      meta: def.meta,
      input: options.input,
      next(nextOptions: TNextOptions) {
        return callRecursive(index + 1, def, {
          ...options,
          ctx: nextOptions?.ctx ? ({ ...options.ctx, ...nextOptions.ctx } as TContext) : options.ctx,
          input: nextOptions && 'input' in nextOptions ? nextOptions.input : options.input,
          getRawInput: nextOptions?.getRawInput ?? options.getRawInput,
        });
      },
    });
  } catch (cause) {
    return {
      ok: false,
      error: getTRPCErrorFromUnknown(cause),
      marker: 'middlewareMarker',
    } as TMiddlewareResult;
  }
}

export async function runProcedure(options: TCallOptions): Promise<unknown> {
  const procedure = Object.hasOwn(procedures, options.path) ? procedures[options.path] : undefined;
  const def = procedure?._def as TProcedureDef | undefined;
  // Anything unusual (a missing path, a type mismatch, a procedure with its own caller) is tRPC's to answer.
  if (!def || def.caller || def.type !== options.type || !Array.isArray(def.middlewares)) {
    return callTRPCProcedure(options);
  }
  const result = await callRecursive(0, def, options);
  if (!result) {
    throw new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'No result from middlewares - did you forget to `return next()`?',
    });
  }
  if (!result.ok) throw result.error;
  return result.data;
}
