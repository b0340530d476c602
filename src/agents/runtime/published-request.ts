import { invalidArgument } from './invalid-argument.ts';
import { validateSchema } from '../../protocol/schemas.ts';

/**
 * Checks a task's arguments against the protocol's published request schema, which a task's own
 * input schema (self-contained, for MCP's tools/list) only summarizes: buyers' tools are written to
 * the published one. The first issue is answered as the input schema's are, naming the field; with
 * `at`, the value is the argument of that name (an `account` reference checked on its own).
 */
export function checkPublishedRequest(schemaId: string, value: unknown, at = ''): void {
  const first = validateSchema(schemaId, asPublished(value)).errors[0];
  if (!first) return;
  const inner = first.path.replace(/^\$\.?/, '');
  const field = at && inner ? (inner.startsWith('[') ? `${at}${inner}` : `${at}.${inner}`) : at || inner;
  throw invalidArgument(at ? { [at]: value } : value, field, first.message);
}

/**
 * The spec opts into signed webhooks with `push_notification_config.authentication.schemes:
 * ["HTTP_MESSAGE_SIGNATURES"]` and no credentials; the schema means the same by leaving
 * `authentication` out (present, it selects the legacy Bearer/HMAC schemes and needs credentials).
 * Both are accepted: the spec's form is checked as the schema's.
 */
function asPublished(value: unknown): unknown {
  const config = (value as { push_notification_config?: { authentication?: { schemes?: unknown; credentials?: unknown } } } | null)?.push_notification_config;
  const auth = config?.authentication;
  if (!auth || auth.credentials !== undefined || !Array.isArray(auth.schemes) || !auth.schemes.includes('HTTP_MESSAGE_SIGNATURES')) return value;
  const { authentication: _signed, ...rest } = config;
  return { ...(value as object), push_notification_config: rest };
}
