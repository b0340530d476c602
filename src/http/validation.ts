import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { Ajv, type AnySchema, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ApError } from '../protocol/errors.ts';
import { jsonFault } from '../protocol/json-faults.ts';
import { dottedField, pointerChild } from '../protocol/json-path.ts';

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
    const validate = (id ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema as AnySchema);
    return httpPart === 'body' ? validate : finiteOnly(validate);
  };
}

/**
 * Ajv refuses ±Infinity and NaN where JSON carries them (`strictNumbers`), but its coercion of
 * text does not: `?limit=Infinity` or `1e999` becomes an "integer" Infinity that no route can
 * page by. One rule for every query string, path parameter and header: a number coerced from text
 * is finite, checked after coercion so it holds whatever bounds a route's schema declares.
 */
function finiteOnly(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown, context?: never) => {
    if (!validate(data, context)) {
      checked.errors = validate.errors;
      return false;
    }
    const at = nonFiniteAt(data);
    if (at === undefined) return true;
    checked.errors = [
      {
        instancePath: at,
        schemaPath: '#/type',
        keyword: 'type',
        params: { type: 'number' },
        message: 'must be a finite number',
      } satisfies ErrorObject,
    ];
    return false;
  }) as ValidateFunction;
  // Fastify hands Ajv the request as the parent only of validators that carry their schema's env.
  return Object.assign(checked, { schema: validate.schema, schemaEnv: validate.schemaEnv });
}

/** The JSON Pointer of the first non-finite number in a query, params or headers object (one level, or one array deep). */
function nonFiniteAt(data: unknown): string | undefined {
  if (!data || typeof data !== 'object') return undefined;
  for (const [key, value] of Object.entries(data)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) if (typeof item === 'number' && !Number.isFinite(item)) return pointerChild('', key);
  }
  return undefined;
}

function create(options: Options, shared: AnySchema[]): Ajv {
  // allErrors stays off: reporting every error of a hostile body is a denial-of-service lever.
  const ajv = new Ajv({
    ...options,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    addUsedSchema: false,
  });
  addFormats.default(ajv);
  for (const schema of shared) ajv.addSchema(schema);
  return ajv;
}

/**
 * No text we store may hold U+0000 or a lone UTF-16 surrogate (`protocol/json-faults.ts`). One
 * hook refuses both in the query string, path parameters and parsed body of every route before
 * validation (the OAuth provider's own routes, handed over before it, check in their storage
 * adapter), as `validation_failed` naming the field, so nothing is written and no route has to
 * think of it.
 */
export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    // Bodies of routes whose protocol checks them itself (`checksOwnText`) are left to it.
    // The query string and path parameters are decoded from the URL, which can carry U+0000 only
    // as `%00` (the HTTP parser refuses a raw one) and no lone surrogate at all (an escape that is
    // not UTF-8 is not decoded into one): without a `%00` only the body needs walking, which keeps
    // the per-impression lookups, whose URLs are full of escapes, free of the walk.
    const escaped = request.url.includes('%00');
    const body = request.routeOptions.config.checksOwnText ? undefined : textRefusal('body', request.body);
    done(
      (escaped ? (textRefusal('querystring', request.query) ?? textRefusal('params', request.params)) : undefined) ??
        body,
    );
  });
}

/** The refusal of a request part holding text no part of the system can hold (see refuseUnstorableText). */
export function textRefusal(part: 'querystring' | 'params' | 'body', value: unknown): ApError | undefined {
  const found = jsonFault(value);
  if (!found) return undefined;
  const field = dottedField(found.path);
  const where = field ? `${part}.${field}` : part;
  return new ApError('validation_failed', `Invalid ${where}: ${found.problem}.`, {
    details: [{ in: part, field, message: found.problem }],
  });
}
