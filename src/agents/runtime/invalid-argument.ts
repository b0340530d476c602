import { AgentError } from '../../protocol/errors.ts';

// A field naming a format id: `format_id`, `target_format_id`, `format_ids[2]`, `filters.format_ids[0]`...
const formatIdField = /(?:^|\.)[a-z_]*format_id(?:s\[\d+\])?$/;

/**
 * The error for an argument that failed its schema at `field` (core/error.json's JSONPath-lite):
 * a format id given as anything but an object is INVALID_FORMAT_ID (agent-tasks spec section 7:
 * a bare string is the usual mistake), anything else INVALID_REQUEST.
 */
export function invalidArgument(args: unknown, field: string, problem: string): AgentError {
  const value = valueAt(args, field);
  if (formatIdField.test(field) && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    return new AgentError(
      'INVALID_FORMAT_ID',
      `Invalid argument ${field}: a format id is an object with agent_url and id, not ${JSON.stringify(value)}.`,
      {
        field,
        suggestion:
          'Pass {"agent_url": "<creative agent URL>", "id": "<format id>"}, as list_creative_formats answers it.',
      },
    );
  }
  return new AgentError('INVALID_REQUEST', `Invalid argument ${field || '(arguments)'}: ${problem}.`, { field });
}

function valueAt(root: unknown, field: string): unknown {
  let value = root;
  for (const segment of field.match(/[^.[\]]+/g) ?? []) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
