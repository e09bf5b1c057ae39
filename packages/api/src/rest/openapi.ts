// The OpenAPI 3.1 document of the REST layer, generated from the route table and the procedures' own schemas.
import { type ZodType, z } from 'zod';
import { appRouter } from '../root';
import { publicRoomThumbnailPath } from '../routers/room/share.types';
import type { TMeta } from '../trpc';
import { restRoutes } from './route-table';

type TJsonSchema = Record<string, unknown>;

interface TProcedureDef {
  inputs: ZodType[];
  output?: ZodType;
  meta?: TMeta;
}

function procedureDef(path: string): TProcedureDef {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: TProcedureDef }>;
  const procedure = procedures[path];
  if (!procedure) throw new Error(`REST route table names an unknown procedure: ${path}`);
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
  description: 'Failure: `msg` is not `success` and `data` is a text meant for people.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['msg', 'data'],
        properties: { msg: { type: 'string', const: 'error' }, data: { type: 'string' } },
      },
    },
  },
};

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
        400: errorEnvelope,
        ...(route.auth
          ? { 401: { ...errorEnvelope, description: 'Missing, unknown or expired token.' } }
          : {}),
        429: { ...errorEnvelope, description: 'Too many attempts; the text says how long to wait.' },
      },
    };
    if (route.method === 'GET') {
      operation.parameters = Object.entries(properties).map(([name, schema]) => ({
        name,
        in: 'query',
        required: required.includes(name),
        schema,
        description: schema.description,
      }));
    } else {
      operation.requestBody = { required: true, content: { 'application/json': { schema: input } } };
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
        404: { ...errorEnvelope, description: 'No such public room, or it is not running.' },
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
        'POST /api/captcha/verify, and pass the returned fields along.',
    },
    servers: [{ url: options.serverUrl }],
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    },
    paths,
  };
}
