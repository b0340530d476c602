import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { recordBudgetSpend, recordSimulatedDelivery, type SimulatedDelivery } from '../delivery/index.ts';
import { lockMediaBuy } from '../media-buys/index.ts';
import { Refusal, type Answer, type Scope } from './scope.ts';

/** simulate_delivery: counts and reported spend added to the buy's simulated delivery (delivery's recordSimulatedDelivery). */
export function simulateDelivery(scope: Scope): Promise<Answer> {
  const { params, owner, now } = scope;
  const id = params['media_buy_id'] as string;
  const delivery: SimulatedDelivery = { owner, media_buy_id: id };
  for (const field of ['impressions', 'clicks', 'conversions'] as const)
    if (params[field] !== undefined) delivery[field] = params[field] as number;
  if (params['reported_spend'] !== undefined)
    delivery.reported_spend = params['reported_spend'] as SimulatedDelivery['reported_spend'];
  return onBuy(scope, id, async (tx) => {
    const { simulated, cumulative } = await recordSimulatedDelivery(tx, delivery, now);
    return {
      success: true,
      simulated,
      cumulative,
      message: `Delivery simulated for ${id}: ${simulated.impressions} impressions, ${simulated.clicks} clicks, ${simulated.conversions} conversions, ${simulated.reported_spend.currency} ${simulated.reported_spend.amount} reported spend.`,
    };
  });
}

/**
 * simulate_budget_spend: the buy's packages spent to this share of their budgets (delivery's
 * recordBudgetSpend). Spend is simulated per buy: an account_id alone names none, and one beside
 * the buy must be the call's sandbox account.
 */
export function simulateBudgetSpend(scope: Scope): Promise<Answer> {
  const { params, account, owner, now } = scope;
  const id = params['media_buy_id'] as string | undefined;
  const accountId = params['account_id'] as string | undefined;
  if (accountId !== undefined && accountId !== account.account_id)
    return Promise.reject(
      new Refusal('NOT_FOUND', `Account ${accountId} is not the sandbox account of this call.`, null),
    );
  if (id === undefined)
    return Promise.reject(
      new Refusal('INVALID_PARAMS', 'This seller simulates spend per media buy: name its media_buy_id.'),
    );
  return onBuy(scope, id, async (tx) => {
    const spent = await recordBudgetSpend(tx, { owner, media_buy_id: id }, params['spend_percentage'] as number, now);
    const money = (amount: number) => ({ amount, currency: spent.currency });
    return {
      success: true,
      simulated: {
        spend_percentage: spent.spend_percentage,
        computed_spend: money(spent.computed_spend),
        budget: money(spent.budget),
      },
      message: `Budget of ${id} ${spent.spend_percentage}% spent (${spent.currency} ${spent.computed_spend} of ${spent.budget}).`,
    };
  });
}

/** Runs `fn` on a buy of the call's sandbox account, locked, in one transaction; what the delivery folder refuses is INVALID_PARAMS. */
function onBuy(scope: Scope, mediaBuyId: string, fn: (tx: Queryable) => Promise<Answer>): Promise<Answer> {
  const { ctx, account, owner } = scope;
  return ctx.atomically(async (tx) => {
    const buy = await lockMediaBuy(tx, owner, mediaBuyId);
    if (!buy || buy.account_id !== account.account_id)
      throw new Refusal('NOT_FOUND', `Media buy ${mediaBuyId} was not found in account ${account.account_id}.`, null);
    return fn(tx).catch((err: unknown) => {
      if (err instanceof AgentError)
        throw new Refusal('INVALID_PARAMS', `${err.code}${err.field ? ` at ${err.field}` : ''}: ${err.message}`);
      throw err;
    });
  });
}
