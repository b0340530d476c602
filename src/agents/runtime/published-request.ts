import { invalidArgument } from './invalid-argument.ts';
import { validateSchema } from '../../protocol/schemas.ts';

/**
 * Checks a task's arguments against the protocol's published request schema, which a task's own
 * input schema (self-contained, for MCP's tools/list) only summarizes: buyers' tools are written to
 * the published one. The first issue is answered as the input schema's are, naming the field; with
 * `at`, the value is the argument of that name (an `account` reference checked on its own).
 */
export function checkPublishedRequest(schemaId: string, value: unknown, at = ''): void {
  const first = validateSchema(schemaId, value).errors[0];
  if (!first) return;
  const inner = first.path.replace(/^\$\.?/, '');
  const field = at && inner ? (inner.startsWith('[') ? `${at}${inner}` : `${at}.${inner}`) : at || inner;
  throw invalidArgument(at ? { [at]: value } : value, field, first.message);
}
