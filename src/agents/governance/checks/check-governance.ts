import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import {
  idInput,
  ownerOf,
  publishedSchemas,
  type AgentTask,
  type TaskArguments,
  type TaskContext,
} from '../../runtime/index.ts';
import type { StoredPlan } from '../plans/plan.ts';
import * as sql from '../sql.ts';
import {
  executionTokenSeconds,
  intentTokenSeconds,
  type GovernanceClaims,
  type TokenPhase,
} from '../tokens/governance-token.ts';
import type { TokenKeys } from '../tokens/token-keys.ts';
import type { LogWriter } from '../audit/log-writer.ts';
import { evaluate, type Evaluation } from './evaluate.ts';
import type { IntentReads } from './intent-reads.ts';
import { intentProposal, plannedProposal, type Proposal } from './proposal.ts';

type Json = Record<string, unknown>;

interface CheckArgs extends TaskArguments {
  plan_id: string;
  caller: string;
  purchase_type?: string;
  tool?: string;
  payload?: Json;
  governance_context?: string;
  phase?: 'purchase' | 'modification' | 'delivery';
  planned_delivery?: Json;
  delivery_metrics?: Json;
  modification_summary?: string;
}

/** What checks share: the signing keys, intent checks' reads kept for a second, and the audit log's group-committing writer. */
export interface CheckDesk {
  keys: TokenKeys;
  reads: IntentReads;
  log: LogWriter;
}

/** How soon an approved execution check expects the seller's next delivery report. */
const deliveryCadenceMs = 7 * 24 * 3600 * 1000;

/**
 * `check_governance` (governance/check-governance-request.json). An intent check (`tool` +
 * `payload`, from the buyer's orchestrator) evaluates the intended action and commits nothing; an
 * execution check (`planned_delivery`, from the seller, with the buyer's `governance_context`)
 * evaluates what the seller will deliver and, approved at `purchase` or `modification`, reserves
 * its budget against the plan in the same transaction that read what is left (the plan's row is
 * locked, so two sellers cannot both take the last dollar); at `delivery` it records the spend and
 * denies drift past what was committed. Approvals carry a signed `governance_context`; every check
 * is written to the plan's audit log.
 */
export function checkGovernanceTask(desk: CheckDesk): AgentTask<CheckArgs> {
  const { keys } = desk;
  return {
    name: 'check_governance',
    description:
      'Check an action against a campaign plan. Intent check (buyer): tool + payload, commits nothing. Execution check (seller): planned_delivery + the buyer’s governance_context, phase purchase | modification | delivery; an approved purchase reserves its budget. Answers approved (with a signed governance_context), denied (with findings) or conditions.',
    input: {
      type: 'object',
      properties: {
        plan_id: idInput,
        caller: { type: 'string', maxLength: 2048, description: 'Your agent URL.' },
        tool: { type: 'string', maxLength: 255 },
        payload: { type: 'object' },
        governance_context: { type: 'string', maxLength: 8192 },
        phase: { type: 'string', enum: ['purchase', 'modification', 'delivery'] },
        planned_delivery: { type: 'object' },
        delivery_metrics: { type: 'object' },
      },
      required: ['plan_id', 'caller'],
      additionalProperties: true,
    },
    ...publishedSchemas('governance/check-governance'),
    mutates: false,
    async handler(args, ctx) {
      const execution = args.planned_delivery !== undefined || args.delivery_metrics !== undefined;
      if (!execution && (args.tool === undefined || args.payload === undefined))
        throw new AgentError(
          'INVALID_REQUEST',
          'Name the action: tool and payload (an intent check) or planned_delivery (an execution check).',
          { field: 'planned_delivery' },
        );
      // A seller checks with a token addressed to it: the `caller` it names must be the token's audience.
      const token = args.governance_context
        ? await keys.own(ctx.db, args.governance_context, args.plan_id, execution ? args.caller : undefined)
        : undefined;
      // Only an execution check moves budget, and so needs the plan's row held to the end; what
      // intent checks kept of the plan is forgotten.
      if (!execution) return check(desk, ctx, ctx.db, args, execution, token);
      desk.reads.forget(ctx.clock.now().getTime());
      return ctx.atomically((tx) => check(desk, ctx, tx, args, execution, token));
    },
  };
}

async function check(
  { keys, reads, log }: CheckDesk,
  ctx: TaskContext,
  tx: Queryable,
  args: CheckArgs,
  execution: boolean,
  token: GovernanceClaims | undefined,
): Promise<Json> {
  const now = ctx.clock.now();
  // Execution checks move the budget, so they take turns on the plan's row; intent checks only
  // read it, and one without a token (a buyer's, the usual) reads it as kept for a second.
  const kept = !execution && token === undefined ? reads : undefined;
  const plan = await planChecked(tx, ctx, args.plan_id, token, execution, kept);
  const phase = execution ? (args.phase ?? 'purchase') : undefined;
  const purchaseType = args.purchase_type ?? 'media_buy';
  const proposal: Proposal = execution
    ? plannedProposal(args.planned_delivery ?? {}, args.caller)
    : intentProposal(args.payload ?? {});
  const actionId = token?.ap_action ?? randomUUID();
  const action = token ? await sql.actionOf(tx, plan.id, actionId) : undefined;
  const metrics = args.delivery_metrics;
  const cumulativeSpend = number(metrics?.['cumulative_spend']) ?? number(metrics?.['spend']);
  const evaluation = evaluate({
    plan,
    kind: execution ? 'execution' : 'intent',
    phase,
    proposal,
    budget: kept
      ? await kept.budget(tx, plan.id, actionId, proposal.seller ?? null, now.getTime())
      : await sql.budgetState(tx, plan.id, actionId, proposal.seller ?? null),
    cumulativeSpend,
    actionStatus: action?.status,
  });
  // A governed action is tracked from its first execution check (a seller's, which moves budget);
  // intent checks and a denied first check leave only their audit entry.
  const tracked = action !== undefined || (execution && evaluation.status !== 'denied');
  if (!action && tracked) await sql.insertAction(tx, { plan: plan.id, actionId, purchaseType, at: now });

  const checkId = `chk_${randomUUID()}`;
  const tokenPhase: TokenPhase = phase ?? 'intent';
  const context =
    evaluation.status === 'approved'
      ? await keys.sign(tx, {
          iss: keys.issuer(),
          sub: plan.plan_id,
          ...(audienceOf(execution, args, proposal, plan) ?? {}),
          phase: tokenPhase,
          iat: Math.floor(now.getTime() / 1000),
          exp: Math.floor(now.getTime() / 1000) + (execution ? executionTokenSeconds : intentTokenSeconds),
          plan_hash: plan.plan_hash,
          check_id: checkId,
          ap_action: actionId,
          ap_plan: plan.id,
          ...(proposal.mediaBuyId ? { media_buy_id: proposal.mediaBuyId } : {}),
        })
      : undefined;

  const reserves = evaluation.status === 'approved' && (phase === 'purchase' || phase === 'modification');
  if (tracked)
    await sql.updateAction(tx, plan.id, actionId, {
      checked: true,
      ...(reserves && proposal.amount !== undefined ? { committed: proposal.amount } : {}),
      ...(phase === 'delivery' && cumulativeSpend !== undefined ? { delivered: cumulativeSpend } : {}),
      ...(phase === 'delivery' && evaluation.status === 'denied' ? { status: 'suspended' as const } : {}),
      ...(execution ? { seller: args.caller } : {}),
      ...(context ? { governanceContext: context } : {}),
    });

  const expiresAt =
    evaluation.status === 'denied'
      ? undefined
      : new Date(now.getTime() + (execution ? executionTokenSeconds : intentTokenSeconds) * 1000).toISOString();
  const answer = {
    check_id: checkId,
    status: evaluation.status,
    plan_id: plan.plan_id,
    explanation: evaluation.explanation,
    ...(evaluation.findings.length ? { findings: evaluation.findings } : {}),
    ...(evaluation.conditions.length ? { conditions: evaluation.conditions } : {}),
    ...(expiresAt ? { expires_at: expiresAt } : {}),
    ...(execution && evaluation.status === 'approved'
      ? { next_check: new Date(now.getTime() + deliveryCadenceMs).toISOString() }
      : {}),
    categories_evaluated: categoriesOf(evaluation, execution),
    policies_evaluated: plan.plan.policy_ids ?? [],
    mode: 'enforce',
    ...(context ? { governance_context: context } : {}),
  };
  const logged = {
    id: checkId,
    plan: plan.id,
    type: 'check' as const,
    at: now,
    entry: {
      id: checkId,
      type: 'check',
      timestamp: now.toISOString(),
      plan_id: plan.plan_id,
      caller: args.caller,
      ...(args.tool ? { tool: args.tool } : {}),
      status: evaluation.status,
      check_type: execution ? 'execution' : 'intent',
      mode: 'enforce',
      explanation: evaluation.explanation,
      policies_evaluated: answer.policies_evaluated,
      categories_evaluated: answer.categories_evaluated,
      // An audit entry's finding has no `details` (get-plan-audit-logs-response.json).
      ...(evaluation.findings.length ? { findings: evaluation.findings.map(({ details: _, ...f }) => f) } : {}),
      ...(reserves && proposal.amount !== undefined ? { committed_budget: proposal.amount } : {}),
      ...(context ? { governance_context: context } : {}),
      plan_hash: plan.plan_hash,
      purchase_type: action?.purchase_type ?? purchaseType,
    },
  };
  // Inside an execution check's transaction the entry commits with the budget it moved; an intent
  // check's waits for the next group write.
  if (execution) await sql.appendLog(tx, logged);
  else await log.append(tx, logged);
  return answer;
}

/**
 * The plan checked (locked for an execution check): found through the token when one came (a
 * seller checks the buyer's plan), else among the caller's own. One the caller may not reach is
 * PLAN_NOT_FOUND, the same as one that does not exist, so plans cannot be enumerated.
 */
async function planChecked(
  tx: Queryable,
  ctx: TaskContext,
  planId: string,
  token: GovernanceClaims | undefined,
  lock: boolean,
  kept: IntentReads | undefined,
): Promise<StoredPlan> {
  const plan = token
    ? await sql.planById(tx, token.ap_plan, lock)
    : kept
      ? await kept.plan(tx, ownerOf(ctx.principal), planId, ctx.clock.now().getTime())
      : await sql.planOf(tx, ownerOf(ctx.principal), planId, lock);
  if (!plan || plan.plan_id !== planId)
    throw new AgentError('PLAN_NOT_FOUND', `No plan ${planId} is accessible to this caller.`, { field: 'plan_id' });
  if (plan.status === 'suspended')
    throw new AgentError('CAMPAIGN_SUSPENDED', `The plan ${planId} is suspended pending human review.`);
  return plan;
}

/** Whom an approval is addressed to: the checking seller itself, or the seller a buyer named (or the plan's approved sellers). */
function audienceOf(
  execution: boolean,
  args: CheckArgs,
  proposal: Proposal,
  plan: StoredPlan,
): { aud: string | string[] } | undefined {
  if (execution) return { aud: args.caller };
  if (proposal.seller) return { aud: proposal.seller };
  const approved = plan.plan.approved_sellers;
  return Array.isArray(approved) && approved.length > 0 ? { aud: approved } : undefined;
}

function categoriesOf(evaluation: Evaluation, execution: boolean): string[] {
  const categories = [
    'budget_authority',
    'seller_authority',
    'geo_compliance',
    'channel_compliance',
    'flight_compliance',
    'human_review',
  ];
  if (execution) categories.push('delivery_drift');
  for (const f of evaluation.findings) if (!categories.includes(f.category_id)) categories.push(f.category_id);
  return categories;
}

function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
