import type { RouteEntry } from '../../http/route-table.ts';
import { pointerValue } from '../../protocol/json-path.ts';
import { isRecord as isObject, type JsonObject } from '../../protocol/json-values.ts';

/** What MCP's tools/list needs of an input schema: an object schema that stands alone. */
export type ToolInputSchema = JsonObject & { type: 'object' };

/**
 * A tool's input schema from its route's: the path parameters and the query string (or the JSON
 * body) as one object, shared schemas (`$ref` by `$id`) written out in place, since a client reads
 * a tool's schema alone. `resolve` finds a shared schema by its `$id`.
 */
export function toolInputSchema(route: RouteEntry, resolve: (id: string) => unknown): ToolInputSchema {
  const schema = route.schema ?? {};
  const parts = [schema.params, route.method === 'GET' ? schema.querystring : schema.body].filter(
    (p): p is JsonObject => isObject(p),
  );
  const properties: JsonObject = {};
  const required: string[] = [];
  let closed = false;
  for (const part of parts.map((p) => plain(inline(p, resolve, [])) as JsonObject)) {
    if (part['type'] !== 'object')
      throw new Error(`${route.method} ${route.url}: a tool needs object schemas for its route's parameters`);
    Object.assign(properties, part['properties'] ?? {});
    required.push(...((part['required'] as string[] | undefined) ?? []));
    if (part['additionalProperties'] === false) closed = true;
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

/** The route's own words: its summary, its description, and which route it is. */
export function toolDescription(route: RouteEntry): string {
  const schema = route.schema as { summary?: string; description?: string } | undefined;
  return [
    schema?.summary && `${schema.summary}.`,
    schema?.description,
    `Answers exactly what \`${route.method} ${route.url}\` answers (JSON).`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** `value` with every `$ref` to a shared schema replaced by that schema; a cycle is refused. */
function inline(value: unknown, resolve: (id: string) => unknown, stack: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => inline(v, resolve, stack));
  if (!isObject(value)) return value;
  const ref = value['$ref'];
  if (typeof ref === 'string') {
    const [id = '', pointer = ''] = ref.split('#');
    if (stack.includes(ref))
      throw new Error(`the shared schema ${ref} refers to itself; a tool's input schema cannot be written out`);
    const target = pointerValue(resolve(id), pointer);
    if (target === undefined) throw new Error(`no shared schema ${ref}`);
    return inline(target, resolve, [...stack, ref]);
  }
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '$id')
      .map(([key, v]) => [key, inline(v, resolve, stack)]),
  );
}

/** Plain JSON: TypeBox's symbol keys dropped. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}
