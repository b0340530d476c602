import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { Ajv, type AnySchema, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { ApError } from '../protocol/errors.ts';

/**
 * Request validation with two Ajv instances. Query strings, params and headers arrive as text,
 * so they are coerced (`?limit=10` is a number, `?types=a` an array of one). JSON bodies carry
 * their own types and are never coerced: `{"domains":"x"}` is an error, not a list of one.
 * Fastify calls the factory with the schemas shared through `app.addSchema`.
 */
export function buildValidator(externalSchemas?: Record<string, unknown>): FastifySchemaCompiler<unknown> {
  // Fastify asks once per encapsulation context, some fifty times as an app starts, nearly always
  // with the same shared schemas; each new pair of Ajv instances would compile the meta-schema and
  // check every shared schema again (seconds of start-up in all). Keyed by their text, as Fastify's
  // own Ajv compiler pools them.
  const key = JSON.stringify(externalSchemas ?? {});
  let compiler = validators.get(key);
  if (!compiler) validators.set(key, (compiler = newValidator(externalSchemas)));
  return compiler;
}

const validators = new Map<string, FastifySchemaCompiler<unknown>>();

function newValidator(externalSchemas?: Record<string, unknown>): FastifySchemaCompiler<unknown> {
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

/**
 * No text we store may hold U+0000: PostgreSQL refuses it in `text` and `jsonb` on both engines,
 * so it would surface as a 500 halfway through a write. One hook refuses it in the query string,
 * path parameters and parsed body of every route before validation (the OAuth provider's own
 * routes, handed over before it, check in their storage adapter), as `validation_failed`
 * naming the field, so nothing is written and no route has to think of it.
 */
export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    // The query string and path parameters are decoded from the URL, which can carry U+0000 only
    // escaped (the HTTP parser refuses a raw one): without a `%00` only the body needs walking.
    const escaped = request.url.includes('%00');
    done((escaped ? (nulRefusal('querystring', request.query) ?? nulRefusal('params', request.params)) : undefined) ?? nulRefusal('body', request.body));
  });
}

function nulRefusal(part: 'querystring' | 'params' | 'body', value: unknown): ApError | undefined {
  const field = nulField(value);
  if (field === undefined) return undefined;
  const where = field ? `${part}.${field}` : part;
  return new ApError('validation_failed', `Invalid ${where}: must not contain the NUL character (U+0000).`, {
    details: [{ in: part, field, message: 'must not contain the NUL character (U+0000)' }],
  });
}

/** The dotted path of the first string or key holding U+0000, or undefined. Iterative: bodies may nest deeply. */
export function nulField(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path;
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return at;
        stack.push([child, at]);
      }
    }
  }
  return undefined;
}
