import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import type { AgentTask } from '../task.ts';
import * as sql from './sql.ts';

/** Accepts a long-running task: recorded as submitted for a worker to run; the caller gets its id at once. */
export async function submitTask(db: Database, clock: Clock, tenant: string, principal: string, task: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const taskId = randomUUID();
  await sql.insert(db, { task_id: taskId, tenant, principal, task, arguments: args }, clock.now());
  return { task_id: taskId, status: 'submitted' };
}

/** `get_task`: a caller polls its own long-running task. */
export function getTaskTask(db: Database, tenant: string): AgentTask {
  return {
    name: 'get_task',
    description: 'Status of a long-running task this caller started, with its result once completed.',
    input: { type: 'object', properties: { task_id: { type: 'string', format: 'uuid' } }, required: ['task_id'], additionalProperties: false },
    mutates: false,
    async handler(args, ctx) {
      const row = await sql.find(db, tenant, `${ctx.principal.kind}:${ctx.principal.subject}`, String(args['task_id']).toLowerCase());
      if (!row) throw new AgentError('TASK_NOT_FOUND', undefined, { field: 'task_id' });
      return {
        task_id: row.task_id,
        task_type: row.task,
        status: row.status,
        ...(row.result ? { result: row.result } : {}),
        ...(row.error ? { error: row.error } : {}),
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
      };
    },
  };
}
