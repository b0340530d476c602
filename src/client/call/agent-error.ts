import { isRecord } from '../../protocol/json-values.ts';
import { clampRetryAfter } from '../../protocol/retry-after.ts';
import type { AgentErrorObject } from '../agents/task-outcome.ts';

/**
 * Where a failed call went wrong, which tells a caller what to do next: `input` (the call itself is
 * malformed, e.g. the agent URL), `agent` (the agent answered with an error envelope: fix the
 * request, or wait), `transport` (no usable answer: network, HTTP 5xx, not an agent), `timeout`
 * (gave up waiting), `canceled` (the caller's signal).
 */
export type AgentErrorKind = 'input' | 'agent' | 'transport' | 'timeout' | 'canceled';

// Codes the protocol classifies as transient (enums/error-code.json) that a retry, unchanged, may
// cure, for an agent that does not say its error's recovery. CONFLICT and CAMPAIGN_SUSPENDED are
// transient too, but want a re-read or a human first, whatever the agent says.
const transientCodes = new Set(['RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'GOVERNANCE_UNAVAILABLE']);
const notByRetry = new Set(['CONFLICT', 'CAMPAIGN_SUSPENDED']);

/** One error for every way an agent call fails, whichever of the three envelopes carried it. */
export class ApAgentError extends Error {
  override name = 'ApAgentError';
  readonly kind: AgentErrorKind;
  /** The agent's code (`RATE_LIMITED`, `INVALID_REQUEST`, ...), or ours: `TRANSPORT_ERROR`, `TIMEOUT`, `CANCELED`, `NOT_AN_AGENT`. */
  readonly code: string;
  readonly field: string | undefined;
  readonly suggestion: string | undefined;
  /** The HTTP status the error came with, when it came with one other than 200. */
  readonly status: number | undefined;
  /** Whether sending the same request again (same idempotency key) may succeed. */
  readonly retryable: boolean;
  /** The agent's `retry_after` or `Retry-After`, in seconds, clamped to 1–3600. */
  readonly retryAfterSeconds: number | undefined;
  /** The agent's whole error object, as sent. */
  readonly details: AgentErrorObject | undefined;

  constructor(
    kind: AgentErrorKind,
    code: string,
    message: string,
    extra: {
      field?: string;
      suggestion?: string;
      status?: number;
      retryable?: boolean;
      retryAfterSeconds?: number;
      details?: AgentErrorObject;
      cause?: unknown;
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.kind = kind;
    this.code = code;
    this.field = extra.field;
    this.suggestion = extra.suggestion;
    this.status = extra.status;
    this.retryable = extra.retryable ?? false;
    this.retryAfterSeconds = extra.retryAfterSeconds;
    this.details = extra.details;
  }

  /** The agent's error object (any envelope's), with the HTTP status and `Retry-After` it came with. */
  static fromAgent(error: AgentErrorObject, http: { status?: number; retryAfter?: string | null } = {}): ApAgentError {
    const retryAfter = clampRetryAfter(
      typeof error['retry_after'] === 'number' ? error['retry_after'] : Number(http.retryAfter ?? NaN),
    );
    // The agent's own `recovery` is what it knows of this error (an ACTIVATION_FAILED for a platform
    // that does not carry the signal is correctable, whatever its 502); without one, the code and
    // the HTTP status decide.
    const said = error['recovery'];
    const transient =
      typeof said === 'string'
        ? said === 'transient' && !notByRetry.has(error.code)
        : transientCodes.has(error.code) || (http.status !== undefined && http.status >= 500);
    return new ApAgentError('agent', error.code, error.message, {
      ...(typeof error['field'] === 'string' ? { field: error['field'] } : {}),
      ...(typeof error['suggestion'] === 'string' ? { suggestion: error['suggestion'] } : {}),
      ...(http.status !== undefined && http.status !== 200 ? { status: http.status } : {}),
      retryable: transient,
      ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
      details: error,
    });
  }

  /** A plain object for printing or logging: what `ap call --json` writes. */
  toJSON(): Record<string, unknown> {
    return {
      kind: this.kind,
      code: this.code,
      message: this.message,
      ...(this.field !== undefined ? { field: this.field } : {}),
      ...(this.suggestion !== undefined ? { suggestion: this.suggestion } : {}),
      ...(this.status !== undefined ? { status: this.status } : {}),
      retryable: this.retryable,
      ...(this.retryAfterSeconds !== undefined ? { retry_after: this.retryAfterSeconds } : {}),
      ...(this.details !== undefined ? { details: this.details } : {}),
    };
  }
}

export function transportError(
  message: string,
  extra: { status?: number; retryable?: boolean; retryAfterSeconds?: number; cause?: unknown; code?: string } = {},
): ApAgentError {
  const { code = 'TRANSPORT_ERROR', ...rest } = extra;
  return new ApAgentError('transport', code, message, { retryable: true, ...rest });
}

/** Any failure of a call as an ApAgentError: the SDKs', the fetch client's and the network's own. */
export function asAgentError(err: unknown, signal?: AbortSignal): ApAgentError {
  if (err instanceof ApAgentError) return err;
  if (signal?.aborted) return new ApAgentError('canceled', 'CANCELED', 'The call was canceled.', { cause: err });
  const found = findIn(err);
  if (found) return found;
  const message = err instanceof Error ? err.message : String(err);
  const reason = fetchReason(err);
  if (reason !== undefined) {
    // A refused address or a malformed URL will be refused again; a timeout or a reset may not.
    return transportError(message, {
      code: reason === 'timeout' ? 'TIMEOUT' : 'TRANSPORT_ERROR',
      retryable: ['timeout', 'connection_failed', 'dns_failure'].includes(reason),
      cause: err,
    });
  }
  const rpc = rpcError(err);
  if (rpc) return rpc;
  return transportError(message, { cause: err });
}

/**
 * A JSON-RPC error the agent answered (the MCP SDK's `code`, the A2A SDK's `envelopeCode`): a
 * request it refused (-32600 to -32602, A2A's task errors) is the agent's answer; -32603 and
 * -32000 are its failures, worth a retry; MCP's -32001 is the SDK giving up waiting.
 */
function rpcError(err: unknown): ApAgentError | undefined {
  if (!isRecord(err)) return undefined;
  const a2a = typeof err['envelopeCode'] === 'number';
  const code = a2a ? (err['envelopeCode'] as number) : err['code'];
  if (typeof code !== 'number' || code > -32000 || code < -32800) return undefined;
  const message = err instanceof Error ? err.message : String(err['message']);
  const details = { code: `JSONRPC_${-code}`, message, jsonrpc_code: code };
  if (code === -32603 || code === -32000) return transportError(message, { cause: err });
  if (!a2a && code === -32001) return transportError(message, { code: 'TIMEOUT', cause: err });
  if (a2a && code === -32001) return new ApAgentError('agent', 'TASK_NOT_FOUND', message, { cause: err, details });
  return new ApAgentError('agent', 'INVALID_REQUEST', message, { cause: err, details });
}

// The SDKs wrap what the fetch threw; the typed error may be a cause or two down.
function findIn(err: unknown): ApAgentError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (e instanceof ApAgentError) return e;
  return undefined;
}

export function fetchReason(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (e.name === 'FetchError' && isRecord(e) && typeof e['reason'] === 'string') return e['reason'];
  return undefined;
}
