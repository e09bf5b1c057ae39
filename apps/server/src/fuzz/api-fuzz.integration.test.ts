// Generated bad (and good) input over every REST path of the OpenAPI document and every tRPC procedure, as an
// anonymous caller, a user and an administrator: no answer may be a 5xx, and every refusal carries a text a
// person can read. tRPC inputs go in superjson's plain `{ json }` envelope, so odd keys reach the server too.
// The seed is fixed and printed; FUZZ_SEED changes it, FUZZ_RUNS scales the run (`npm run fuzz` runs a long one).
import { appRouter, buildOpenApiDocument } from '@rooms/api';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAdmin } from '../testing/admin-accounts';
import { createOwner } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';
import { asQuery, fuzzValue, type TJsonSchema } from './schema-arbitrary';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
/** Requests per endpoint; with ~150 endpoints the default sends 10,000 requests. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 80);

let server: TTestServer;
let callers: (string | null)[];

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  const [user, other, admin] = await Promise.all([
    createOwner(server.app, { plan: 'pro' }),
    createOwner(server.app),
    createAdmin(server.app),
  ]);
  callers = [null, user.token, other.token, admin.token];
}, 60_000);

afterAll(async () => {
  await server?.close();
});

interface TAnswer {
  status: number;
  text: string | undefined;
}

/** The failures seen, by endpoint: the test lists them all at once. */
const failures: string[] = [];
let sent = 0;

function judge(endpoint: string, input: unknown, answer: TAnswer): void {
  sent += 1;
  const problem =
    answer.status >= 500
      ? `answered ${answer.status}`
      : answer.status >= 400 && !readable(answer.text)
        ? `refused (${answer.status}) without a readable text: ${JSON.stringify(answer.text)?.slice(0, 120)}`
        : null;
  if (problem && failures.length < 50) {
    failures.push(`${endpoint} ${problem} for ${JSON.stringify(input)?.slice(0, 200)}`);
  }
}

/** A sentence, not a stack trace, an object dump or an empty string. */
function readable(text: string | undefined): boolean {
  return (
    typeof text === 'string' &&
    text.trim().length > 0 &&
    text.length <= 500 &&
    !/\n\s+at\s/.test(text) &&
    !text.includes('[object Object]') &&
    // The validation library's own wording ("Invalid input: expected string, received undefined") says nothing
    // of which field; ../../../packages/api/src/schemas/readable-issues.ts names it.
    !/^(Invalid input|Too (big|small):|Invalid option|Unrecognized key)/.test(text)
  );
}

async function callRest(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  path: string,
  input: unknown,
  token: string | null,
): Promise<TAnswer> {
  const response = await app.inject({
    method,
    url: path,
    headers: token ? { authorization: token } : {},
    remoteAddress: `10.9.${sent % 250}.${(sent >> 8) % 250}`,
    ...(method === 'GET' ? { query: asQuery(input) } : { payload: JSON.stringify(input ?? null) }),
    ...(method === 'POST'
      ? { headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) } }
      : {}),
  });
  if (response.headers['content-type']?.toString().startsWith('image/'))
    return { status: response.statusCode, text: 'image' };
  const body = safeJson(response.body) as { data?: unknown } | undefined;
  return {
    status: response.statusCode,
    text: typeof body?.data === 'string' ? body.data : response.statusCode < 400 ? 'ok' : undefined,
  };
}

async function callTrpc(
  app: FastifyInstance,
  path: string,
  type: string,
  input: unknown,
  token: string | null,
): Promise<TAnswer> {
  const serialized = encodeURIComponent(JSON.stringify({ json: input }));
  const headers = { ...(token ? { authorization: token } : {}), 'content-type': 'application/json' };
  const remoteAddress = `10.8.${sent % 250}.${(sent >> 8) % 250}`;
  const response =
    type === 'query'
      ? await app.inject({ method: 'GET', url: `/trpc/${path}?input=${serialized}`, headers, remoteAddress })
      : await app.inject({
          method: 'POST',
          url: `/trpc/${path}`,
          headers,
          remoteAddress,
          payload: JSON.stringify({ json: input }),
        });
  const body = safeJson(response.body) as { error?: { json?: { message?: unknown } } } | undefined;
  const message = body?.error?.json?.message;
  return {
    status: response.statusCode,
    text: typeof message === 'string' ? message : response.statusCode < 400 ? 'ok' : undefined,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type TOperation = {
  parameters?: { name: string; schema: TJsonSchema; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: TJsonSchema }> };
};

function restEndpoints() {
  const document = buildOpenApiDocument({ serverUrl: 'http://localhost', version: 'fuzz' }) as {
    paths: Record<string, Record<string, TOperation>>;
  };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const schema: TJsonSchema =
        method === 'get'
          ? {
              type: 'object',
              properties: Object.fromEntries(
                (operation.parameters ?? []).map((parameter) => [parameter.name, parameter.schema]),
              ),
              required: (operation.parameters ?? [])
                .filter((parameter) => parameter.required)
                .map((parameter) => parameter.name),
            }
          : (operation.requestBody?.content['application/json']?.schema ?? {});
      return { method: method.toUpperCase() as 'GET' | 'POST', path, schema };
    }),
  );
}

function trpcProcedures() {
  const procedures = appRouter._def.procedures as unknown as Record<
    string,
    { _def: { type: string; inputs: z.ZodType[] } }
  >;
  return Object.entries(procedures).map(([path, procedure]) => {
    const input = procedure._def.inputs[0];
    const schema = input
      ? (z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as TJsonSchema)
      : ({} as TJsonSchema);
    return { path, type: procedure._def.type, schema };
  });
}

describe('generated input', () => {
  it('never gets a 5xx from a REST path or a tRPC procedure, and every refusal reads as a sentence', async () => {
    const started = performance.now();
    const app = server.app;
    for (const endpoint of restEndpoints()) {
      await fc.assert(
        fc.asyncProperty(fuzzValue(endpoint.schema), fc.nat(callers.length - 1), async (input, who) => {
          judge(
            `${endpoint.method} ${endpoint.path}`,
            input,
            await callRest(app, endpoint.method, endpoint.path, input, callers[who] ?? null),
          );
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
    for (const procedure of trpcProcedures()) {
      await fc.assert(
        fc.asyncProperty(fuzzValue(procedure.schema), fc.nat(callers.length - 1), async (input, who) => {
          judge(
            `trpc ${procedure.path}`,
            input,
            await callTrpc(app, procedure.path, procedure.type, input, callers[who] ?? null),
          );
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
    // Still serving: a plain call answers as before.
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    console.log(
      `[fuzz] seed ${SEED}: ${sent} requests over ${restEndpoints().length} REST paths and ${trpcProcedures().length} procedures in ${Math.round(performance.now() - started)} ms; ${failures.length} failures`,
    );
    expect(failures).toEqual([]);
  }, 600_000);
});
