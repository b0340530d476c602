import type { PricingModel } from '../catalog/index.ts';
import type { ChannelRates } from './channel-rates.ts';
import type { Counts, Shown } from './metrics.ts';

/** What a package pays per unit: the fixed price, or for an auction the bid it clears at. */
export interface Pricing {
  model: PricingModel;
  rate: number;
}

/** A rating point is 1% of a notional universe of one million people. */
const impressionsPerRatingPoint = 10_000;
/** Float noise (1250 / 12.5 * 1000 = 99999.99...) must not cost a whole unit. */
const floor = (x: number) => Math.floor(x + 1e-9);
const orOne = (share: number) => (share > 0 ? share : 1);

/**
 * What `spend` (cumulative, exact) has bought: the pricing model's billable units at the rate (CPM:
 * spend / rate × 1000 impressions; CPC: clicks; CPCV: completed views...), and the other metrics
 * from the channel's rates. Whole units are floored, so a larger spend never counts fewer of any.
 * Flat-rate and time-based prices, and a rate of zero, buy impressions at the channel's notional CPM.
 */
export function countsFor(spend: number, pricing: Pricing, rates: ChannelRates): Counts {
  const units = pricing.rate > 0 ? spend / pricing.rate : undefined;
  const ctr = rates.ctr > 0 ? rates.ctr : 0.001;
  const perClick = rates.conversionRate > 0 ? rates.conversionRate : 0.01;
  let impressions = (spend / rates.notionalCpm) * 1000;
  let clicks: number | undefined;
  let conversions: number | undefined;
  let views: number | undefined;
  let completed: number | undefined;
  let viewable: number | undefined;
  let grps = 0;
  if (units !== undefined) {
    switch (pricing.model) {
      case 'cpm':
        impressions = units * 1000;
        break;
      case 'vcpm':
        viewable = units * 1000;
        impressions = viewable / orOne(rates.viewability);
        break;
      case 'cpc':
        clicks = units;
        impressions = clicks / ctr;
        break;
      case 'cpa':
        conversions = units;
        clicks = conversions / perClick;
        impressions = clicks / ctr;
        break;
      case 'cpcv':
        completed = units;
        impressions = completed / orOne(rates.completionRate);
        break;
      case 'cpv':
        views = units;
        impressions = views / orOne(rates.viewRate);
        break;
      case 'cpp':
        grps = units;
        impressions = grps * impressionsPerRatingPoint;
        break;
      case 'flat_rate':
      case 'time':
        break;
    }
  }
  clicks ??= impressions * rates.ctr;
  return {
    spend_cents: Math.round(spend * 100),
    impressions: floor(impressions),
    clicks: floor(clicks),
    conversions: floor(conversions ?? clicks * rates.conversionRate),
    views: floor(views ?? impressions * rates.viewRate),
    completed_views: floor(completed ?? impressions * rates.completionRate),
    viewable_impressions: floor(viewable ?? impressions * rates.viewability),
    grps_hundredths: floor(grps * 100),
  };
}

/** The metrics a package reports: those its channel produces, and the units its price is counted in. */
export function shownFor(pricing: Pricing, rates: ChannelRates): Shown {
  const m = pricing.model;
  return {
    clicks: rates.ctr > 0 || m === 'cpc' || m === 'cpa',
    conversions: rates.conversionRate > 0 || m === 'cpa',
    plays: rates.viewRate > 0 || rates.completionRate > 0 || m === 'cpv' || m === 'cpcv',
    viewability: rates.viewability > 0 || m === 'vcpm',
    grps: m === 'cpp',
  };
}

/**
 * What was paid per unit of the pricing model, from the delivery reported (CPM: spend per thousand
 * impressions; CPCV: per completed view...); none for flat and time-based prices, or before any unit.
 */
export function effectiveRate(model: PricingModel, c: Counts): number | undefined {
  const units: Partial<Record<PricingModel, number>> = {
    cpm: c.impressions / 1000,
    vcpm: c.viewable_impressions / 1000,
    cpc: c.clicks,
    cpa: c.conversions,
    cpcv: c.completed_views,
    cpv: c.views,
    cpp: c.grps_hundredths / 100,
  };
  const n = units[model];
  return n === undefined || n <= 0 ? undefined : Math.round((c.spend_cents / 100 / n) * 1e4) / 1e4;
}
