import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import type { Principal } from '../../../auth/index.ts';
import { ownerOf } from '../../runtime/index.ts';
import type { Plan } from './plan.ts';
import { storePlan } from './sync-plans.ts';

/** The plan a seed gets for what its fixture leaves out: enough for every check to run on. */
const defaults = (now: Date) => ({
  brand: { domain: 'seeded-plan.example' },
  objectives: 'A plan seeded by a sandbox test controller.',
  budget: { total: 100_000, currency: 'USD', reallocation_threshold: 10_000 },
  flight: { start: now.toISOString(), end: new Date(now.getTime() + 90 * 86_400_000).toISOString() },
});

/**
 * Whose plans a caller of another agent of the deployment reaches here: an organization's are its
 * own wherever it calls; a configured credential (the public test credential) is its own owner per
 * agent (runtime/owner.ts), so its plans here are those of this agent's credential of that name.
 */
export function planOwnerOf(principal: Principal, agent = 'governance'): string {
  return principal.kind === 'credential' && !principal.organization
    ? ownerOf({ ...principal, subject: `${agent}/${principal.displayName}` })
    : ownerOf(principal);
}

/**
 * `seed_plan` of a sandbox test controller (comply-test-controller: `{plan_id, fixture?}`, the
 * fixture a plan's fields): the owner's plan under `plan_id`, the fixture over defaults, stored as
 * sync_plans stores it, so the owner's checks run against it. False when the owner already has a
 * plan of that id; a fixture sync_plans would refuse is INVALID_REQUEST naming the field.
 */
export async function seedPlan(
  db: Queryable,
  owner: string,
  planId: string,
  fixture: Record<string, unknown>,
  now: Date,
): Promise<boolean> {
  const base = defaults(now);
  const budget = isObject(fixture['budget']) ? { ...base.budget, ...fixture['budget'] } : base.budget;
  const plan = { ...base, ...fixture, budget, plan_id: planId } as Plan;
  if (typeof plan.budget.total !== 'number' || typeof plan.budget.currency !== 'string')
    throw new AgentError('INVALID_REQUEST', 'budget needs a number total and a currency.', { field: 'fixture.budget' });
  if (!isObject(plan.flight) || typeof plan.flight.start !== 'string' || typeof plan.flight.end !== 'string')
    throw new AgentError('INVALID_REQUEST', 'flight needs start and end dates.', { field: 'fixture.flight' });
  const stored = await storePlan(db, owner, plan, now);
  if ('problem' in stored)
    throw new AgentError('INVALID_REQUEST', stored.problem.message, { field: `fixture.${stored.problem.field}` });
  return stored.created;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
