// Runs one REST call through its procedure and wraps the outcome in the envelope clients expect:
// { msg: 'success', data } on success, { msg: 'error', data: '<text a person reads>' } on failure.
import { TRPCError } from '@trpc/server';
import type { TContext } from '../context';
import { AppError, describeError, errorSpec } from '../errors';
import { createCaller } from '../root';
import type { TRestRoute } from './route-table';

export type TRestEnvelope = { msg: 'success'; data: unknown } | { msg: 'error'; data: string };

export interface TRestReply {
  status: number;
  body: TRestEnvelope;
  /** The original error when the reply is a failure, for logging. */
  error?: unknown;
}

type TCallable = (input: unknown) => Promise<unknown>;

function procedureOf(caller: unknown, path: string): TCallable {
  let node = caller as Record<string, unknown>;
  for (const segment of path.split('.')) node = node[segment] as Record<string, unknown>;
  return node as unknown as TCallable;
}

/** GET takes the query string; POST takes the JSON body, with the query parameters the spec shows as well. */
export function restInput(route: TRestRoute, query: unknown, body: unknown): unknown {
  const queryObject = query && typeof query === 'object' ? (query as Record<string, unknown>) : {};
  if (route.method === 'GET') return queryObject;
  if (body === undefined || body === null || body === '') return queryObject;
  if (typeof body !== 'object' || Array.isArray(body)) return body;
  return { ...queryObject, ...(body as Record<string, unknown>) };
}

export async function callRoute(ctx: TContext, route: TRestRoute, input: unknown): Promise<TRestReply> {
  try {
    const data = await procedureOf(createCaller(ctx), route.procedure)(input);
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
