import { AgentError, agentErrorCatalogue, type Recovery } from '../../protocol/errors.ts';
import { clampRetryAfter } from '../../protocol/retry-after.ts';
import { databaseUnreachable, unreachableRetryAfterSeconds } from '../../db/unavailable.ts';
import { failureRecovery } from './failure-recovery.ts';

/**
 * The one protocol envelope of every agent answer, whatever the transport: the task's `status`
 * (core/protocol-envelope.json) beside the payload, the error object of core/error.json, the
 * request's `context` echoed unchanged, and no credential of the request ever echoed back (not in
 * a payload, an error message or a replay).
 */

/** An agent error on the wire (core/error.json): `{code, message}` as the spec shows, and what the schema adds. */
export interface ErrorObject {
  code: string;
  message: string;
  field?: string;
  suggestion?: string;
  recovery: Recovery;
  retry_after?: number;
  details?: Record<string, unknown>;
}

/** What an answer takes from its request: the context to echo and the credentials never to echo. */
export interface Echo {
  context: Record<string, unknown> | undefined;
  secrets: readonly string[];
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const REDACTED = '[redacted]';
// Shorter strings than this are not treated as secrets: redacting them would mangle ordinary text.
const minSecretLength = 8;

/** The echo of a request: its arguments' `context`, its bearer token and every `authentication.credentials` in its arguments. */
export function echoOf(args: unknown, authorization?: string): Echo {
  const secrets: string[] = [];
  const bearer = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  if (bearer && bearer.length >= minSecretLength) secrets.push(bearer);
  collectCredentials(args, secrets, 0);
  const context = isObject(args) && isObject(args['context']) ? args['context'] : undefined;
  return { context, secrets };
}

/**
 * The wire error for anything a task threw: an AgentError as it is, anything else as
 * INTERNAL_ERROR without its details, transient only when a retry may succeed.
 */
export function errorObject(err: unknown): ErrorObject {
  const error = asAgentError(err);
  return {
    code: error.code,
    message: error.message,
    ...(error.field ? { field: error.field } : {}),
    ...(error.suggestion ? { suggestion: error.suggestion } : {}),
    recovery: error.recovery,
    ...(error.retryAfter !== undefined ? { retry_after: clampRetryAfter(error.retryAfter) } : {}),
    ...(error.details ? { details: error.details } : {}),
  };
}

/** The HTTP status of an error when a task is called over plain HTTP. */
export function errorStatus(err: unknown): number {
  return agentErrorCatalogue[asAgentError(err).code].status;
}

/**
 * What a task threw, as the catalogue names it: an AgentError as it is; the database out of reach
 * as SERVICE_UNAVAILABLE with when to retry (nothing was done); anything else INTERNAL_ERROR.
 */
function asAgentError(err: unknown): AgentError {
  if (err instanceof AgentError) return err;
  if (databaseUnreachable(err))
    return new AgentError('SERVICE_UNAVAILABLE', 'The agent’s database cannot be reached right now; retry shortly.', {
      retryAfter: unreachableRetryAfterSeconds,
    });
  return new AgentError('INTERNAL_ERROR', undefined, { recovery: failureRecovery(err) });
}

/** A task's payload as answered: credentials redacted, then the request's context in place of any the payload carried. */
export function successBody(payload: Record<string, unknown>, echo: Echo): Record<string, unknown> {
  return answered(payload, echo).body;
}

/**
 * The answered payload and its JSON, serialized once when (as almost always) nothing needs
 * redacting. The envelope's `status` comes first: `completed`, unless the payload says its own (a
 * submitted task's, get_task's, or a media buy's status where its published response puts one;
 * the protocol's client reads a domain status beside a payload as completed).
 */
export function answered(
  payload: Record<string, unknown>,
  echo: Echo,
): { body: Record<string, unknown>; text: string } {
  const { context: _ignored, ...fields } = payload;
  const rest = 'status' in fields ? fields : { status: 'completed', ...fields };
  const withContext = (value: Record<string, unknown>) => (echo.context ? { ...value, context: echo.context } : value);
  let body = withContext(rest);
  let text = JSON.stringify(body);
  if (leaks(text, echo.secrets)) {
    body = withContext(scrub(rest, echo.secrets, false) as Record<string, unknown>);
    text = JSON.stringify(body);
  }
  return { body, text };
}

/** An error object as answered, credentials redacted. */
export function errorBody(err: unknown, echo: Echo): ErrorObject {
  return redact(errorObject(err), echo.secrets);
}

export type HttpEnvelope = 'creative' | 'signals';

/**
 * The plain-HTTP error body (agent-tasks spec section 7): creative `{error}`, signals `{errors: [...]}`,
 * beside `status: failed`; signals lists each part of an error that carries its parts in
 * `details.errors` (an activation's refused targets) as one error each.
 */
export function httpErrorBody(envelope: HttpEnvelope, err: unknown, echo: Echo): Record<string, unknown> {
  const error = errorBody(err, echo);
  const parts = error.details?.['errors'];
  return failed(
    envelope === 'creative' ? { error } : { errors: Array.isArray(parts) && parts.length > 0 ? parts : [error] },
    echo,
  );
}

/** The data part of an A2A answer that failed: `{status: failed, error, context?}`. */
export function a2aErrorData(err: unknown, echo: Echo): Record<string, unknown> {
  return failed({ error: errorBody(err, echo) }, echo);
}

/** A failed task's envelope around its error fields, with the request's context. */
function failed(fields: Record<string, unknown>, echo: Echo): Record<string, unknown> {
  return { status: 'failed', ...fields, ...(echo.context ? { context: echo.context } : {}) };
}

function collectCredentials(value: unknown, into: string[], depth: number): void {
  if (depth > 16 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectCredentials(item, into, depth + 1);
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    if (
      key === 'authentication' &&
      isObject(child) &&
      typeof child['credentials'] === 'string' &&
      child['credentials'].length >= minSecretLength
    ) {
      into.push(child['credentials']);
    }
    collectCredentials(child, into, depth + 1);
  }
}

/**
 * The value without the request's secrets: any string containing one has it replaced, and every
 * `authentication.credentials` is masked. Checked on the serialized text first, so the common
 * answer, which holds neither, is not copied.
 */
function redact<T>(value: T, secrets: readonly string[]): T {
  return leaks(JSON.stringify(value), secrets) ? (scrub(value, secrets, false) as T) : value;
}

/** Whether serialized JSON may hold a secret (as JSON escapes it) or a credentials field. */
function leaks(text: string, secrets: readonly string[]): boolean {
  return text.includes('"credentials"') || secrets.some((s) => text.includes(JSON.stringify(s).slice(1, -1)));
}

function scrub(value: unknown, secrets: readonly string[], inAuthentication: boolean): unknown {
  if (typeof value === 'string') return secrets.reduce((s, secret) => s.replaceAll(secret, REDACTED), value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets, false));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      inAuthentication && key === 'credentials' && typeof child === 'string'
        ? REDACTED
        : scrub(child, secrets, key === 'authentication');
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
