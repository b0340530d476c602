import { randomUUID } from 'node:crypto';
import { AgentError } from '../../../protocol/errors.ts';
import { idInput, publishedSchemas, type AgentTask, type TaskArguments } from '../../runtime/index.ts';
import type { TokenKeys } from '../tokens/token-keys.ts';
import type { IntentReads } from '../checks/intent-reads.ts';
import * as sql from '../sql.ts';

type Json = Record<string, unknown>;

interface OutcomeArgs extends TaskArguments {
  plan_id: string;
  governance_context: string;
  outcome: 'completed' | 'failed' | 'delivery';
  check_id?: string;
  purchase_type?: string;
  seller_response?: Json;
  delivery?: Json;
  error?: Json;
}

/**
 * `report_plan_outcome` (governance/report-plan-outcome-request.json): what happened to a governed
 * action after its check. `completed` sets what it committed (the seller's `committed_budget`,
 * else what its check reserved); `failed` releases the reservation; `delivery` adds the period's
 * spend. A commitment or spend past what the plan has left is accepted as reported (it happened)
 * and answered with `findings`.
 */
export function reportPlanOutcomeTask(keys: TokenKeys, reads: IntentReads): AgentTask<OutcomeArgs> {
  return {
    name: 'report_plan_outcome',
    description:
      'Report what happened after a governance check: completed (with the seller’s committed_budget), failed (releases the reservation) or delivery (period spend). Answers accepted, or findings when the plan’s budget is exceeded.',
    input: {
      type: 'object',
      properties: {
        plan_id: idInput,
        governance_context: { type: 'string', maxLength: 8192 },
        outcome: { type: 'string', enum: ['completed', 'failed', 'delivery'] },
      },
      required: ['plan_id', 'governance_context', 'outcome'],
      additionalProperties: true,
    },
    ...publishedSchemas('governance/report-plan-outcome'),
    mutates: true,
    async handler(args, ctx) {
      const token = await keys.own(ctx.db, args.governance_context, args.plan_id);
      reads.forget(ctx.clock.now().getTime());
      const plan = await sql.planById(ctx.db, token.ap_plan, true);
      const action = plan ? await sql.actionOf(ctx.db, plan.id, token.ap_action) : undefined;
      if (!plan || !action)
        throw new AgentError('PLAN_NOT_FOUND', `No plan ${args.plan_id} is accessible to this caller.`, {
          field: 'plan_id',
        });
      if (plan.status === 'suspended')
        throw new AgentError('CAMPAIGN_SUSPENDED', `The plan ${args.plan_id} is suspended pending human review.`);

      const { committedByOthers } = await sql.budgetState(ctx.db, plan.id, action.action_id, null);
      const total = plan.plan.budget.total;
      const currency = plan.plan.budget.currency;
      const reported = number(args.seller_response?.['committed_budget']);
      const spend = number(args.delivery?.['spend']) ?? 0;
      const committed =
        args.outcome === 'completed'
          ? (reported ?? action.committed)
          : args.outcome === 'failed'
            ? 0
            : action.committed;
      const delivered = action.delivered + (args.outcome === 'delivery' ? spend : 0);
      const sellerReference = str(args.seller_response?.['seller_reference']);
      await sql.updateAction(ctx.db, plan.id, action.action_id, {
        committed,
        delivered,
        ...(args.outcome === 'failed' ? { status: 'completed' as const } : {}),
        ...(sellerReference ? { sellerReference } : {}),
      });
      const totalCommitted = committedByOthers + committed;
      const findings = [
        ...(totalCommitted > total
          ? [
              {
                category_id: 'budget_authority',
                severity: 'critical' as const,
                explanation: `The plan's commitments (${currency} ${totalCommitted}) are past its budget of ${currency} ${total}.`,
              },
            ]
          : []),
        ...(delivered > committed && args.outcome === 'delivery'
          ? [
              {
                category_id: 'delivery_drift',
                severity: 'warning' as const,
                explanation: `Delivered spend (${currency} ${delivered}) is past what the action committed (${currency} ${committed}).`,
              },
            ]
          : []),
      ];
      const outcomeId = `out_${randomUUID()}`;
      const now = ctx.clock.now();
      const status = findings.length ? 'findings' : 'accepted';
      await sql.appendLog(ctx.db, {
        id: outcomeId,
        plan: plan.id,
        type: 'outcome',
        at: now,
        entry: {
          id: outcomeId,
          type: 'outcome',
          timestamp: now.toISOString(),
          plan_id: plan.plan_id,
          outcome: args.outcome,
          committed_budget: committed,
          governance_context: args.governance_context,
          plan_hash: plan.plan_hash,
          purchase_type: action.purchase_type,
          outcome_status: status,
          ...(findings.length ? { findings } : {}),
        },
      });
      return {
        outcome_id: outcomeId,
        status,
        committed_budget: committed,
        ...(findings.length ? { findings } : {}),
        plan_summary: { total_committed: totalCommitted, budget_remaining: Math.max(0, total - totalCommitted) },
      };
    },
  };
}

function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
