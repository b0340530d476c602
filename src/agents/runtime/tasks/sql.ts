import type { Principal } from '../../../auth/index.ts';
import type { Queryable } from '../../../db/database.ts';
import { firstRow } from '../../../db/first-row.ts';
import type { TaskProgress } from '../task.ts';

export type TaskStatus = 'submitted' | 'working' | 'input-required' | 'completed' | 'failed' | 'canceled';
export type TaskOutcome = {
  status: 'completed' | 'failed' | 'input-required';
  result?: Record<string, unknown>;
  error?: Record<string, unknown>;
};

export interface TaskRow {
  task_id: string;
  tenant: string;
  principal: string;
  /** The principal of the accepting call; null on tasks accepted before migration 0014. */
  caller: Principal | null;
  task: string;
  arguments: Record<string, unknown>;
  status: TaskStatus;
  result: Record<string, unknown> | null;
  error: Record<string, unknown> | null;
  progress: TaskProgress | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

const columns =
  'task_id, tenant, principal, caller, task, arguments, status, result, error, progress, attempts, created_at, updated_at, completed_at';
const open = `('submitted', 'working', 'input-required')`;

/**
 * Records a submitted task; false (nothing written) when the caller has an open task of that id.
 * A finished one of that id (a sandbox caller naming its ids) is replaced.
 */
export async function insert(
  db: Queryable,
  row: {
    task_id: string;
    tenant: string;
    principal: string;
    caller: Principal;
    task: string;
    arguments: Record<string, unknown>;
    held: boolean;
  },
  now: Date,
): Promise<boolean> {
  await db.query(
    `delete from agent_tasks where tenant = $1 and principal = $2 and task_id = $3 and status not in ${open}`,
    [row.tenant, row.principal, row.task_id],
  );
  const inserted = await db.query(
    `insert into agent_tasks (task_id, tenant, principal, caller, task, arguments, status, held, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, 'submitted', $7, $8, $8)
     on conflict do nothing returning 1`,
    [
      row.task_id,
      row.tenant,
      row.principal,
      JSON.stringify(row.caller),
      row.task,
      JSON.stringify(row.arguments),
      row.held,
      now,
    ],
  );
  return inserted.length === 1;
}

/** Finishes the caller's held task with `outcome`; the row as finished, or undefined when it has no open held task of that id. */
export async function completeHeld(
  db: Queryable,
  tenant: string,
  principal: string,
  taskId: string,
  outcome: TaskOutcome,
  now: Date,
): Promise<TaskRow | undefined> {
  return firstRow<TaskRow>(
    db,
    `update agent_tasks set status = $4, result = $5, error = $6, updated_at = $7, completed_at = case when $4 = 'input-required' then null else $7::timestamptz end
     where tenant = $1 and principal = $2 and task_id = $3 and held and status in ${open} returning ${columns}`,
    [
      tenant,
      principal,
      taskId,
      outcome.status,
      outcome.result ? JSON.stringify(outcome.result) : null,
      outcome.error ? JSON.stringify(outcome.error) : null,
      now,
    ],
  );
}

/**
 * Takes the oldest runnable task of these tenants (submitted, or working with a lapsed lease) and
 * leases it, counting the attempt.
 */
export async function claimNext(
  db: Queryable,
  tenants: readonly string[],
  now: Date,
  leaseUntil: Date,
): Promise<TaskRow | undefined> {
  return firstRow<TaskRow>(
    db,
    `update agent_tasks set status = 'working', lease_until = $3, attempts = attempts + 1, updated_at = $2
     where (tenant, principal, task_id) = (
       select tenant, principal, task_id from agent_tasks
       where tenant = any($1::text[]) and not held and (status = 'submitted' or (status = 'working' and lease_until < $2))
       order by created_at limit 1 for update skip locked)
     returning ${columns}`,
    [tenants, now, leaseUntil],
  );
}

/**
 * Extends the lease of the run that holds it (and records its progress); false when the run no
 * longer holds the task: it was canceled, or its lease lapsed and another run took it.
 */
export async function renew(
  db: Queryable,
  taskId: string,
  attempt: number,
  leaseUntil: Date,
  progress: TaskProgress | undefined,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `update agent_tasks set lease_until = $3, progress = coalesce($4, progress), updated_at = $5
     where task_id = $1 and attempts = $2 and status = 'working' returning 1`,
    [taskId, attempt, leaseUntil, progress ? JSON.stringify(progress) : null, now],
  );
  return rows.length === 1;
}

/** Writes the outcome of the run that holds the task; false (nothing written) when it no longer does. */
export async function finish(
  db: Queryable,
  taskId: string,
  attempt: number,
  outcome: TaskOutcome,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `update agent_tasks set status = $3, result = $4, error = $5, lease_until = null, updated_at = $6,
       completed_at = case when $3 = 'input-required' then null else $6::timestamptz end
     where task_id = $1 and attempts = $2 and status = 'working' returning 1`,
    [
      taskId,
      attempt,
      outcome.status,
      outcome.result ? JSON.stringify(outcome.result) : null,
      outcome.error ? JSON.stringify(outcome.error) : null,
      now,
    ],
  );
  return rows.length === 1;
}

/** Cancels the caller's task if it is still open; the row as it now stands, canceled or not. */
export async function cancel(
  db: Queryable,
  tenant: string,
  principal: string,
  taskId: string,
  now: Date,
): Promise<{ row: TaskRow; canceled: boolean } | undefined> {
  const [canceled] = await db.query<TaskRow>(
    `update agent_tasks set status = 'canceled', lease_until = null, updated_at = $4, completed_at = $4
     where task_id = $1 and tenant = $2 and principal = $3 and status in ${open} returning ${columns}`,
    [taskId, tenant, principal, now],
  );
  if (canceled) return { row: canceled, canceled: true };
  const row = await find(db, tenant, principal, taskId);
  return row ? { row, canceled: false } : undefined;
}

export async function find(
  db: Queryable,
  tenant: string,
  principal: string,
  taskId: string,
): Promise<TaskRow | undefined> {
  return firstRow<TaskRow>(
    db,
    `select ${columns} from agent_tasks where task_id = $1 and tenant = $2 and principal = $3`,
    [taskId, tenant, principal],
  );
}

/** The caller's tasks, newest first. */
export async function list(db: Queryable, tenant: string, principal: string, limit: number): Promise<TaskRow[]> {
  return db.query<TaskRow>(
    `select ${columns} from agent_tasks where tenant = $1 and principal = $2 order by created_at desc limit $3`,
    [tenant, principal, limit],
  );
}

/** Deletes finished tasks last updated before `before`. */
export async function deleteFinishedBefore(db: Queryable, before: Date): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `with gone as (delete from agent_tasks where status in ('completed', 'failed', 'canceled') and updated_at < $1 returning 1) select count(*)::int as deleted from gone`,
    [before],
  );
  return row!.deleted;
}
