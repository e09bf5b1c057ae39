// fast-check arbitraries from JSON Schemas (the OpenAPI document's, and z.toJSONSchema of the room protocol):
// values that follow the schema, and values that break it on purpose (wrong types, missing or extra fields,
// edge strings, huge sizes), so a fuzzer reaches both the procedures and their validation.
import fc from 'fast-check';

export type TJsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  items?: TJsonSchema;
  anyOf?: TJsonSchema[];
  oneOf?: TJsonSchema[];
  allOf?: TJsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
};

/** Strings people and scripts really send: empty, spaces, controls, bidi and emoji, SQL and markup, huge. */
const edgeString = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\u202e\u200b',
  '😀'.repeat(40),
  "' or 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  'a'.repeat(10_000),
  '00000000-0000-0000-0000-000000000000',
  'NaN',
  '-1',
  '1e309',
);

const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 40 }),
  edgeString,
  fc.array(fc.integer(), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
);

function stringOf(schema: TJsonSchema): fc.Arbitrary<string> {
  const maxLength = Math.min(schema.maxLength ?? 64, 256);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time')
    return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

function numberOf(schema: TJsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1_000_000;
  const max = schema.maximum ?? 1_000_000;
  return integer
    ? fc.integer({ min: Math.ceil(Math.max(min, -(2 ** 31))), max: Math.floor(Math.min(max, 2 ** 31)) })
    : fc.double({ min, max, noNaN: true });
}

/** A value that follows the schema (as far as a JSON Schema says; refinements may still refuse it). */
export function valid(schema: TJsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return anyJson;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((variant) => valid(variant, depth + 1)));
  if (schema.allOf?.length) return valid(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valid(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 8),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) shape[name] = valid(property, depth + 1);
      const requiredKeys = Object.keys(shape).filter((name) => required.has(name));
      return fc.record(shape, { requiredKeys });
    }
    default:
      return anyJson;
  }
}

/** A value that breaks the schema somewhere: a field of the wrong type, missing, extra, or an edge string. */
export function broken(schema: TJsonSchema | undefined): fc.Arbitrary<unknown> {
  const properties = Object.keys(schema?.properties ?? {});
  const base = valid(schema);
  const variants: fc.Arbitrary<unknown>[] = [anyJson, edgeString];
  if (properties.length > 0) {
    const field = fc.constantFrom(...properties);
    variants.push(
      fc.tuple(base, field, anyJson).map(([value, name, wrong]) => ({ ...asObject(value), [name]: wrong })),
      fc
        .tuple(base, field, edgeString)
        .map(([value, name, wrong]) => ({ ...asObject(value), [name]: wrong })),
      fc.tuple(base, field).map(([value, name]) => {
        const copy = { ...asObject(value) };
        delete copy[name];
        return copy;
      }),
      fc
        .tuple(base, fc.string({ minLength: 1, maxLength: 12 }), anyJson)
        .map(([value, name, extra]) => ({ ...asObject(value), [name]: extra })),
    );
  }
  return fc.oneof(...variants);
}

/** Mostly valid, often broken: both halves of an endpoint get exercised. */
export function fuzzValue(schema: TJsonSchema | undefined): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: valid(schema), weight: 2 }, { arbitrary: broken(schema), weight: 3 });
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** A query string's values are strings: objects are flattened to their JSON, the rest to their text. */
export function asQuery(value: unknown): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, field] of Object.entries(asObject(value))) {
    if (field === undefined) continue;
    query[name] = typeof field === 'string' ? field : JSON.stringify(field);
  }
  return query;
}
