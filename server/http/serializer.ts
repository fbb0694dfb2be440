/**
 * Response serialization. Each route's zod response schema is turned once into a JSON
 * Schema and compiled by fast-json-stringify into a function that writes exactly the
 * declared properties (anything else on the object is left out, as zod's parse would
 * strip it) without validating the whole answer again on every request, which cost more
 * than the database work of a typical read.
 *
 * With `verify` (the test suite turns it on), every answer is also parsed by its zod
 * schema and must serialize to the same text, so a handler that returns the wrong shape,
 * or a schema the compiler reads differently, fails the tests instead of reaching users.
 */
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * fast-json-stringify picks an `anyOf` branch by validating the value against each one, on
 * every call. The unions of these schemas are all "X or null" and "string or number", which
 * it writes directly when they are spelled as a list of types instead.
 */
function simplify(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplify);
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === 'minimum' || key === 'maximum') continue;
    out[key] = simplify(value);
  }
  const branches = out.anyOf;
  if (!Array.isArray(branches) || !branches.every(isObject)) return out;
  const typeOnly = (b: JsonSchema) => Object.keys(b).length === 1 && typeof b.type === 'string';
  const rest = branches.filter((b) => !(typeOnly(b) && b.type === 'null'));
  const nullable = rest.length < branches.length;
  if (branches.every(typeOnly)) {
    delete out.anyOf;
    return { ...out, type: branches.map((b) => b.type) };
  }
  if (rest.length === 1 && nullable && typeof rest[0]!.type === 'string') {
    delete out.anyOf;
    const only = rest[0]!;
    // A nullable enum: null must be one of its values too, or a branch check refuses it.
    const values = Array.isArray(only.enum) ? { enum: [...only.enum, null] } : {};
    return { ...out, ...only, type: [only.type, 'null'], ...values };
  }
  return out;
}

export function responseJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any', reused: 'inline' });
  return simplify(json) as JsonSchema;
}

export function serializerCompiler(options: { verify: boolean }): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) => {
    const stringify = fastJson(responseJsonSchema(schema));
    if (!options.verify) return (data: unknown) => stringify(data);
    return (data: unknown) => {
      const parsed = schema.safeParse(data);
      if (!parsed.success) {
        throw new Error(`The response of ${method} ${url} does not match its schema: ${parsed.error.message}`);
      }
      const text = stringify(data);
      const expected = JSON.stringify(parsed.data);
      if (text !== expected) {
        throw new Error(`The response of ${method} ${url} serializes as ${text}, its schema says ${expected}`);
      }
      return text;
    };
  };
}
