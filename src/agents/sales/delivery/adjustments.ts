import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { packagesOf, totalBudget } from '../media-buys/index.ts';
import * as sql from './sql.ts';

/** compliance/comply-test-controller-request.json's simulate_delivery params. */
export interface SimulatedDelivery {
  /** The caller whose buy it must be; any buy when absent (the seller's own controller). */
  owner?: string;
  media_buy_id: string;
  impressions?: number;
  clicks?: number;
  conversions?: number;
  /** Spend as the delivery report shows it; it never counts against the budget. */
  reported_spend?: { amount: number; currency: string };
}

const counted = ['impressions', 'clicks', 'conversions'] as const;
const cents = (amount: number) => Math.round(amount * 100) / 100;

/**
 * simulate_delivery: adds impressions, clicks, conversions and reported spend to what the buy's
 * simulated delivery reports from `now` on (shared among its packages by budget). The budget, and so
 * the simulated pacing, is untouched. Answers what was added and the running totals of every
 * simulate_delivery on the buy, as the controller's SimulationSuccess carries them.
 */
export async function recordSimulatedDelivery(db: Queryable, delivery: SimulatedDelivery, now: Date) {
  for (const field of counted) {
    const value = delivery[field];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0))
      throw new AgentError('INVALID_REQUEST', `${field} must be a whole number of 0 or more.`, { field });
  }
  const spend = delivery.reported_spend;
  if (spend !== undefined && !(Number.isFinite(spend.amount) && spend.amount >= 0)) {
    throw new AgentError('INVALID_REQUEST', 'reported_spend.amount must be a number of 0 or more.', {
      field: 'reported_spend.amount',
    });
  }
  const buy = await buyToAdjust(db, delivery.media_buy_id, delivery.owner);
  if (spend !== undefined && spend.currency !== buy.currency) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `Media buy ${buy.media_buy_id} is in ${buy.currency}, not ${spend.currency}.`,
      { field: 'reported_spend.currency', details: { currency: buy.currency } },
    );
  }
  const added = {
    impressions: delivery.impressions ?? 0,
    clicks: delivery.clicks ?? 0,
    conversions: delivery.conversions ?? 0,
  };
  await sql.insertAdjustment(db, {
    media_buy_id: buy.media_buy_id,
    kind: 'delivery',
    ...added,
    reported_spend: spend?.amount ?? 0,
    spend_percentage: null,
    at: now,
  });
  const total = await sql.deliveryAdded(db, buy.media_buy_id);
  return {
    simulated: { ...added, reported_spend: { amount: spend?.amount ?? 0, currency: buy.currency } },
    cumulative: {
      impressions: total.impressions,
      clicks: total.clicks,
      conversions: total.conversions,
      reported_spend: { amount: cents(total.reported_spend), currency: buy.currency },
    },
  };
}

/**
 * simulate_budget_spend: by `now`, each package of the buy not canceled has spent this percentage of
 * its budget (spend never goes back: a package already past it is left as it is); the simulation
 * then paces what remains over what remains of the flight. Answers the percentage, the spend it
 * makes of the buy's budget, and the budget.
 */
export async function recordBudgetSpend(
  db: Queryable,
  target: { owner?: string; media_buy_id: string },
  spendPercentage: number,
  now: Date,
) {
  if (!(Number.isFinite(spendPercentage) && spendPercentage >= 0 && spendPercentage <= 100)) {
    throw new AgentError('INVALID_REQUEST', 'spend_percentage must be a number from 0 to 100.', {
      field: 'spend_percentage',
    });
  }
  const buy = await buyToAdjust(db, target.media_buy_id, target.owner);
  const budget = totalBudget(await packagesOf(db, [buy.media_buy_id]));
  await sql.insertAdjustment(db, {
    media_buy_id: buy.media_buy_id,
    kind: 'budget_spend',
    impressions: 0,
    clicks: 0,
    conversions: 0,
    reported_spend: 0,
    spend_percentage: spendPercentage,
    at: now,
  });
  return {
    spend_percentage: spendPercentage,
    computed_spend: cents((budget * spendPercentage) / 100),
    budget,
    currency: buy.currency,
  };
}

async function buyToAdjust(db: Queryable, mediaBuyId: string, owner: string | undefined) {
  const buy = await sql.buyToAdjust(db, mediaBuyId, owner);
  if (!buy)
    throw new AgentError(
      'MEDIA_BUY_NOT_FOUND',
      `There is no media buy ${mediaBuyId}${owner === undefined ? '' : ' of yours'}.`,
      { field: 'media_buy_id' },
    );
  return buy;
}
