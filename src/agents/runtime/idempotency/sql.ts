import type { Queryable } from '../../../db/database.ts';

export interface Scope {
  tenant: string;
  principal: string;
  account: string;
  key: string;
}

export interface IdempotencyRow {
  task: string;
  payload_hash: string;
  state: 'running' | 'succeeded';
  response: Record<string, unknown> | null;
  created_at: Date;
}

const where = 'tenant = $1 and principal = $2 and account = $3 and idempotency_key = $4';
const scopeParams = (s: Scope) => [s.tenant, s.principal, s.account, s.key];

/** Claims the key for a run; false when a record exists already. */
export async function claim(db: Queryable, scope: Scope, task: string, hash: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    `insert into idempotency_records (tenant, principal, account, idempotency_key, task, payload_hash, state, created_at)
     values ($1, $2, $3, $4, $5, $6, 'running', $7) on conflict do nothing returning 1`,
    [...scopeParams(scope), task, hash, now],
  );
  return rows.length === 1;
}

export async function find(db: Queryable, scope: Scope): Promise<IdempotencyRow | undefined> {
  const [row] = await db.query<IdempotencyRow>(`select task, payload_hash, state, response, created_at from idempotency_records where ${where}`, scopeParams(scope));
  return row;
}

export async function succeed(db: Queryable, scope: Scope, response: Record<string, unknown>): Promise<void> {
  await db.query(`update idempotency_records set state = 'succeeded', response = $5 where ${where}`, [...scopeParams(scope), JSON.stringify(response)]);
}

/** Forgets the claim made at `claimedAt` (its run failed, or its process died), and no other. */
export async function release(db: Queryable, scope: Scope, claimedAt: Date): Promise<void> {
  await db.query(`delete from idempotency_records where ${where} and state = 'running' and created_at = $5`, [...scopeParams(scope), claimedAt]);
}

/** Deletes records created before `before`. */
export async function deleteOlderThan(db: Queryable, before: Date): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `with gone as (delete from idempotency_records where created_at < $1 returning 1) select count(*)::int as deleted from gone`,
    [before],
  );
  return row!.deleted;
}
