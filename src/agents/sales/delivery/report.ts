import type { BuyRow, PackageRow } from '../media-buys/index.ts';
import { deliveryMetrics, either, money, noCounts, nothingShown, sum, type Counts, type Shown } from './metrics.ts';
import { effectiveRate } from './pricing.ts';
import type { SimBuy, SimulatedBuy } from './simulate.ts';
import { utcDays } from './utc-days.ts';

/** How conversions are attributed here, whatever window is asked (the schema lets a seller without configurable windows answer its own). */
export const attributionWindow = {
  post_click: { interval: 7, unit: 'days' },
  post_view: { interval: 1, unit: 'days' },
  model: 'last_touch',
};

/** One buy's entry of media_buy_deliveries[], with the counts its totals were made of. */
export interface BuyReport {
  delivery: Record<string, unknown>;
  totals: Counts;
  shown: Shown;
}

/**
 * A buy's delivery over [from, to) as get-media-buy-delivery-response.json answers it: totals
 * across its packages, by_package with each package's price, pacing and state, and with `daily`,
 * day-by-day delivery of the buy and of each package (UTC days; they add up to the totals).
 */
export function buyReport(
  buy: BuyRow,
  packages: readonly PackageRow[],
  sim: SimBuy,
  simulated: SimulatedBuy,
  span: { from: Date; to: Date },
  daily: boolean,
): BuyReport {
  const open = span.to > span.from;
  const days = daily && open ? utcDays(span.from, span.to) : [];
  const rows = simulated.packages.map((p, i) => {
    const terms = sim.packages[i]!;
    const counts = open ? p.between(span.from, span.to) : noCounts;
    const perDay = days.map((d) => ({ date: d.date, counts: p.between(d.from, d.to) }));
    return { p, terms, row: packages[i]!, counts, perDay };
  });
  const totals = sum(rows.map((r) => r.counts));
  const shown = rows.map((r) => r.p.shown).reduce(either, nothingShown);
  const models = [...new Set(rows.map((r) => r.terms.pricing.model))];
  const rate = models.length === 1 ? effectiveRate(models[0]!, totals) : undefined;
  const day = (date: string, c: Counts, conversions: boolean) => ({
    date,
    impressions: c.impressions,
    spend: money(c.spend_cents),
    ...(conversions ? { conversions: c.conversions } : {}),
  });

  const delivery = {
    media_buy_id: buy.media_buy_id,
    status: buy.status,
    ...(models.length === 1 ? { pricing_model: models[0] } : {}),
    totals: { ...deliveryMetrics(totals, shown), ...(rate === undefined ? {} : { effective_rate: rate }) },
    by_package: rows.map(({ p, terms, row, counts, perDay }) => ({
      package_id: p.package_id,
      ...deliveryMetrics(counts, p.shown),
      pricing_model: terms.pricing.model,
      rate: terms.pricing.rate,
      currency: buy.currency,
      ...(p.deliveryStatus ? { delivery_status: p.deliveryStatus } : {}),
      ...(p.pacingIndex === undefined ? {} : { pacing_index: p.pacingIndex }),
      paused: row.paused,
      ...(daily ? { daily_breakdown: perDay.map((d) => day(d.date, d.counts, p.shown.conversions)) } : {}),
    })),
    ...(daily
      ? {
          daily_breakdown: days.map((d, i) =>
            day(d.date, sum(rows.map((r) => r.perDay[i]!.counts)), shown.conversions),
          ),
        }
      : {}),
  };
  return { delivery, totals, shown };
}
