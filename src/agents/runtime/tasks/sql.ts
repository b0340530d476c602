import type { Queryable } from '../../../db/database.ts';

export interface TaskRow {
  task_id: string;
  tenant: string;
  principal: string;
  task: string;
  arguments: Record<string, unknown>;
  status: 'submitted' | 'working' | 'completed' | 'failed';
  result: Record<string, unknown> | null;
  error: Record<string, unknown> | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
}

const columns = 'task_id, tenant, principal, task, arguments, status, result, error, attempts, created_at, updated_at';

export async function insert(db: Queryable, row: { task_id: string; tenant: string; principal: string; task: string; arguments: Record<string, unknown> }, now: Date): Promise<void> {
  await db.query(
    `insert into agent_tasks (task_id, tenant, principal, task, arguments, status, created_at, updated_at) values ($1, $2, $3, $4, $5, 'submitted', $6, $6)`,
    [row.task_id, row.tenant, row.principal, row.task, JSON.stringify(row.arguments), now],
  );
}

/** Takes the oldest runnable task of these tenants (submitted, or working with a lapsed lease) and leases it. */
export async function claimNext(db: Queryable, tenants: readonly string[], now: Date, leaseUntil: Date): Promise<TaskRow | undefined> {
  const [row] = await db.query<TaskRow>(
    `update agent_tasks set status = 'working', lease_until = $3, attempts = attempts + 1, updated_at = $2
     where task_id = (
       select task_id from agent_tasks
       where tenant = any($1::text[]) and (status = 'submitted' or (status = 'working' and lease_until < $2))
       order by created_at limit 1 for update skip locked)
     returning ${columns}`,
    [tenants, now, leaseUntil],
  );
  return row;
}

export async function finish(db: Queryable, taskId: string, outcome: { status: 'completed' | 'failed'; result?: Record<string, unknown>; error?: Record<string, unknown> }, now: Date): Promise<void> {
  await db.query(`update agent_tasks set status = $2, result = $3, error = $4, lease_until = null, updated_at = $5 where task_id = $1`, [
    taskId,
    outcome.status,
    outcome.result ? JSON.stringify(outcome.result) : null,
    outcome.error ? JSON.stringify(outcome.error) : null,
    now,
  ]);
}

export async function find(db: Queryable, tenant: string, principal: string, taskId: string): Promise<TaskRow | undefined> {
  const [row] = await db.query<TaskRow>(`select ${columns} from agent_tasks where task_id = $1 and tenant = $2 and principal = $3`, [taskId, tenant, principal]);
  return row;
}

/** Deletes finished tasks last updated before `before`. */
export async function deleteFinishedBefore(db: Queryable, before: Date): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `with gone as (delete from agent_tasks where status in ('completed', 'failed') and updated_at < $1 returning 1) select count(*)::int as deleted from gone`,
    [before],
  );
  return row!.deleted;
}
