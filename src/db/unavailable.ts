/** PostgreSQL's SQLSTATEs of a database that cannot be reached now: connection exceptions (08), a shutdown or a start (57P01–57P03). */
const unreachableSqlStates = /^08...$|^57P0[123]$/;
/** Node's system errors of a connection refused, cut or never answered. */
const unreachableSystemErrors = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** node-postgres says a connection or the pool gave out by message alone. */
const unreachableMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/i;

/**
 * Whether `err` (or what caused it) says the database cannot be reached right now: restarting,
 * failed over, or the network to it down. Such a request was not carried out, and the same request
 * may succeed in a moment: it is answered 503 with Retry-After, never 500.
 */
export function databaseUnreachable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (unreachableSqlStates.test(code) || unreachableSystemErrors.has(code))) return true;
    if (unreachableMessages.test(e.message)) return true;
    // Several connection attempts failing at once (an AggregateError of ECONNREFUSED, one per address).
    if (e instanceof AggregateError && e.errors.some((inner) => databaseUnreachable(inner))) return true;
  }
  return false;
}

/** How long a caller is told to wait before retrying while the database is unreachable. */
export const unreachableRetryAfterSeconds = 5;
