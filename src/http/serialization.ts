import { SerializerSelector, type SerializerCompiler, type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';

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
  if (!compiler) serializers.set(key, (compiler = oncePerSchema(fastJsonStringify(externalSchemas, options))));
  return compiler;
};

const fastJsonStringify = SerializerSelector();
const serializers = new Map<string, SerializerCompiler>();

/** What fast-json-stringify makes depends on the schema's text alone, so schemas of the same text share it. */
function oncePerSchema(compile: SerializerCompiler): SerializerCompiler {
  const compiled = new Map<string, Serializer>();
  return (route) => {
    const key = JSON.stringify(route.schema);
    let serializer = compiled.get(key);
    if (!serializer) compiled.set(key, (serializer = compile(route)));
    return serializer;
  };
}
