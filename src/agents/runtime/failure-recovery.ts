import { databaseUnreachable } from '../../db/unavailable.ts';
import type { Recovery } from '../../protocol/errors.ts';

// Beyond a database out of reach: PostgreSQL's SQLSTATE classes a retry can outlive, transaction
// rollbacks such as serialization failures and deadlocks (40), insufficient resources (53),
// operator intervention (57), system errors (58); and a lock not available.
const transientSqlStates = /^(40|53|57|58)...$|^55P03$/;
// Node's system errors of a name or a resource that may come back.
const transientSystemErrors = new Set(['EAI_AGAIN', 'EMFILE', 'ENFILE', 'EBUSY']);

/**
 * The recovery of a failure the task did not foresee (answered INTERNAL_ERROR). A failure of the
 * database or the network may pass, so the caller may retry it (transient). Anything else is a
 * fault this request meets again each time it is sent, a defect to report (terminal): a caller
 * that retried it would only repeat the failure.
 */
export function failureRecovery(err: unknown): Recovery {
  const error = err instanceof Error ? err : undefined;
  if (!error) return 'terminal';
  if (databaseUnreachable(error)) return 'transient';
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'transient';
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (transientSqlStates.test(code) || transientSystemErrors.has(code)))
    return 'transient';
  return error.cause === undefined || error.cause === err ? 'terminal' : failureRecovery(error.cause);
}
