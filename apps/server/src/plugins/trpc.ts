// tRPC at /trpc. The web client's calls (httpLink, unbatched: GET for queries, POST for mutations and for queries
// carrying a share password) are answered by a direct handler that runs the procedure as tRPC's own HTTP handler
// does and writes the same answer; everything else (batches, streams, subscriptions, unknown paths, odd methods
// or content types, unparsable input) goes to tRPC's official Fastify adapter unchanged.
import { type AppRouter, appRouter, describeError, type TContext } from '@rooms/api';
import {
  type AnyTRPCProcedure,
  callTRPCProcedure,
  getTRPCErrorFromUnknown,
  getTRPCErrorShape,
  TRPCError,
  transformTRPCResponse,
} from '@trpc/server';
import { type FastifyHandlerOptions, fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import { getHTTPStatusCode } from '@trpc/server/http';
import type { TRPCResponse } from '@trpc/server/rpc';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRequestContext } from '../context';

type TTrpcOptions = FastifyHandlerOptions<AppRouter, FastifyRequest, FastifyReply>;

/** Failures worth a log line: ours (500) and those of services we depend on (502, 503). */
function reportFailure(app: FastifyInstance, error: TRPCError, path: string | undefined): void {
  const { status } = describeError(error);
  if (status === 500) app.log.error({ err: error, path }, 'tRPC procedure failed');
  else if (status > 500) app.log.warn({ err: error, path }, 'tRPC procedure: upstream failure');
}

/** The official adapter's options; the direct handler behaves as they say (the tests compare the two). */
export function trpcOptionsFor(app: FastifyInstance) {
  return {
    router: appRouter,
    // Queries may come as POST: the web app sends those carrying a share password that way, out of URLs.
    allowMethodOverride: true,
    createContext: ({ req }) => createRequestContext(app, req),
    onError: ({ error, path }) => reportFailure(app, error, path),
  } satisfies TTrpcOptions;
}

const config = appRouter._def._config;
const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;
/** A Host header `new URL` takes (the official adapter builds one from it and refuses the call when it fails). */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;

/**
 * The procedure and its input when the call is one the direct handler answers exactly as the official adapter
 * would; undefined otherwise. Input is parsed here, before anything runs, so that a malformed one can still go to
 * the adapter, which words that refusal.
 */
function directCall(request: FastifyRequest, path: string) {
  const method = request.method;
  if (method !== 'GET' && method !== 'POST') return undefined;
  if (path.includes('%') || !Object.hasOwn(procedures, path)) return undefined;
  const procedure = procedures[path];
  const type = procedure?._def.type;
  if (type !== 'query' && (type !== 'mutation' || method !== 'POST')) return undefined;
  const headers = request.headers;
  if (headers['trpc-accept'] !== undefined || headers.accept?.includes('application/jsonl')) return undefined;
  if (headers.host !== undefined && !PLAIN_HOST.test(headers.host)) return undefined;
  const contentType = headers['content-type'];
  if (contentType !== undefined && !contentType.startsWith('application/json')) return undefined;
  const url = request.raw.url ?? '';
  if (url.includes('#')) return undefined;
  const queryAt = url.indexOf('?');
  const search = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
  if (search.get('batch') === '1' || search.has('connectionParams')) return undefined;
  let serialized: unknown;
  try {
    if (method === 'GET') {
      const query = search.get('input');
      serialized = query ? JSON.parse(query) : undefined;
    } else {
      if (contentType === undefined || typeof request.body !== 'string') return undefined;
      if (request.body.charCodeAt(0) === 0xfeff) return undefined;
      serialized = JSON.parse(request.body);
    }
    const input = serialized === undefined ? undefined : config.transformer.input.deserialize(serialized);
    return { procedure, type, input };
  } catch {
    return undefined;
  }
}

/** Non-streaming answers may not carry promises or iterables (tRPC refuses them the same way). */
function isDataStream(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const streamy = (item: unknown) =>
    !!item &&
    typeof item === 'object' &&
    (Symbol.asyncIterator in item || typeof (item as { then?: unknown }).then === 'function');
  return streamy(value) || Object.values(value).some(streamy);
}

export const trpcPlugin = fp(
  async (app) => {
    const officialOptions: TTrpcOptions = trpcOptionsFor(app);

    // Encapsulated, as the official plugin is: the raw JSON text reaches the handler, which parses it itself.
    await app.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
        done(null, body);
      });
      scope.removeContentTypeParser('multipart/form-data');
      scope.addContentTypeParser('multipart/form-data', {}, (_request, body, done) => {
        done(null, body);
      });

      scope.all<{ Params: { path: string } }>('/trpc/:path', async (request, reply) => {
        const path = request.params.path;
        const call = directCall(request, path);
        if (!call) {
          await fastifyRequestHandler({ ...officialOptions, req: request, res: reply, path });
          return reply;
        }
        // From here on as tRPC's resolveResponse answers a single query or mutation, minus the Request and
        // Response objects: same status, same body (superjson and the error formatter included), same headers.
        let ctx: TContext | undefined;
        let inputRead = false;
        const failure = (cause: unknown, path: string | undefined, input: unknown): TRPCResponse => {
          const error = getTRPCErrorFromUnknown(cause);
          reportFailure(app, error, path);
          return { error: getTRPCErrorShape({ config, ctx, error, input, path, type: call.type }) };
        };
        let response: TRPCResponse;
        try {
          ctx = await createRequestContext(app, request);
          const data = await callTRPCProcedure({
            router: appRouter,
            path,
            type: call.type,
            allowMethodOverride: true,
            getRawInput: async () => {
              inputRead = true;
              return call.input;
            },
            ctx,
            signal: undefined,
            batchIndex: 0,
          });
          response = isDataStream(data)
            ? // tRPC words this refusal as a failure of the whole request: no path, no input.
              failure(
                new TRPCError({
                  code: 'UNSUPPORTED_MEDIA_TYPE',
                  message:
                    'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink',
                }),
                undefined,
                undefined,
              )
            : { result: { data } };
        } catch (cause) {
          response = failure(cause, path, inputRead ? call.input : undefined);
        }
        return (
          reply
            .code(getHTTPStatusCode([response]))
            .header('vary', 'trpc-accept, accept')
            .header('content-type', 'application/json')
            // A buffer, since Fastify would add a charset to a string's content type, which tRPC's answers lack.
            .send(Buffer.from(JSON.stringify(transformTRPCResponse(config, response))))
        );
      });
    });
  },
  { name: 'trpc', dependencies: ['services'] },
);
