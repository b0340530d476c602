import { AgentError } from '../../../protocol/errors.ts';
import { validateSchema } from '../../../protocol/schemas.ts';

/**
 * Checks a value against the protocol's published schema, which a task's own input schema only
 * summarizes: the first issue is answered as INVALID_REQUEST naming the field, below `at` (the
 * argument the value came from) when given.
 */
export function checkPublished(schemaId: string, value: unknown, at = ''): void {
  const first = validateSchema(schemaId, value).errors[0];
  if (!first) return;
  const inner = first.path.replace(/^\$\.?/, '');
  const field = at && inner ? (inner.startsWith('[') ? `${at}${inner}` : `${at}.${inner}`) : at || inner;
  throw new AgentError('INVALID_REQUEST', `Invalid argument ${field || '(arguments)'}: ${first.message}.`, { field });
}
