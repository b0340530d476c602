import type { Queryable } from '../../../db/database.ts';
import { buyOf } from '../media-buys/index.ts';
import type { Shelf } from '../offering.ts';
import { money } from './metrics.ts';
import { simulateBuy } from './simulate.ts';
import { simBuyOf, storedBuys } from './stored-buy.ts';

/**
 * What a buy has delivered from its first activity up to `now`, as get_media_buy_delivery totals it
 * (the simulation plus what the test controller recorded): the spend a governance agent is told
 * of. Undefined when the owner has no such buy.
 */
export async function deliveredSoFar(
  db: Queryable,
  shelf: Shelf,
  owner: string,
  mediaBuyId: string,
  now: Date,
): Promise<{ spend: number; impressions: number } | undefined> {
  const buy = await buyOf(db, owner, mediaBuyId);
  if (!buy) return undefined;
  const [stored] = await storedBuys(db, [buy]);
  const { products } = await shelf(db, { account_id: buy.account_id, sandbox: buy.sandbox });
  const simulated = simulateBuy(simBuyOf(stored!, products), now);
  const counts = simulated.packages.map((p) => p.between(simulated.firstActivity, now));
  return {
    spend: money(counts.reduce((sum, c) => sum + c.spend_cents, 0)),
    impressions: counts.reduce((sum, c) => sum + c.impressions, 0),
  };
}
