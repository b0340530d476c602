import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../db/database.ts';
import type { IntentReads } from '../checks/intent-reads.ts';
import {
  idInput,
  objectsInput,
  ownerOf,
  publishedSchemas,
  textInput,
  type AgentTask,
  type TaskArguments,
} from '../../runtime/index.ts';
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
export function syncPlansTask(reads: IntentReads): AgentTask<SyncArgs> {
  return {
    name: 'sync_plans',
    description:
      'Register or update campaign plans (brand, objectives, budget, flight, countries, channels, approved sellers, policies). Every check and approval is made against the plan’s current version.',
    input: {
      type: 'object',
      properties: {
        plans: objectsInput(
          maxPlansPerSync,
          {
            plan_id: idInput,
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
          ['plan_id', 'brand', 'objectives', 'budget', 'flight'],
        ),
      },
      required: ['plans'],
      additionalProperties: true,
    },
    ...publishedSchemas('governance/sync-plans'),
    mutates: true,
    async handler({ plans }, ctx) {
      const owner = ownerOf(ctx.principal);
      const now = ctx.clock.now();
      reads.forget(now.getTime());
      const answered = [];
      const errors = [];
      for (const [i, plan] of plans.entries()) {
        const stored = await storePlan(ctx.db, owner, plan, now);
        if ('problem' in stored) {
          answered.push({ plan_id: plan.plan_id, status: 'error', version: stored.version });
          errors.push({
            code: 'VALIDATION_ERROR',
            message: `${plan.plan_id}: ${stored.problem.message}`,
            field: `plans[${i}].${stored.problem.field}`,
          });
          continue;
        }
        const { version } = stored;
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

/**
 * Stores the owner's plan as sync_plans does, upserted by `plan_id`: a new version when its content
 * changed; a plan whose flight ends before it starts, or whose budget is not positive, is not stored
 * (the problem and the version it stays at are answered). `created`: no plan of that id was there.
 */
export async function storePlan(
  db: Queryable,
  owner: string,
  plan: Plan,
  now: Date,
): Promise<{ version: number; created: boolean } | { version: number; problem: { field: string; message: string } }> {
  const stored = await sql.planOf(db, owner, plan.plan_id);
  const problem = planProblem(plan);
  if (problem) return { version: stored?.version ?? 0, problem };
  const hash = planHash(plan);
  if (!stored) {
    await sql.insertPlan(db, { id: randomUUID(), owner, plan, planHash: hash, at: now });
    return { version: 1, created: true };
  }
  if (stored.plan_hash === hash) return { version: stored.version, created: false };
  return { version: await sql.revisePlan(db, stored.id, plan, hash, now), created: false };
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
