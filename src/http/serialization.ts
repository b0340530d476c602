import {
  SerializerSelector,
  type SerializerCompiler,
  type SerializerFactory,
  type Serializer,
} from '@fastify/fast-json-stringify-compiler';

/**
 * Response serialization as Fastify's default does it (fast-json-stringify), each serializer
 * compiled once per schema. Fastify compiles one for every route and status code, some 275 as
 * the app starts, from about 50 different schemas (most routes share the error body and a few
 * pages): compiling each once saves most of a second of every start. Pooled by the shared
 * schemas, as the validators are (see validation.ts).
 */
export const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const key = JSON.stringify([externalSchemas ?? {}, options ?? {}]);
  let compiler = serializers.get(key);
  if (!compiler) {
    const shared = (externalSchemas ?? {}) as Record<string, unknown>;
    const rewrite = (schema: unknown) => nullableUnions(schema, (ref) => typeOf(shared[ref.replace(/#$/, '')]));
    const rewritten = Object.fromEntries(Object.entries(shared).map(([id, schema]) => [id, rewrite(schema)]));
    serializers.set(
      key,
      (compiler = oncePerSchema(
        fastJsonStringify(externalSchemas && (rewritten as typeof externalSchemas), options),
        rewrite,
      )),
    );
  }
  return compiler;
};

const fastJsonStringify = SerializerSelector();
const serializers = new Map<string, SerializerCompiler>();

/** What fast-json-stringify makes depends on the schema's text alone, so schemas of the same text share it. */
function oncePerSchema(compile: SerializerCompiler, rewrite: (schema: unknown) => unknown): SerializerCompiler {
  const compiled = new Map<string, Serializer>();
  return (route) => {
    const key = JSON.stringify(route.schema);
    let serializer = compiled.get(key);
    if (!serializer) compiled.set(key, (serializer = compile({ ...route, schema: rewrite(route.schema) })));
    return serializer;
  };
}

/**
 * fast-json-stringify writes a union (`anyOf`) by validating the value against each member in
 * turn and throws when none matches, so one value with a field its schema does not list (a
 * crawled contact with more than `name` and `email`) failed a whole bulk answer with a 500, where
 * the same value alone is written with the unlisted field left out. The usual union, "X or null",
 * is written instead as X marked `nullable` (the serializer's own keyword): null is written as
 * null and anything else as X, with no validation. `nullable` needs a `type` beside it (the
 * serializer compiles its schema with Ajv too), so a member that is a `$ref` is rewritten only when
 * `refType` knows the type of the schema it names. Applied to the schemas serializers are
 * compiled from only; the OpenAPI document keeps the union.
 */
export function nullableUnions(schema: unknown, refType: (ref: string) => unknown = () => undefined): unknown {
  if (Array.isArray(schema)) return schema.map((item) => nullableUnions(item, refType));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = nullableUnions(value, refType);
  const members = out['anyOf'];
  if (!Array.isArray(members) || members.length !== 2) return out;
  const nullAt = members.findIndex(isNullSchema);
  const other = members[1 - nullAt] as Record<string, unknown> | undefined;
  if (nullAt < 0 || !other || typeof other !== 'object' || isNullSchema(other) || 'anyOf' in other || 'oneOf' in other)
    return out;
  const type = other['type'] ?? (typeof other['$ref'] === 'string' ? refType(other['$ref']) : undefined);
  if (typeof type !== 'string' || type === 'null') return out;
  const { anyOf: _union, ...siblings } = out;
  return { ...siblings, ...other, type, nullable: true };
}

function isNullSchema(schema: unknown): boolean {
  return (
    !!schema &&
    typeof schema === 'object' &&
    (schema as { type?: unknown }).type === 'null' &&
    Object.keys(schema).every((k) => k === 'type' || k === 'description')
  );
}

function typeOf(schema: unknown): unknown {
  return schema && typeof schema === 'object' ? (schema as { type?: unknown }).type : undefined;
}
