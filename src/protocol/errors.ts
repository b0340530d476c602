import codes from './error-codes.json' with { type: 'json' };

/**
 * The one error catalogue, kept as data in `error-codes.json`. Every error a client can see has a
 * stable code there, with its HTTP status and a default message. Codes are API: never rename one,
 * only add. `route_not_found` (a path we do not serve) is told apart from `not_found` (an entity we
 * do not know): clients map the latter to "none". The first code listed for a status is its
 * general one (`codeForStatus`), so the order matters.
 */
export const errorCatalogue: Readonly<Record<keyof typeof codes.registry, { status: number; message: string }>> =
  codes.registry;

export type ErrorCode = keyof typeof errorCatalogue;

/** One offending field of a request, for `validation_failed`. */
export interface FieldIssue {
  /** Where the field is: body, querystring, params or headers. */
  in: string;
  /** Dotted path of the field inside that part (empty for the part as a whole). */
  field: string;
  message: string;
}

export interface ApErrorOptions {
  details?: FieldIssue[];
  /** Seconds until a retry may succeed; required for `rate_limited`. */
  retryAfter?: number;
  cause?: unknown;
}

/** The error every layer throws; the HTTP error handler renders it. */
export class ApError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: FieldIssue[] | undefined;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message?: string, options: ApErrorOptions = {}) {
    super(message ?? errorCatalogue[code].message, { cause: options.cause });
    this.name = 'ApError';
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

/** The wire body of an error: `{error, message}`, plus `details` or `retry_after` when they apply. */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: FieldIssue[];
  retry_after?: number;
}

export function errorBody(err: ApError): ErrorBody {
  const body: ErrorBody = { error: err.code, message: err.message };
  if (err.details) body.details = err.details;
  if (err.retryAfter !== undefined) body.retry_after = err.retryAfter;
  return body;
}

/**
 * The catalogue code for a bare HTTP status, for errors raised below our own code. The first code
 * listed for a status is its general one, so the catalogue's order matters.
 */
export function codeForStatus(status: number): ErrorCode {
  const found = (Object.keys(errorCatalogue) as ErrorCode[]).find((code) => errorCatalogue[code].status === status);
  if (found) return found;
  return status >= 500 ? 'internal_error' : 'invalid_request';
}

/** How a caller recovers from an agent error (core/error.json `recovery`). */
export type Recovery = 'transient' | 'correctable' | 'terminal';

/**
 * The codes agent tasks answer with (`error-codes.json`, `agent`): every code of the protocol's
 * vocabulary (enums/error-code.json, with its `recovery`), then the codes of the agent-tasks spec
 * (section 7) and our own. `status` is the HTTP status when a task is called over plain HTTP;
 * `recovery` tells a caller whether to wait and retry (transient), fix the request (correctable)
 * or ask a human (terminal). Codes are API: never rename one, only add.
 */
export const agentErrorCatalogue = codes.agent as Readonly<
  Record<keyof typeof codes.agent, { status: number; recovery: Recovery; message: string }>
>;

export type AgentErrorCode = keyof typeof agentErrorCatalogue;

export interface AgentErrorOptions {
  /** The argument at fault, as a dotted path. */
  field?: string;
  suggestion?: string;
  /** Seconds until a retry may succeed (1 to 3600), for transient errors. */
  retryAfter?: number;
  /** Task-specific details, e.g. `supported_versions` for VERSION_UNSUPPORTED. */
  details?: Record<string, unknown>;
  /**
   * How to recover from this instance, where it is not the code's usual one: a caller retries a
   * transient error as it is, so an error that the same request meets again is never transient.
   */
  recovery?: Recovery;
  cause?: unknown;
}

/** What an agent task throws; the transport renders it in its envelope (runtime/envelope.ts). */
export class AgentError extends Error {
  readonly code: AgentErrorCode;
  /** The argument at fault, as a dotted path, when there is one. */
  readonly field: string | undefined;
  readonly suggestion: string | undefined;
  readonly retryAfter: number | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly recovery: Recovery;

  constructor(code: AgentErrorCode, message?: string, options: AgentErrorOptions = {}) {
    super(message ?? agentErrorCatalogue[code].message, { cause: options.cause });
    this.name = 'AgentError';
    this.code = code;
    this.field = options.field;
    this.suggestion = options.suggestion;
    this.retryAfter = options.retryAfter;
    this.details = options.details;
    this.recovery = options.recovery ?? agentErrorCatalogue[code].recovery;
  }
}
