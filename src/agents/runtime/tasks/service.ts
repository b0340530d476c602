import { randomUUID } from 'node:crypto';
import type { Principal } from '../../../auth/index.ts';
import type { Clock } from '../../../clock.ts';
import type { Database, Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import type { AgentTask, DeferOptions, Tenant } from '../task.ts';
import * as sql from './sql.ts';
import type { TaskOutcome, TaskRow } from './sql.ts';
import { enqueueWebhook, pushUrl } from './worker.ts';

export type { TaskOutcome, TaskRow, TaskStatus } from './sql.ts';

// Task ids are bare UUIDs, compared in lowercase; a sandbox caller's own ids (up to 128 characters) as given.
const uuidForm = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const maxTaskId = 128;

/** Whether `id` could name a task (anything else names none). */
export const isTaskId = (id: string): boolean => id.length > 0 && id.length <= maxTaskId;

const storedId = (id: string): string => (uuidForm.test(id) ? id.toLowerCase() : id);

/** How tasks' rows are keyed to their caller. */
export const principalKey = (principal: Principal): string => `${principal.kind}:${principal.subject}`;

/**
 * Accepts a long-running or deferred task inside `tx` (with its idempotency record when it
 * mutates): recorded as submitted, with the principal as it is now, for a worker to run (or, held,
 * for `completeTask`); the caller gets its id at once. An id the caller named that still names an
 * open task of its own is CONFLICT.
 */
export async function submitTask(
  tx: Queryable,
  clock: Clock,
  tenant: string,
  principal: Principal,
  task: string,
  args: Record<string, unknown>,
  options: DeferOptions = {},
): Promise<Record<string, unknown>> {
  const taskId = options.taskId ?? randomUUID();
  const row = {
    task_id: taskId,
    tenant,
    principal: principalKey(principal),
    caller: principal,
    task,
    arguments: args,
    held: options.held === true,
  };
  if (!(await sql.insert(tx, row, clock.now())))
    throw new AgentError('CONFLICT', `Task ${taskId} is still open; finish or cancel it before naming it again.`, {
      field: 'task_id',
    });
  return {
    ...options.answer,
    task_id: taskId,
    status: 'submitted',
    ...(options.message ? { message: options.message } : {}),
  };
}

/**
 * Finishes the caller's held task (see DeferOptions.held) with its result or error, and queues its
 * webhook in the same transaction: sent once, signed, even if this process stops right after.
 * TASK_NOT_FOUND when the caller has no such task; INVALID_STATE when it is not an open held one.
 */
export async function completeTask(
  tx: Queryable,
  clock: Clock,
  tenant: string,
  principal: Principal,
  taskId: string,
  outcome: TaskOutcome,
): Promise<TaskRow> {
  const found = await findTask(tx, tenant, principal, taskId);
  const row = await sql.completeHeld(tx, tenant, principalKey(principal), found.task_id, outcome, clock.now());
  if (!row)
    throw new AgentError(
      'INVALID_STATE',
      `Task ${taskId} is ${found.status}${found.status === 'submitted' || found.status === 'working' ? ' and runs on its own' : ''}; only an open task waiting for completion can be completed.`,
      { field: 'task_id' },
    );
  await enqueueWebhook(tx, row, outcome.status, outcome.result ?? { error: outcome.error }, clock.now());
  return row;
}

/** The caller's task, or TASK_NOT_FOUND. */
export async function findTask(db: Queryable, tenant: string, principal: Principal, taskId: string): Promise<TaskRow> {
  const row = isTaskId(taskId) ? await sql.find(db, tenant, principalKey(principal), storedId(taskId)) : undefined;
  if (!row) throw new AgentError('TASK_NOT_FOUND', undefined, { field: 'task_id' });
  return row;
}

export function listTasks(db: Queryable, tenant: string, principal: Principal, limit: number): Promise<TaskRow[]> {
  return sql.list(db, tenant, principalKey(principal), limit);
}

/**
 * Cancels the caller's open task: `abort` stops its handler if it runs in this process (another
 * instance's run sees the status at its next lease renewal); the status, and its webhook, are
 * written together. A task already canceled answers as it is; one that finished is INVALID_STATE.
 */
export async function cancelTask(
  db: Database,
  clock: Clock,
  tenant: string,
  principal: Principal,
  taskId: string,
  abort: (tenant: string, principal: string, taskId: string) => void,
): Promise<TaskRow> {
  if (!isTaskId(taskId)) throw new AgentError('TASK_NOT_FOUND', undefined, { field: 'task_id' });
  const id = storedId(taskId);
  abort(tenant, principalKey(principal), id);
  const outcome = await db.transaction(async (tx) => {
    const now = clock.now();
    const found = await sql.cancel(tx, tenant, principalKey(principal), id, now);
    if (found?.canceled) await enqueueWebhook(tx, found.row, 'canceled', { canceled: true }, now);
    return found;
  });
  if (!outcome) throw new AgentError('TASK_NOT_FOUND', undefined, { field: 'task_id' });
  if (!outcome.canceled && outcome.row.status !== 'canceled') {
    throw new AgentError('INVALID_STATE', `The task is ${outcome.row.status} and can no longer be canceled.`, {
      field: 'task_id',
    });
  }
  return outcome.row;
}

/** A task as core/tasks-get-response.json shapes it, with its `result` once it has one. */
export function tasksGetResponse(row: TaskRow, tenant: Tenant): Record<string, unknown> {
  return {
    task_id: row.task_id,
    task_type: row.task,
    protocol: (tenant.protocols[0] ?? 'media_buy').replaceAll('_', '-'),
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...(row.completed_at ? { completed_at: row.completed_at.toISOString() } : {}),
    has_webhook: pushUrl(row.arguments) !== undefined,
    ...(row.progress ? { progress: row.progress } : {}),
    ...(row.result ? { result: row.result } : {}),
    ...(row.error ? { error: row.error } : {}),
  };
}

const taskIdInput = {
  type: 'object',
  properties: { task_id: { type: 'string', minLength: 1, maxLength: maxTaskId } },
  required: ['task_id'],
};

/** `get_task`: a caller polls its own long-running task (the protocol's `tasks/get`). */
export function getTaskTask(): AgentTask {
  return {
    name: 'get_task',
    description:
      'Status of a long-running task this caller started (core/tasks-get-response.json), with progress while it works and its result once completed.',
    input: {
      ...taskIdInput,
      properties: {
        ...taskIdInput.properties,
        include_history: { type: 'boolean' },
        ap_major_version: { type: 'integer' },
        context: { type: 'object' },
        ext: { type: 'object' },
      },
    },
    mutates: false,
    async handler(args, ctx) {
      return tasksGetResponse(
        await findTask(ctx.db, ctx.tenant.name, ctx.principal, String(args['task_id'])),
        ctx.tenant,
      );
    },
  };
}

/**
 * `cancel_task`: cancels a long-running task this caller started. Not keyed by `idempotency_key`:
 * canceling twice answers the canceled task twice.
 */
export function cancelTaskTask(
  db: Database,
  abort: (tenant: string, principal: string, taskId: string) => void,
): AgentTask {
  return {
    name: 'cancel_task',
    description:
      'Cancels a long-running task this caller started; its handler stops and nothing it did is kept. Answers the task as get_task does.',
    input: {
      ...taskIdInput,
      properties: { ...taskIdInput.properties, context: { type: 'object' }, ext: { type: 'object' } },
    },
    mutates: false,
    async handler(args, ctx) {
      const row = await cancelTask(db, ctx.clock, ctx.tenant.name, ctx.principal, String(args['task_id']), abort);
      // Its `canceled` webhook (when the caller asked for webhooks) is committed: send it now, not at the next poll.
      ctx.webhooksQueued();
      return tasksGetResponse(row, ctx.tenant);
    },
  };
}
