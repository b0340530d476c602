import { invalidArgument } from './invalid-argument.ts';
import { jsonPathLite, pointerTokens } from '../../protocol/json-path.ts';
import { validateSchema } from '../../protocol/schemas.ts';
import type { AgentTask } from './task.ts';

/**
 * What a task declares to be the protocol's task of that name (`media-buy/create-media-buy`): its
 * published request schema, which the runner checks the arguments against (runtime/arguments.ts),
 * and its published response schema as the task's output.
 */
export function publishedSchemas(task: string): Required<Pick<AgentTask, 'request' | 'output'>> {
  return {
    request: `/schemas/3.0.6/${task}-request.json`,
    output: { $ref: `/schemas/3.0.6/${task}-response.json` },
  };
}

/**
 * Checks a task's arguments against the protocol's published request schema, which a task's own
 * input schema (self-contained, for MCP's tools/list) only summarizes: buyers' tools are written to
 * the published one. The first issue is answered as the input schema's are, naming the field; with
 * `at`, the value is the argument of that name (an `account` reference checked on its own).
 */
export function checkPublishedRequest(schemaId: string, value: unknown, at = ''): void {
  const first = validateSchema(schemaId, asPublished(value)).errors[0];
  if (!first) return;
  const field = jsonPathLite([...(at ? [at] : []), ...pointerTokens(first.pointer)]);
  throw invalidArgument(at ? { [at]: value } : value, field, first.message);
}

/**
 * The spec opts into signed webhooks with `authentication.schemes: ["HTTP_MESSAGE_SIGNATURES"]` and
 * no credentials; the schemas mean the same by leaving `authentication` out (present, it selects the
 * legacy Bearer/HMAC schemes and needs credentials). For `push_notification_config` both are
 * accepted: the spec's form is checked as the schema's. `reporting_webhook`'s schema requires the
 * legacy block, so it cannot check the webhook in either signed form: that one is left out, and
 * the task that takes it checks it itself.
 */
function asPublished(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  let request = value as Record<string, unknown>;
  const push = request['push_notification_config'];
  if (signedOptIn(push)) request = { ...request, push_notification_config: withoutAuthentication(push) };
  if (signedForm(request['reporting_webhook'])) {
    const { reporting_webhook: _checkedByTheTask, ...rest } = request;
    request = rest;
  }
  return request;
}

type WebhookConfig = { authentication?: { schemes?: unknown; credentials?: unknown } };

/** `authentication` as the spec writes the RFC 9421 opt-in. */
function signedOptIn(config: unknown): config is WebhookConfig {
  const auth = (config as WebhookConfig | null)?.authentication;
  return (
    !!auth &&
    auth.credentials === undefined &&
    Array.isArray(auth.schemes) &&
    auth.schemes.includes('HTTP_MESSAGE_SIGNATURES')
  );
}

/** A webhook configuration that chooses RFC 9421, either way. */
const signedForm = (config: unknown) =>
  typeof config === 'object' &&
  config !== null &&
  ((config as WebhookConfig).authentication === undefined || signedOptIn(config));

function withoutAuthentication(config: WebhookConfig): object {
  const { authentication: _signed, ...rest } = config;
  return rest;
}
