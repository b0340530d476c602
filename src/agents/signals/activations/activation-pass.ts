import type { Principal } from '../../../auth/index.ts';
import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { completeTask, findTask, type TenantPass } from '../../runtime/index.ts';
import { activationDeployment } from '../deployments.ts';
import { platformSegmentId } from './activation-keys.ts';
import { claimDue, dropPending, markLive, taskActivations } from './sql.ts';

const batch = 100;

/**
 * Completes platform activations as they fall due: each goes live with its segment id, and a
 * call's task is completed (with its webhook) when the last of its activations is live, in the
 * same transaction. Activations of a task its caller canceled are dropped instead.
 */
export function activationPass(tenant: string, intervalMs: number): TenantPass {
  return {
    name: 'activations',
    intervalMs,
    async run({ db, clock, webhooksQueued }) {
      let queued = false;
      let claimed = batch;
      while (claimed === batch) {
        claimed = await db.transaction(async (tx) => {
          const now = clock.now();
          const due = await claimDue(tx, tenant, now, batch);
          const tasks = new Map<string, { owner: string; caller: Principal }>();
          for (const row of due) {
            const caller = {
              kind: row.caller.kind as Principal['kind'],
              subject: row.caller.subject,
              displayName: row.caller.subject,
            };
            if (row.task_id && !tasks.has(row.task_id)) {
              if (await abandoned(tx, tenant, caller, row.task_id)) {
                await dropPending(tx, tenant, row.owner, row.task_id);
                continue;
              }
              tasks.set(row.task_id, { owner: row.owner, caller });
            }
            const platform = row.destination.type === 'platform' ? row.destination.platform : 'agent';
            await markLive(
              tx,
              tenant,
              row.owner,
              row.signal_agent_segment_id,
              row.target,
              platformSegmentId(platform, row.owner, row.signal_agent_segment_id, row.target),
              now,
            );
          }
          for (const [taskId, { owner, caller }] of tasks) {
            const rows = await taskActivations(tx, tenant, owner, taskId);
            if (rows.some((r) => !r.deployed_at)) continue;
            await completeTask(tx, clock, tenant, caller, taskId, {
              status: 'completed',
              result: { deployments: rows.map((r) => activationDeployment(r, now)) },
            });
            queued = true;
          }
          return due.length;
        });
      }
      if (queued) webhooksQueued();
    },
  };
}

/**
 * Whether the call's task was canceled, or is gone: finished tasks are pruned after some replay
 * windows, and a canceled one may go before its activation falls due (a long platform time, or a
 * deployment stopped meanwhile). Either way nobody waits for it, and it must not stop the pass.
 */
async function abandoned(tx: Queryable, tenant: string, caller: Principal, taskId: string): Promise<boolean> {
  try {
    return (await findTask(tx, tenant, caller, taskId)).status === 'canceled';
  } catch (err) {
    if (err instanceof AgentError && err.code === 'TASK_NOT_FOUND') return true;
    throw err;
  }
}
