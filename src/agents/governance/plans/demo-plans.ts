import { randomUUID } from 'node:crypto';
import type { TenantPass } from '../../runtime/index.ts';
import * as sql from '../sql.ts';
import { planHash, type Plan } from './plan.ts';

/**
 * The plans a newcomer with the public test credential can check against at once: a plan with
 * room to buy, one that keeps a seller to 40% of it, and one that needs a human for every
 * commitment. Written for that credential when absent, never over what it synced since.
 */
export const demoPlans: readonly Plan[] = [
  {
    plan_id: 'demo_spring_launch',
    brand: { domain: 'acme-outdoor.example' },
    objectives: 'Launch the spring hiking range to outdoor enthusiasts 25-54 in the US and Canada.',
    budget: { total: 250_000, currency: 'USD', reallocation_threshold: 25_000 },
    flight: { start: '2026-01-01T00:00:00Z', end: '2027-12-31T23:59:59Z' },
    countries: ['US', 'CA'],
    channels: { allowed: ['display', 'olv', 'ctv'] },
  },
  {
    plan_id: 'demo_seller_cap',
    brand: { domain: 'acme-outdoor.example' },
    objectives: 'Always-on brand awareness, spread across sellers: no seller takes more than 40%.',
    budget: { total: 100_000, currency: 'USD', reallocation_threshold: 10_000, per_seller_max_pct: 40 },
    flight: { start: '2026-01-01T00:00:00Z', end: '2027-12-31T23:59:59Z' },
    countries: ['US'],
  },
  {
    plan_id: 'demo_human_review',
    brand: { domain: 'acme-outdoor.example' },
    objectives: 'A sensitive-category campaign where every commitment needs a person to approve it.',
    budget: { total: 50_000, currency: 'USD', reallocation_threshold: 0 },
    flight: { start: '2026-01-01T00:00:00Z', end: '2027-12-31T23:59:59Z' },
    human_review_required: true,
  },
];

/** Keeps the demo plans present for `owner` (the public test credential's), hourly and at start. */
export function demoPlansPass(owner: string, plans: readonly Plan[] = demoPlans): TenantPass {
  return {
    name: 'demo-plans',
    intervalMs: 3_600_000,
    async run({ db, clock }) {
      for (const plan of plans) {
        if (await sql.planOf(db, owner, plan.plan_id)) continue;
        await sql.insertPlan(db, { id: randomUUID(), owner, plan, planHash: planHash(plan), at: clock.now() });
      }
    },
  };
}
