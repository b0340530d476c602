import type { Queryable } from '../../../db/database.ts';
import { firstRow } from '../../../db/first-row.ts';

export interface Scope {
  tenant: string;
  principal: string;
  account: string;
  key: string;
}

export interface IdempotencyRow {
  task: string;
  payload_hash: string;
  response: Record<string, unknown>;
  created_at: Date;
}

const where = 'tenant = $1 and principal = $2 and account = $3 and idempotency_key = $4';
const scopeParams = (s: Scope) => [s.tenant, s.principal, s.account, s.key];

/** The record of a key's first success; rows of the previous runtime's `running` state are gone (migration 0014). */
export async function find(db: Queryable, scope: Scope): Promise<IdempotencyRow | undefined> {
  return firstRow<IdempotencyRow>(
    db,
    `select task, payload_hash, response, created_at from idempotency_records where ${where} and state = 'succeeded'`,
    scopeParams(scope),
  );
}

/**
 * Takes the key's lock for the rest of the transaction without waiting (`locked` false when
 * another transaction, a duplicate in flight, holds it), and reads the key's record in the same
 * round trip. The lock is released at commit or rollback, or when a killed process's connection
 * drops. The read's snapshot is the statement's: a first request that committed between it and
 * the lock is not seen, runs again, and meets the primary key at its record (see runOnce).
 */
export async function lockAndFind(
  tx: Queryable,
  scope: Scope,
): Promise<{ locked: boolean; committed: IdempotencyRow | undefined }> {
  const [row] = await tx.query<IdempotencyRow & { locked: boolean }>(
    `select pg_try_advisory_xact_lock(hashtextextended($5, 0)) as locked, task, payload_hash, response, created_at
       from (select) as one left join idempotency_records on ${where} and state = 'succeeded'`,
    [...scopeParams(scope), JSON.stringify(['idempotency', ...scopeParams(scope)])],
  );
  const { locked, ...record } = row!;
  // Without a record, the outer join's columns are null.
  return { locked, committed: record.task === null ? undefined : record };
}

/** Records the first success; the primary key refuses a second one for the same scope. */
export async function record(
  tx: Queryable,
  scope: Scope,
  task: string,
  hash: string,
  response: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await tx.query(
    `insert into idempotency_records (tenant, principal, account, idempotency_key, task, payload_hash, state, response, created_at)
     values ($1, $2, $3, $4, $5, $6, 'succeeded', $7, $8)`,
    [...scopeParams(scope), task, hash, JSON.stringify(response), now],
  );
}

/** Deletes records created before `before`. */
export async function deleteOlderThan(db: Queryable, before: Date): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `with gone as (delete from idempotency_records where created_at < $1 returning 1) select count(*)::int as deleted from gone`,
    [before],
  );
  return row!.deleted;
}
