// Runs one REST call through its procedure and wraps the outcome in the envelope clients expect:
// { msg: 'success', data } on success, { msg: 'error', data: '<text a person reads>' } on failure.
import { callTRPCProcedure, TRPCError } from '@trpc/server';
import type { TContext } from '../context';
import { AppError, describeError, errorSpec } from '../errors';
import { appRouter } from '../root';
import type { TRestRoute } from './route-table';

export type TRestEnvelope = { msg: 'success'; data: unknown } | { msg: 'error'; data: string };

export interface TRestReply {
  status: number;
  body: TRestEnvelope;
  /** The original error when the reply is a failure, for logging. */
  error?: unknown;
}

/** GET takes the query string; POST takes the JSON body, with the query string's fields as well. */
export function restInput(route: TRestRoute, query: unknown, body: unknown): unknown {
  const queryObject = query && typeof query === 'object' ? (query as Record<string, unknown>) : {};
  if (route.method === 'GET') return queryObject;
  if (body === undefined || body === null || body === '') return queryObject;
  if (typeof body !== 'object' || Array.isArray(body)) return body;
  return { ...queryObject, ...(body as Record<string, unknown>) };
}

export async function callRoute(ctx: TContext, route: TRestRoute, input: unknown): Promise<TRestReply> {
  try {
    // The procedure itself, as tRPC's HTTP handler calls it: a caller (createCaller) would build a proxy per request.
    const data = await callTRPCProcedure({
      router: appRouter,
      path: route.procedure,
      type: route.type,
      getRawInput: async () => input,
      ctx,
      signal: undefined,
      batchIndex: 0,
    });
    return { status: 200, body: { msg: 'success', data: data ?? null } };
  } catch (error) {
    // A path refused as missing (admin paths for everyone else) answers like an unknown /api path does.
    if (error instanceof TRPCError && !(error instanceof AppError) && error.code === 'NOT_FOUND') {
      return { status: 404, body: { msg: 'error', data: errorSpec('NOT_FOUND').message } };
    }
    const { status, message } = describeError(error);
    return { status, body: { msg: 'error', data: message }, error };
  }
}
