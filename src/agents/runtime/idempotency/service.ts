import type { Clock } from '../../../clock.ts';
import type { Database, Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { payloadHash } from './hash.ts';
import * as sql from './sql.ts';
import type { IdempotencyRow, Scope } from './sql.ts';

export interface IdempotencySettings {
  clock: Clock;
  /** How long a first response is replayed (advertised as `replay_ttl_seconds`). */
  replayTtlSeconds: number;
}

/**
 * The published request schemas' key: 16 to 255 of these characters. The spec asks clients for a
 * UUID v4, which this allows; buyers' tools also send readable keys (`invalid-transitions-setup-v1`).
 */
export const idempotencyKeyPattern = '^[A-Za-z0-9_.:-]{16,255}$';
const keyForm = new RegExp(idempotencyKeyPattern);
const uuidForm = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The key a mutating request must carry, as stored: a UUID in either case is one UUID, so it is
 * lowercased; any other key is compared exactly.
 */
export function requireKey(args: Record<string, unknown>): string {
  const key = args['idempotency_key'];
  if (typeof key !== 'string' || !keyForm.test(key)) {
    throw new AgentError(
      'INVALID_REQUEST',
      'idempotency_key is required on mutating requests: 16 to 255 letters, digits, or _ . : - (a UUID v4 is best).',
      {
        field: 'idempotency_key',
        suggestion: 'Generate one with crypto.randomUUID() and reuse it only to retry the same request.',
      },
    );
  }
  return uuidForm.test(key) ? key.toLowerCase() : key;
}

/**
 * Runs `execute` once per key, in ONE transaction with the record of its success: a crash before
 * the commit leaves neither the effect nor the record (a retry runs it), a crash after leaves both
 * (a retry replays it). A duplicate with the same payload gets the first success again with
 * `replayed: true`; one that arrives while the first is still running answers SERVICE_UNAVAILABLE
 * with `retry_after` (it does not wait on the first's lock); a different payload is
 * IDEMPOTENCY_CONFLICT, a key past the window IDEMPOTENCY_EXPIRED. Failures roll back and are not
 * recorded, so a failed request may be retried with its key.
 */
export async function runOnce(
  db: Database,
  settings: IdempotencySettings,
  scope: Scope,
  task: string,
  args: Record<string, unknown>,
  execute: (tx: Queryable, prepared: unknown) => Promise<Record<string, unknown>>,
  /** Work before the transaction (the task's `prepare`), whose result `execute` gets; skipped for a replay. */
  prepare?: () => Promise<unknown>,
): Promise<Record<string, unknown>> {
  const hash = payloadHash(args);
  const now = settings.clock.now();
  const replay = (row: IdempotencyRow) => {
    const age = (now.getTime() - row.created_at.getTime()) / 1000;
    if (age > settings.replayTtlSeconds)
      throw new AgentError('IDEMPOTENCY_EXPIRED', undefined, { field: 'idempotency_key' });
    // The catalogue's message only: neither payload is echoed.
    if (row.payload_hash !== hash || row.task !== task)
      throw new AgentError('IDEMPOTENCY_CONFLICT', undefined, { field: 'idempotency_key' });
    return { ...row.response, replayed: true };
  };
  // A replay skips the work before the transaction; without any, the read under the lock suffices.
  let prepared: unknown;
  if (prepare) {
    const seen = await sql.find(db, scope);
    if (seen) return replay(seen);
    prepared = await prepare();
  }
  try {
    return await db.transaction(async (tx) => {
      const { locked, committed } = await sql.lockAndFind(tx, scope);
      if (!locked) {
        throw new AgentError(
          'SERVICE_UNAVAILABLE',
          'A request with this idempotency_key is still running; retry shortly to get its result.',
          {
            field: 'idempotency_key',
            retryAfter: 1,
          },
        );
      }
      // Read again with the lock: the first may have committed since.
      if (committed) return replay(committed);
      const response = { ...(await execute(tx, prepared)), replayed: false };
      await sql.record(tx, scope, task, hash, response, now);
      return response;
    });
  } catch (err) {
    // A duplicate that raced past the lock (it cannot, but the primary key is the last word)
    // rolled its effect back: answer what the first recorded.
    if ((err as { code?: unknown }).code === '23505') {
      const first = await sql.find(db, scope);
      if (first) return replay(first);
    }
    throw err;
  }
}

/** Deletes records created before `before` (their keys then count as never seen). */
export function pruneRecords(db: Database, before: Date): Promise<number> {
  return sql.deleteOlderThan(db, before);
}
