import type { Queryable } from '../../../db/database.ts';
import type { Product } from '../catalog/index.ts';
import { assignmentsOfPackages } from '../creatives/index.ts';
import { packagesOf, type BuyRow, type PackageRow } from '../media-buys/index.ts';
import { channelRates } from './channel-rates.ts';
import type { Pricing } from './pricing.ts';
import { pacings, type Adjustment, type Pacing, type SimBuy, type SimPackage } from './simulate.ts';
import * as sql from './sql.ts';
import type { AdjustmentRow, TimelineEntry } from './sql.ts';

/** A buy as stored: its row, packages (and which have creatives), history (oldest first) and the controller's adjustments. */
export interface StoredBuy {
  buy: BuyRow;
  packages: readonly PackageRow[];
  /** Ids of its packages with at least one creative assigned now. */
  withCreatives: ReadonlySet<string>;
  history: readonly TimelineEntry[];
  adjustments: readonly AdjustmentRow[];
}

/** These buys as stored, in the order given: what their delivery is simulated from. */
export async function storedBuys(db: Queryable, buys: readonly BuyRow[]): Promise<StoredBuy[]> {
  const ids = buys.map((b) => b.media_buy_id);
  const rows = await packagesOf(db, ids);
  const packages = byBuy(rows);
  const withCreatives = new Set(
    (
      await assignmentsOfPackages(
        db,
        rows.map((p) => p.package_id),
      )
    ).map((a) => a.package_id),
  );
  const history = byBuy(await sql.timelinesOf(db, ids));
  const adjustments = byBuy(await sql.adjustmentsOf(db, ids));
  return buys.map((buy) => ({
    buy,
    packages: packages.get(buy.media_buy_id) ?? [],
    withCreatives,
    history: history.get(buy.media_buy_id) ?? [],
    adjustments: adjustments.get(buy.media_buy_id) ?? [],
  }));
}

function byBuy<T extends { media_buy_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(row.media_buy_id, [...(groups.get(row.media_buy_id) ?? []), row]);
  return groups;
}

/**
 * What the simulation needs of a stored buy: each package's terms as they stand now (budget, flight,
 * pacing, the catalog's price), when it was booked, paused, resumed and canceled, and the buy's
 * status after each change. Past budgets and flights are not in the history, so the current ones
 * stand for the whole flight.
 */
export function simBuyOf(
  { buy, packages, withCreatives, history, adjustments }: StoredBuy,
  products: readonly Product[],
): SimBuy {
  return {
    statuses: history.map((e) => ({ at: e.at, status: e.status })),
    packages: packages.map((pkg) =>
      simPackageOf(
        pkg,
        buy,
        history.filter((e) => e.package_id === pkg.package_id),
        products,
        withCreatives.has(pkg.package_id),
      ),
    ),
    adjustments: adjustments.map((a): Adjustment =>
      a.kind === 'budget_spend'
        ? { kind: 'budget_spend', at: a.at, percentage: a.spend_percentage ?? 0 }
        : {
            kind: 'delivery',
            at: a.at,
            impressions: a.impressions,
            clicks: a.clicks,
            conversions: a.conversions,
            reported_spend: a.reported_spend,
          },
    ),
  };
}

function simPackageOf(
  pkg: PackageRow,
  buy: BuyRow,
  own: readonly TimelineEntry[],
  products: readonly Product[],
  hasCreatives: boolean,
): SimPackage {
  const product = products.find((p) => p.product_id === pkg.product_id);
  // The action names update_media_buy records for a package's pause and resume.
  const pauseChanges = own
    .filter((e) => e.action === 'package_paused' || e.action === 'package_resumed')
    .map((e) => ({ at: e.at, paused: e.action === 'package_paused' }));
  const pacing = pkg.details['pacing'] as Pacing | undefined;
  const createdAt = own.find((e) => e.action === 'package_added')?.at ?? buy.confirmed_at;
  // A package left without creatives stops when its last one went; earlier gaps are not recorded as such.
  const lastUnassigned = own.findLast((e) => e.action === 'creatives_unassigned')?.at;
  return {
    package_id: pkg.package_id,
    budget: pkg.budget,
    pricing: pricingOf(pkg, product),
    rates: channelRates(product?.channels),
    start: pkg.start_time ?? buy.start_time,
    end: pkg.end_time ?? buy.end_time,
    pacing: pacing !== undefined && pacings.includes(pacing) ? pacing : 'even',
    created_at: createdAt,
    canceled_at: pkg.cancellation ? new Date(pkg.cancellation.canceled_at) : null,
    // Its first recorded change tells what it was before; with none, it still is what it was made.
    paused_at_creation: pauseChanges.length > 0 ? !pauseChanges[0]!.paused : pkg.paused,
    pause_changes: pauseChanges,
    creativeless_from: hasCreatives ? null : (lastUnassigned ?? createdAt),
  };
}

/**
 * The package's price from the catalog: the fixed price, else the bid (auction), else the floor. A
 * product or option no longer in the catalog is delivered as CPM at its bid, or at the channel's
 * notional CPM.
 */
export function pricingOf(
  pkg: Pick<PackageRow, 'pricing_option_id' | 'bid_price'>,
  product: Product | undefined,
): Pricing {
  const option = product?.pricing_options.find((o) => o.pricing_option_id === pkg.pricing_option_id);
  if (!option) return { model: 'cpm', rate: pkg.bid_price ?? channelRates(product?.channels).notionalCpm };
  return { model: option.pricing_model, rate: option.fixed_price ?? pkg.bid_price ?? option.floor_price ?? 0 };
}
