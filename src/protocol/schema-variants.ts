import { isDeepStrictEqual } from 'node:util';
import { isNode, type SchemaNode } from './schema-issues.ts';

/** Follows a `$ref` to the schema it names; returns other schemas unchanged. */
export type Deref = (schema: unknown) => SchemaNode | undefined;

/**
 * Picks the variant of a oneOf/anyOf that a document most plausibly means, so that only that
 * variant's errors are shown. A matching discriminator (`const`) outweighs everything; then the
 * properties the variant knows and requires, against those it forbids.
 */
export function pickVariant(variants: readonly unknown[], data: unknown, deref: Deref): number {
  let best = 0;
  let bestScore = -Infinity;
  variants.forEach((variant, index) => {
    const score = scoreVariant(deref(variant), data, deref);
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  return best;
}

/**
 * When every variant pins the same property to a constant (a discriminator such as
 * `authorization_type`) and the data's value matches none of them, that property and the values
 * it may take; no variant is then a better guess than the others.
 */
export function unmatchedDiscriminator(
  variants: readonly unknown[],
  data: unknown,
  deref: Deref,
): { name: string; allowed: unknown[] } | undefined {
  if (!isNode(data) || variants.length === 0) return undefined;
  const schemas = variants.map((variant) => deref(variant));
  const first = schemas[0];
  if (!first || !isNode(first['properties'])) return undefined;
  for (const name of Object.keys(first['properties'])) {
    if (!Object.hasOwn(data, name)) continue;
    const allowed: unknown[] = [];
    for (const schema of schemas) {
      const property = schema && isNode(schema['properties']) ? deref(schema['properties'][name]) : undefined;
      const constant = property ? constantOf(property) : { found: false };
      if (!constant.found) break;
      allowed.push(constant.value);
    }
    if (allowed.length === schemas.length && !allowed.some((value) => isDeepStrictEqual(value, data[name]))) {
      return { name, allowed };
    }
  }
  return undefined;
}

function scoreVariant(variant: SchemaNode | undefined, data: unknown, deref: Deref): number {
  if (!variant) return 0;
  if (variant['type'] !== undefined && !hasType(variant['type'], data)) return -1000;
  if (!isNode(data)) return 0;

  let score = 0;
  const properties = isNode(variant['properties']) ? variant['properties'] : {};
  for (const [name, property] of Object.entries(properties)) {
    if (!Object.hasOwn(data, name)) continue;
    score += 1;
    const schema = deref(property);
    if (!schema) continue;
    const constant = constantOf(schema);
    if (constant.found) score += isDeepStrictEqual(data[name], constant.value) ? 100 : -100;
    else if (schema['type'] !== undefined && !hasType(schema['type'], data[name])) score -= 2;
  }
  const required = Array.isArray(variant['required']) ? variant['required'] : [];
  for (const name of required) if (!Object.hasOwn(data, String(name))) score -= 10;
  if (variant['additionalProperties'] === false) {
    for (const name of Object.keys(data)) if (!Object.hasOwn(properties, name)) score -= 10;
  }
  return score;
}

function constantOf(schema: SchemaNode): { found: boolean; value?: unknown } {
  if (Object.hasOwn(schema, 'const')) return { found: true, value: schema['const'] };
  const values = schema['enum'];
  if (Array.isArray(values) && values.length === 1) return { found: true, value: values[0] };
  return { found: false };
}

function hasType(type: unknown, data: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((name) => {
    switch (name) {
      case 'object':
        return isNode(data);
      case 'array':
        return Array.isArray(data);
      case 'null':
        return data === null;
      case 'integer':
        return Number.isInteger(data);
      case 'number':
        return typeof data === 'number';
      case 'string':
      case 'boolean':
        return typeof data === name;
      default:
        return true;
    }
  });
}
