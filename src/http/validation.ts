import type { FastifySchemaCompiler } from 'fastify';
import { Ajv, type AnySchema, type Options } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Request validation with two Ajv instances. Query strings, params and headers arrive as text,
 * so they are coerced (`?limit=10` is a number, `?types=a` an array of one). JSON bodies carry
 * their own types and are never coerced: `{"domains":"x"}` is an error, not a list of one.
 * Fastify calls the factory with the schemas shared through `app.addSchema`.
 */
export function buildValidator(externalSchemas?: Record<string, unknown>): FastifySchemaCompiler<unknown> {
  const shared = Object.values(externalSchemas ?? {}) as AnySchema[];
  const text = create({ coerceTypes: 'array' }, shared);
  const json = create({ coerceTypes: false }, shared);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? json : text;
    const id = (schema as { $id?: string }).$id;
    return (id ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema as AnySchema);
  };
}

function create(options: Options, shared: AnySchema[]): Ajv {
  // allErrors stays off: reporting every error of a hostile body is a denial-of-service lever.
  const ajv = new Ajv({ ...options, useDefaults: true, removeAdditional: false, allErrors: false, addUsedSchema: false });
  addFormats.default(ajv);
  for (const schema of shared) ajv.addSchema(schema);
  return ajv;
}
