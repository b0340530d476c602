import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { errorObject, type TaskContext } from '../../runtime/index.ts';

/** A sandbox test controller's directive for an account's next create_media_buy (force_create_media_buy_arm). */
export interface ForcedArm {
  arm: 'submitted' | 'input-required';
  /** The submitted arm's task id, as the caller named it. */
  task_id: string | null;
  message: string | null;
}

/**
 * Takes the account's directive, if it has one, in the caller's transaction: consumed by that
 * create only (a create that fails leaves it for the next). Given by the sales agent, so media
 * buys do not depend on the test controller.
 */
export type TakeForcedArm = (db: Queryable, accountId: string) => Promise<ForcedArm | undefined>;

/** Where no test controller is served: no create is ever forced. */
export const noForcedArms: TakeForcedArm = async () => undefined;

/**
 * What create_media_buy answers instead of booking: `submitted` under the named task id, held until
 * the controller's force_task_completion; `input-required` as the response's errors branch (the
 * buyer must act: an insertion order to sign).
 */
export function forcedAnswer(forced: ForcedArm, ctx: TaskContext) {
  if (forced.arm === 'submitted')
    return ctx.defer({ held: true, taskId: forced.task_id!, ...(forced.message ? { message: forced.message } : {}) });
  const message = forced.message ?? 'This media buy needs a signed insertion order before the seller can book it.';
  return { errors: [errorObject(new AgentError('IO_REQUIRED', message))] };
}
