import type { ForcedArm, TakeForcedArm } from '../media-buys/index.ts';
import { Refusal, type Answer, type Scope } from './scope.ts';
import * as sql from './sql.ts';

/**
 * force_create_media_buy_arm: the sandbox account's next create_media_buy answers the named arm
 * instead of booking (see media-buys' forcedAnswer); a newer directive replaces one not yet used.
 */
export async function forceCreateMediaBuyArm({ ctx, params, account, now }: Scope): Promise<Answer> {
  const arm = params['arm'] as ForcedArm['arm'];
  // The task id is the submitted arm's alone (the schema echoes it for that arm only).
  const taskId = arm === 'submitted' ? (params['task_id'] as string) : null;
  if (taskId === '') throw new Refusal('INVALID_PARAMS', 'task_id must not be empty.');
  const message = (params['message'] as string | undefined) ?? null;
  await sql.putForcedArm(ctx.db, account.account_id, { arm, task_id: taskId, message }, now);
  return {
    success: true,
    forced: { arm, ...(taskId === null ? {} : { task_id: taskId }) },
    message: `The next create_media_buy of account ${account.account_id} answers ${arm}${taskId === null ? '' : ` with task_id ${taskId}`}.`,
  };
}

/** The account's directive, consumed: in create_media_buy's transaction, so only a create that commits uses it up. */
export const takeForcedArm: TakeForcedArm = (db, accountId) => sql.takeForcedArm(db, accountId);
