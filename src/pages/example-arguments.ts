import { isRecord } from '../protocol/json-values.ts';

type Schema = Record<string, unknown>;

/**
 * Arguments to start from, made from a task's input schema: each required property with its
 * default, first example or first enum value, else a placeholder of its type (an array its
 * minimum of items). What a person edits before calling, not a valid request by itself.
 */
export function exampleArguments(schema: Schema | undefined): Record<string, unknown> {
  const value = example(schema ?? {}, 0);
  return isRecord(value) ? value : {};
}

function example(schema: Schema, depth: number): unknown {
  if ('default' in schema) return schema['default'];
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return schema['examples'][0];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  if ('const' in schema) return schema['const'];
  // Bounded: a schema that nests itself (or deeply) gets an empty value past it.
  if (depth > 5) return undefined;
  const choices = (schema['anyOf'] ?? schema['oneOf']) as Schema[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) return example(choices[0]!, depth + 1);
  const type = Array.isArray(schema['type']) ? schema['type'][0] : schema['type'];
  switch (type) {
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
      const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
      return Object.fromEntries(
        required.filter((name) => properties[name]).map((name) => [name, example(properties[name]!, depth + 1)]),
      );
    }
    case 'array': {
      const items = (schema['items'] ?? {}) as Schema;
      const count = typeof schema['minItems'] === 'number' ? Math.min(schema['minItems'], 3) : 0;
      return Array.from({ length: count }, () => example(items, depth + 1));
    }
    case 'string':
      return schema['format'] === 'date-time' ? new Date().toISOString() : '';
    case 'integer':
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 0;
    case 'boolean':
      return false;
    default:
      return properties(schema) ? example({ ...schema, type: 'object' }, depth) : undefined;
  }
}

const properties = (schema: Schema) => typeof schema['properties'] === 'object' && schema['properties'] !== null;
