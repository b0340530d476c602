/** Why an outbound fetch did not produce a response. Stable: callers branch and report on these. */
export const fetchErrorReasons = [
  'invalid_url',
  'unsupported_scheme',
  'credentials_in_url',
  'forbidden_address',
  'dns_failure',
  'too_many_redirects',
  'redirect_refused',
  'timeout',
  'too_large',
  'connection_failed',
] as const;

export type FetchErrorReason = (typeof fetchErrorReasons)[number];

export interface FetchErrorOptions {
  host?: string;
  /** For `forbidden_address`: the range of the refused address (`loopback`, `private`, ...). */
  range?: string;
  cause?: unknown;
}

/** The one error an outbound fetch throws; a non-2xx response is not an error. */
export class FetchError extends Error {
  override name = 'FetchError';
  readonly reason: FetchErrorReason;
  readonly host: string | undefined;
  readonly range: string | undefined;

  constructor(reason: FetchErrorReason, message: string, options: FetchErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.reason = reason;
    this.host = options.host;
    this.range = options.range;
  }
}
