/**
 * The one error catalogue. Every error a client can see has a stable code here, with its HTTP
 * status and a default message. Codes are API: never rename one, only add.
 */
export const errorCatalogue = {
  invalid_request: { status: 400, message: 'The request is invalid.' },
  validation_failed: { status: 400, message: 'The request does not match the schema.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_domain: { status: 400, message: 'The domain is not a valid host name.' },
  domain_disallowed_characters: {
    status: 400,
    message:
      'The domain has code points IDNA 2008 does not allow (symbols, emoji, joiners or right-to-left text out of place).',
  },
  domain_mixed_script: {
    status: 400,
    message: 'A label of the domain mixes scripts (for example Latin and Cyrillic).',
  },
  domain_invalid_punycode: { status: 400, message: 'An xn-- label of the domain is not valid, canonical punycode.' },
  domain_not_public: {
    status: 400,
    message: 'The domain resolves to a private or reserved address, which is never crawled.',
  },
  domain_unresolvable: { status: 400, message: 'The domain does not resolve in DNS.' },
  url_not_public: {
    status: 400,
    message: 'The URL leads to a private or reserved address (directly or by a redirect), which is never fetched.',
  },
  invalid_cursor: { status: 400, message: 'The pagination cursor is malformed.' },
  unauthorized: { status: 401, message: 'A valid credential is required.' },
  forbidden: { status: 403, message: 'The credential lacks the required membership or role.' },
  ownership_required: { status: 403, message: 'Prove control of the domain first (POST /api/ownership/challenges).' },
  not_found: { status: 404, message: 'Not found.' },
  // A path we do not serve, told apart from an entity we do not know (`not_found`): clients map the latter to "none".
  route_not_found: { status: 404, message: 'No such endpoint.' },
  method_not_allowed: { status: 405, message: 'Method not allowed.' },
  conflict: { status: 409, message: 'The request conflicts with the current state.' },
  authoritative_entry: {
    status: 409,
    message: 'This entry is managed by the domain’s own brand.json or adagents.json and cannot be edited here.',
  },
  nonce_used: { status: 409, message: 'This challenge was already used; ask for a new one.' },
  nonce_expired: { status: 410, message: 'This challenge expired; ask for a new one.' },
  ownership_not_proven: {
    status: 422,
    message: 'The domain did not show the challenge; the challenge is now invalid.',
  },
  cursor_expired: {
    status: 410,
    message: 'The cursor is older than the retention window or unknown; re-bootstrap and resume from a fresh cursor.',
  },
  request_timeout: { status: 408, message: 'The request was not received in time.' },
  preview_expired: { status: 410, message: 'The preview expired; call preview_creative again for a new one.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'The request body must be sent as Content-Type: application/json.' },
  rate_limited: { status: 429, message: 'Rate limit exceeded.' },
  headers_too_large: { status: 431, message: 'The request line or headers are too large (the query string included).' },
  internal_error: { status: 500, message: 'Internal server error.' },
  upstream_unavailable: { status: 502, message: 'The domain could not be fetched.' },
  brand_data_provider_failed: {
    status: 502,
    message: 'The brand-data provider failed or answered unusably; nothing was stored.',
  },
  agent_unreachable: {
    status: 502,
    message: 'The agent could not be reached (no answer, a timeout, or an answer too large).',
  },
  not_an_agent: { status: 502, message: 'The URL answers, but neither as an MCP server nor with an A2A agent card.' },
  agent_auth_required: {
    status: 502,
    message: 'The agent asks for a credential; pass it in the ap-agent-authorization header.',
  },
  agent_task_failed: { status: 502, message: 'The agent answered the task with an error.' },
  agent_bad_response: {
    status: 502,
    message: 'The agent answered the task with something that is not the task’s answer.',
  },
  service_unavailable: { status: 503, message: 'The service is unavailable.' },
} as const satisfies Record<string, { status: number; message: string }>;

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
 * The codes agent tasks answer with: every code of the protocol's vocabulary
 * (enums/error-code.json, with its `recovery`), then the codes of the agent-tasks spec (section 7)
 * and our own. `status` is the HTTP status when a task is called over plain HTTP; `recovery` tells
 * a caller whether to wait and retry (transient), fix the request (correctable) or ask a human
 * (terminal). Codes are API: never rename one, only add.
 */
export const agentErrorCatalogue = {
  INVALID_REQUEST: { status: 400, recovery: 'correctable', message: 'The request is invalid.' },
  AUTH_REQUIRED: {
    status: 401,
    recovery: 'correctable',
    message: 'Authentication is required, or the credential was rejected.',
  },
  RATE_LIMITED: { status: 429, recovery: 'transient', message: 'Too many requests; retry after retry_after seconds.' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    recovery: 'transient',
    message: 'The agent is temporarily unavailable; retry with backoff.',
  },
  POLICY_VIOLATION: {
    status: 422,
    recovery: 'correctable',
    message: 'The request violates the seller’s content or advertising policies.',
  },
  PRODUCT_NOT_FOUND: { status: 404, recovery: 'correctable', message: 'A referenced product is unknown or expired.' },
  PRODUCT_UNAVAILABLE: {
    status: 409,
    recovery: 'correctable',
    message: 'The product is sold out or no longer available.',
  },
  PROPOSAL_EXPIRED: {
    status: 410,
    recovery: 'correctable',
    message: 'The proposal has expired; get a fresh one with get_products.',
  },
  BUDGET_TOO_LOW: { status: 422, recovery: 'correctable', message: 'The budget is below the seller’s minimum.' },
  CREATIVE_REJECTED: { status: 422, recovery: 'correctable', message: 'The creative failed content policy review.' },
  UNSUPPORTED_FEATURE: {
    status: 422,
    recovery: 'correctable',
    message: 'A requested feature or field is not supported; see get_ap_capabilities.',
  },
  AUDIENCE_TOO_SMALL: {
    status: 422,
    recovery: 'correctable',
    message: 'The audience is below the minimum size for targeting.',
  },
  ACCOUNT_NOT_FOUND: { status: 404, recovery: 'terminal', message: 'The account reference could not be resolved.' },
  ACCOUNT_SETUP_REQUIRED: { status: 403, recovery: 'correctable', message: 'The account needs setup before use.' },
  ACCOUNT_AMBIGUOUS: {
    status: 400,
    recovery: 'correctable',
    message: 'The account reference matches several accounts; pass an account_id.',
  },
  ACCOUNT_PAYMENT_REQUIRED: { status: 402, recovery: 'terminal', message: 'The account has an outstanding balance.' },
  ACCOUNT_SUSPENDED: { status: 403, recovery: 'terminal', message: 'The account is suspended.' },
  COMPLIANCE_UNSATISFIED: {
    status: 422,
    recovery: 'correctable',
    message: 'The format cannot satisfy a required disclosure of the brief.',
  },
  GOVERNANCE_DENIED: { status: 403, recovery: 'correctable', message: 'A governance agent denied the transaction.' },
  BUDGET_EXHAUSTED: { status: 402, recovery: 'terminal', message: 'The account or campaign budget is spent.' },
  BUDGET_EXCEEDED: {
    status: 422,
    recovery: 'correctable',
    message: 'The operation would exceed the allocated budget.',
  },
  CONFLICT: { status: 409, recovery: 'transient', message: 'The resource changed concurrently; re-read it and retry.' },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    recovery: 'correctable',
    message: 'This idempotency_key was used with a different payload.',
  },
  IDEMPOTENCY_EXPIRED: {
    status: 409,
    recovery: 'correctable',
    message: 'This idempotency_key is older than the replay window; use a new key.',
  },
  CREATIVE_DEADLINE_EXCEEDED: {
    status: 422,
    recovery: 'correctable',
    message: 'The creative change came after the package’s creative_deadline.',
  },
  INVALID_STATE: {
    status: 409,
    recovery: 'correctable',
    message: 'The operation is not permitted in the resource’s current status.',
  },
  MEDIA_BUY_NOT_FOUND: { status: 404, recovery: 'correctable', message: 'No such media buy for this caller.' },
  NOT_CANCELLABLE: {
    status: 409,
    recovery: 'correctable',
    message: 'The media buy or package cannot be canceled in its current state.',
  },
  PACKAGE_NOT_FOUND: { status: 404, recovery: 'correctable', message: 'No such package in this media buy.' },
  CREATIVE_NOT_FOUND: { status: 404, recovery: 'correctable', message: 'No such creative in the library.' },
  SIGNAL_NOT_FOUND: { status: 404, recovery: 'correctable', message: 'No such signal for this caller.' },
  SESSION_NOT_FOUND: { status: 404, recovery: 'correctable', message: 'No such session; initiate a new one.' },
  PLAN_NOT_FOUND: { status: 404, recovery: 'correctable', message: 'No such governance plan for this caller.' },
  REFERENCE_NOT_FOUND: {
    status: 404,
    recovery: 'correctable',
    message: 'A referenced resource does not exist or is not accessible.',
  },
  SESSION_TERMINATED: {
    status: 410,
    recovery: 'correctable',
    message: 'The session was terminated; initiate a new one.',
  },
  VALIDATION_ERROR: {
    status: 422,
    recovery: 'correctable',
    message: 'A field value is invalid or breaks a business rule.',
  },
  PRODUCT_EXPIRED: { status: 410, recovery: 'correctable', message: 'A referenced product has expired.' },
  PROPOSAL_NOT_COMMITTED: {
    status: 409,
    recovery: 'correctable',
    message: 'The proposal is still a draft; finalize it first.',
  },
  IO_REQUIRED: {
    status: 422,
    recovery: 'correctable',
    message: 'The proposal requires a signed insertion order (io_acceptance).',
  },
  TERMS_REJECTED: { status: 422, recovery: 'correctable', message: 'The proposed measurement_terms were rejected.' },
  REQUOTE_REQUIRED: {
    status: 409,
    recovery: 'correctable',
    message: 'The change leaves the envelope the quote was priced against; re-quote first.',
  },
  VERSION_UNSUPPORTED: {
    status: 400,
    recovery: 'correctable',
    message: 'This agent does not support the requested ap_major_version.',
  },
  CAMPAIGN_SUSPENDED: {
    status: 409,
    recovery: 'transient',
    message: 'The campaign is suspended pending human review.',
  },
  GOVERNANCE_UNAVAILABLE: {
    status: 503,
    recovery: 'transient',
    message: 'The governance agent is unreachable; retry with backoff.',
  },
  PERMISSION_DENIED: { status: 403, recovery: 'correctable', message: 'The caller is not authorized for this action.' },
  // The agent-tasks spec's codes (section 7) beyond the vocabulary, and our own.
  UNAUTHORIZED: { status: 401, recovery: 'correctable', message: 'Check the credentials.' },
  INVALID_FORMAT_ID: {
    status: 400,
    recovery: 'correctable',
    message: 'format_id must be an object with agent_url and id.',
  },
  FORMAT_NOT_SUPPORTED: { status: 404, recovery: 'correctable', message: 'This agent does not support that format.' },
  MANIFEST_INVALID: {
    status: 422,
    recovery: 'correctable',
    message: 'The creative manifest does not meet the format’s requirements.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    recovery: 'transient',
    message: 'A request with this idempotency_key is still running; retry shortly to get its result.',
  },
  SIGNAL_AGENT_SEGMENT_NOT_FOUND: { status: 404, recovery: 'correctable', message: 'Unknown signal_agent_segment_id.' },
  ACTIVATION_FAILED: { status: 502, recovery: 'transient', message: 'The signal could not be activated.' },
  ALREADY_ACTIVATED: { status: 409, recovery: 'correctable', message: 'The signal is already active on this target.' },
  DEPLOYMENT_UNAUTHORIZED: {
    status: 403,
    recovery: 'terminal',
    message: 'Not authorized for this platform or account.',
  },
  AGENT_NOT_FOUND: { status: 404, recovery: 'terminal', message: 'No such agent is visible to this principal.' },
  AGENT_ACCESS_DENIED: { status: 403, recovery: 'terminal', message: 'Not authorized for this agent.' },
  TASK_NOT_FOUND: { status: 404, recovery: 'correctable', message: 'No such task for this principal.' },
  INTERNAL_ERROR: { status: 500, recovery: 'transient', message: 'The agent failed to complete the task.' },
} as const satisfies Record<string, { status: number; recovery: Recovery; message: string }>;

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
