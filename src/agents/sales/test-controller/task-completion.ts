import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { validateSchema } from '../../../protocol/schemas.ts';
import { completeTask, findTask } from '../../runtime/index.ts';
import { Refusal, type Answer, type Scope } from './scope.ts';

/** The response schema a completed task's result must meet, by the task it completes (the only one this agent holds). */
const resultSchemas: Record<string, string> = {
  create_media_buy: '/schemas/3.0.6/media-buy/create-media-buy-response.json',
};
/** The schema lets a seller refuse larger results. */
const maxResultBytes = 256 * 1024;

/**
 * force_task_completion: completes the caller's held task (a forced submitted create) with the
 * given result, delivered verbatim by the task's webhook, which is queued in the same transaction.
 * The task must have been made for this sandbox account; its result must be a completion of its
 * task (the response schema's success or error branch, not another submitted envelope). A task
 * no longer held open (completed, failed, canceled) is INVALID_TRANSITION, as the protocol asks.
 */
export async function forceTaskCompletion({ ctx, params, account }: Scope): Promise<Answer> {
  const taskId = params['task_id'] as string;
  const result = params['result'] as Record<string, unknown>;
  if (Buffer.byteLength(JSON.stringify(result)) > maxResultBytes)
    throw new Refusal('INVALID_PARAMS', `result is larger than ${maxResultBytes / 1024} KB.`);
  await ctx.atomically(async (tx) => {
    const row = await completeTask(tx, ctx.clock, ctx.tenant.name, ctx.principal, taskId, {
      status: 'completed',
      result,
    }).catch(async (err: unknown) => {
      // A task that is not held open (already completed, failed or canceled) cannot move to completed.
      if (err instanceof AgentError && err.code === 'INVALID_STATE')
        throw new Refusal(
          'INVALID_TRANSITION',
          err.message,
          (await findTask(tx, ctx.tenant.name, ctx.principal, taskId)).status,
        );
      if (err instanceof AgentError && err.code === 'TASK_NOT_FOUND')
        throw new Refusal('NOT_FOUND', `Task ${taskId} was not found.`, null);
      throw err;
    });
    // Checked once the task is known; a refusal rolls its completion and webhook back.
    if (!(await madeFor(ctx, tx, row.arguments['account'], account.account_id)))
      throw new Refusal('NOT_FOUND', `Task ${taskId} was not found in account ${account.account_id}.`, null);
    const schema = resultSchemas[row.task];
    if (!schema)
      throw new Refusal(
        'INVALID_PARAMS',
        `Task ${taskId} is a ${row.task} task, which this controller does not complete.`,
      );
    const [issue] = validateSchema(schema, result).errors;
    if (issue)
      throw new Refusal('INVALID_PARAMS', `result is not a ${row.task} response: ${issue.path} ${issue.message}.`);
    if (result['status'] === 'submitted')
      throw new Refusal('INVALID_PARAMS', 'result is another submitted envelope, not a completion.');
  });
  ctx.webhooksQueued();
  // This agent holds a task only as submitted (a forced create), so that is what it leaves.
  return {
    success: true,
    previous_state: 'submitted',
    current_state: 'completed',
    message: `Task ${taskId} completed; its webhook carries the result.`,
  };
}

/** Whether the account the task was called with is this sandbox account, resolved as it would be now. */
async function madeFor(ctx: Scope['ctx'], tx: Queryable, ref: unknown, accountId: string): Promise<boolean> {
  if (!ref || typeof ref !== 'object' || !ctx.tenant.resolveAccount) return false;
  const resolved = await ctx.tenant
    .resolveAccount(ref as Record<string, unknown>, { db: tx, principal: ctx.principal })
    .catch((err: unknown) => {
      if (err instanceof AgentError) return undefined;
      throw err;
    });
  return resolved?.account_id === accountId;
}
