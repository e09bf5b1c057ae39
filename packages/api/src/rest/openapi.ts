// The OpenAPI 3.1 document of the REST layer, generated from the procedures themselves: the path, method and
// refusals their meta declares (route-table.ts), their summary, and their input and output schemas.
import { type ZodType, z } from 'zod';
import { errorSpec, type TAppErrorCode } from '../errors';
import { appRouter } from '../root';
import { publicRoomThumbnailPath } from '../routers/room/share.types';
import type { TMeta } from '../trpc';
import { restRoutes, type TRestRoute } from './route-table';

type TJsonSchema = Record<string, unknown>;

interface TProcedureDef {
  inputs: ZodType[];
  output?: ZodType;
  meta?: TMeta;
}

function procedureDef(path: string): TProcedureDef {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: TProcedureDef }>;
  const procedure = procedures[path];
  if (!procedure) throw new Error(`No procedure at ${path}`);
  return procedure._def;
}

function toJsonSchema(schema: ZodType, io: 'input' | 'output'): TJsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      // Dates travel as ISO 8601 strings in JSON.
      if ((zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type === 'date') {
        jsonSchema.type = 'string';
        jsonSchema.format = 'date-time';
      }
    },
  }) as TJsonSchema;
  delete json.$schema;
  return json;
}

/** Unwraps `.optional()` so an optional empty object still lists no parameters. */
function objectProperties(schema: TJsonSchema): {
  properties: Record<string, TJsonSchema>;
  required: string[];
} {
  const variants = (schema.anyOf as TJsonSchema[] | undefined) ?? [schema];
  const object = variants.find((variant) => variant.type === 'object') ?? {};
  return {
    properties: (object.properties as Record<string, TJsonSchema> | undefined) ?? {},
    required: (object.required as string[] | undefined) ?? [],
  };
}

const errorEnvelope = {
  'application/json': {
    schema: {
      type: 'object',
      required: ['msg', 'data'],
      properties: { msg: { type: 'string', const: 'error' }, data: { type: 'string' } },
    },
  },
};

/** What each failure status means for a caller, before the texts of the route's own refusals. */
const statusMeanings: Record<number, string> = {
  400: 'The request is refused as sent: `data` says what to correct.',
  401: 'Missing, unknown or expired token.',
  402: 'The balance does not cover it: recharge first.',
  403: 'Not allowed for this caller, or beyond what their plan allows.',
  404: 'Not found.',
  405: 'The path does not take this method; the `Allow` header names the one it takes.',
  409: 'In conflict with what exists already.',
  413: 'The body is larger than 1 MiB.',
  415: 'The body is of a type the server does not read: send JSON (`Content-Type: application/json`).',
  429: 'Too many attempts; the text says how long to wait.',
  500: 'A fault of the server; it is logged.',
  502: 'A service the server depends on (mail, payments) did not answer; try again later.',
  503: 'Unavailable for a moment; nothing was done and trying again is safe.',
};

/** The texts `data` may hold for a status: one catalogue entry each (`{0}`, `{1}` stand for what is filled in). */
function failure(status: number, texts: readonly string[]) {
  const listed = [...new Set(texts)].map((text) => `- ${text}`).join('\n');
  return {
    description: listed ? `${statusMeanings[status] ?? 'Refused.'}\n\n${listed}` : statusMeanings[status],
    content: errorEnvelope,
  };
}

/**
 * Every status a route may answer with (a test holds the server to it, rest-openapi.integration.test.ts): what
 * any call may meet (input, method, the server's own fault, the database away), the session for `auth` routes,
 * the missing path anyone but an administrator meets on admin routes, the body's limits on POST, and the route's
 * own refusals.
 */
function failureResponses(route: TRestRoute): Record<number, ReturnType<typeof failure>> {
  const texts = new Map<number, string[]>();
  const add = (status: number, text?: string) => {
    const list = texts.get(status) ?? [];
    if (text) list.push(text);
    texts.set(status, list);
  };
  const addCode = (code: TAppErrorCode) => add(errorSpec(code).status, errorSpec(code).message);
  add(400, errorSpec('TEXT_CONTROL_CHARACTERS').message);
  if (route.auth) addCode('NOT_LOGGED_IN');
  if (route.tag === 'Admin') addCode('NOT_FOUND');
  addCode('METHOD_NOT_ALLOWED');
  if (route.method === 'POST') {
    add(413);
    add(415);
  }
  for (const code of route.errors) addCode(code);
  addCode('INTERNAL');
  addCode('SERVICE_UNAVAILABLE');
  return Object.fromEntries(
    [...texts]
      .sort(([left], [right]) => left - right)
      .map(([status, list]) => [status, failure(status, list)]),
  );
}

export function buildOpenApiDocument(options: { serverUrl: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of restRoutes) {
    const def = procedureDef(route.procedure);
    const input = def.inputs[0] ? toJsonSchema(def.inputs[0], 'input') : { type: 'object' };
    const output = def.output ? toJsonSchema(def.output, 'output') : {};
    const { properties, required } = objectProperties(input);

    const operation: Record<string, unknown> = {
      operationId: route.procedure.replace('.', '_'),
      tags: [route.tag],
      summary: def.meta?.summary,
      security: route.auth ? [{ token: [] }] : [],
      responses: {
        200: {
          description: 'Success',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['msg', 'data'],
                properties: { msg: { type: 'string', const: 'success' }, data: output },
              },
            },
          },
        },
        ...failureResponses(route),
      },
    };
    const parameters = Object.entries(properties).map(([name, schema]) => ({
      name,
      in: 'query',
      // A POST's fields may come in the query or the body, so none is required in either one alone.
      required: route.method === 'GET' && required.includes(name),
      schema,
      description: schema.description,
    }));
    if (route.method === 'GET') {
      operation.parameters = parameters;
    } else {
      if (route.queryParameters) operation.parameters = parameters;
      operation.requestBody = {
        required: !route.queryParameters,
        content: { 'application/json': { schema: input } },
      };
    }
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }

  // Served beside the procedures (it answers a picture, not the envelope), documented with them.
  paths[publicRoomThumbnailPath('').split('?')[0] as string] = {
    get: {
      operationId: 'room_getPublicRoomThumbnail',
      tags: ['Room'],
      summary:
        'A running public room’s thumbnail for the square: a JPEG at most 320 pixels wide, taken at most every few seconds.',
      security: [],
      parameters: [{ name: 'id', in: 'query', required: true, schema: { type: 'string' } }],
      responses: {
        200: {
          description: 'The still',
          content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
        },
        404: { content: errorEnvelope, description: 'No such public room, or it is not running.' },
        405: failure(405, [errorSpec('METHOD_NOT_ALLOWED').message]),
        500: failure(500, [errorSpec('INTERNAL').message]),
        503: failure(503, [errorSpec('SERVICE_UNAVAILABLE').message]),
      },
    },
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Cloud-browser rooms REST API',
      version: options.version,
      description:
        'Every reply is `{ "msg": "success", "data": … }` on success; on failure `msg` is not `success` and ' +
        '`data` is the error text. Send the session token raw in the `Authorization` header. Calls marked with ' +
        'a captcha need the five captcha fields: solve GET /api/captcha/challenge, redeem it at ' +
        'POST /api/captcha/verify, and pass the returned fields along. Each operation lists every status it ' +
        'answers with and the texts `data` may then hold. A POST takes a JSON body; those that show query ' +
        'parameters take their fields in the query string as well.',
    },
    servers: [{ url: options.serverUrl }],
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    },
    paths,
  };
}
