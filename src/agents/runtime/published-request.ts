import { invalidArgument } from './invalid-argument.ts';
import { validateSchema } from '../../protocol/schemas.ts';

/**
 * Checks a task's arguments against the protocol's published request schema, which a task's own
 * input schema (self-contained, for MCP's tools/list) only summarizes: buyers' tools are written to
 * the published one. The first issue is answered as INVALID_REQUEST naming the field, as for the
 * input schema. The envelope fields the runtime handles (`context`, `ap_major_version`,
 * `idempotency_key`) are the published schemas' own too, so nothing is taken out.
 */
export function checkPublishedRequest(schemaId: string, args: Record<string, unknown>): void {
  const { errors } = validateSchema(schemaId, args);
  const first = errors[0];
  if (!first) return;
  throw invalidArgument(args, first.path.replace(/^\$\.?/, ''), first.message);
}
