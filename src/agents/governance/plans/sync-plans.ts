import { randomUUID } from 'node:crypto';
import { ownerOf, publishedSchemas, textInput, type AgentTask, type TaskArguments } from '../../runtime/index.ts';
import * as sql from '../sql.ts';
import { evaluatedCategories, planHash, type Plan } from './plan.ts';

/** At most this many plans in one call: each is a row written and a hash computed. */
export const maxPlansPerSync = 100;

interface SyncArgs extends TaskArguments {
  plans: Plan[];
}

/**
 * `sync_plans` (governance/sync-plans-request.json): stores the caller's campaign plans, upserted by
 * `plan_id`. A plan whose content changed gets a new version (and a new `plan_hash`, which every
 * later approval attests to); the budget its actions committed stays with it. A plan whose flight
 * ends before it starts, or whose budget is not positive, is answered `error` and not stored.
 */
export function syncPlansTask(): AgentTask<SyncArgs> {
  return {
    name: 'sync_plans',
    description:
      'Register or update campaign plans (brand, objectives, budget, flight, countries, channels, approved sellers, policies). Every check and approval is made against the plan’s current version.',
    input: {
      type: 'object',
      properties: {
        plans: {
          type: 'array',
          minItems: 1,
          maxItems: maxPlansPerSync,
          items: {
            type: 'object',
            properties: {
              plan_id: { type: 'string', maxLength: 255 },
              objectives: textInput('prose', 'What the campaign is for'),
              budget: {
                type: 'object',
                properties: { total: { type: 'number' }, currency: { type: 'string' } },
                required: ['total', 'currency'],
              },
              flight: {
                type: 'object',
                properties: { start: { type: 'string' }, end: { type: 'string' } },
                required: ['start', 'end'],
              },
            },
            required: ['plan_id', 'brand', 'objectives', 'budget', 'flight'],
          },
        },
      },
      required: ['plans'],
      additionalProperties: true,
    },
    ...publishedSchemas('governance/sync-plans'),
    mutates: true,
    async handler({ plans }, ctx) {
      const owner = ownerOf(ctx.principal);
      const now = ctx.clock.now();
      const answered = [];
      const errors = [];
      for (const [i, plan] of plans.entries()) {
        const problem = planProblem(plan);
        const stored = await sql.planOf(ctx.db, owner, plan.plan_id);
        if (problem) {
          answered.push({ plan_id: plan.plan_id, status: 'error', version: stored?.version ?? 0 });
          errors.push({
            code: 'VALIDATION_ERROR',
            message: `${plan.plan_id}: ${problem.message}`,
            field: `plans[${i}].${problem.field}`,
          });
          continue;
        }
        const hash = planHash(plan);
        let version = stored?.version ?? 1;
        if (!stored) await sql.insertPlan(ctx.db, { id: randomUUID(), owner, plan, planHash: hash, at: now });
        else if (stored.plan_hash !== hash) version = await sql.revisePlan(ctx.db, stored.id, plan, hash, now);
        answered.push({
          plan_id: plan.plan_id,
          status: 'active',
          version,
          categories: evaluatedCategories.map((category_id) => ({ category_id, status: 'active' })),
          ...(plan.policy_ids?.length
            ? {
                resolved_policies: plan.policy_ids.map((policy_id) => ({
                  policy_id,
                  source: 'explicit',
                  enforcement: 'must',
                })),
              }
            : {}),
        });
      }
      // Why a plan is `error`: its item has no room for it, the answer does (core/error.json each).
      return { plans: answered, ...(errors.length ? { errors } : {}) };
    },
  };
}

function planProblem(plan: Plan): { field: string; message: string } | undefined {
  if (!(plan.budget.total > 0)) return { field: 'budget.total', message: 'budget.total must be positive' };
  const start = Date.parse(plan.flight.start);
  const end = Date.parse(plan.flight.end);
  if (Number.isNaN(start) || Number.isNaN(end))
    return { field: 'flight', message: 'flight.start and flight.end must be dates' };
  if (end <= start) return { field: 'flight.end', message: 'flight.end must come after flight.start' };
  return undefined;
}
