/**
 * Delivery as whole counts (money in cents), so that packages add up to their buy and days to their
 * period exactly: every report is a difference of two cumulative counts, and sums of differences
 * telescope.
 */
export interface Counts {
  spend_cents: number;
  impressions: number;
  clicks: number;
  conversions: number;
  views: number;
  completed_views: number;
  viewable_impressions: number;
  /** Gross rating points in hundredths. */
  grps_hundredths: number;
}

export const noCounts: Counts = {
  spend_cents: 0,
  impressions: 0,
  clicks: 0,
  conversions: 0,
  views: 0,
  completed_views: 0,
  viewable_impressions: 0,
  grps_hundredths: 0,
};

const keys = Object.keys(noCounts) as Array<keyof Counts>;

export const plus = (a: Counts, b: Counts): Counts =>
  Object.fromEntries(keys.map((k) => [k, a[k] + b[k]])) as unknown as Counts;
export const minus = (a: Counts, b: Counts): Counts =>
  Object.fromEntries(keys.map((k) => [k, a[k] - b[k]])) as unknown as Counts;
export const sum = (all: readonly Counts[]): Counts => all.reduce(plus, noCounts);

/** Which metrics beyond impressions and spend a package reports, by its channel and pricing; the same whatever the period. */
export interface Shown {
  clicks: boolean;
  conversions: boolean;
  /** views, completed_views, completion_rate */
  plays: boolean;
  viewability: boolean;
  grps: boolean;
}

export const either = (a: Shown, b: Shown): Shown => ({
  clicks: a.clicks || b.clicks,
  conversions: a.conversions || b.conversions,
  plays: a.plays || b.plays,
  viewability: a.viewability || b.viewability,
  grps: a.grps || b.grps,
});

export const nothingShown: Shown = { clicks: false, conversions: false, plays: false, viewability: false, grps: false };

export const money = (cents: number) => cents / 100;

/** A share as answered: at most six decimals, and never above 1 (adjusted clicks may outnumber impressions). */
const rate = (part: number, whole: number) => (whole > 0 ? Math.min(1, Math.round((part / whole) * 1e6) / 1e6) : 0);

/** core/delivery-metrics.json. */
export function deliveryMetrics(c: Counts, shown: Shown): Record<string, unknown> {
  return {
    impressions: c.impressions,
    spend: money(c.spend_cents),
    ...(shown.clicks ? { clicks: c.clicks, ctr: rate(c.clicks, c.impressions) } : {}),
    ...(shown.conversions ? { conversions: c.conversions } : {}),
    ...(shown.plays
      ? { views: c.views, completed_views: c.completed_views, completion_rate: rate(c.completed_views, c.impressions) }
      : {}),
    ...(shown.viewability
      ? {
          viewability: {
            measurable_impressions: c.impressions,
            viewable_impressions: c.viewable_impressions,
            viewable_rate: rate(c.viewable_impressions, c.impressions),
            standard: 'mrc',
          },
        }
      : {}),
    ...(shown.grps ? { grps: c.grps_hundredths / 100 } : {}),
  };
}

/**
 * The metrics of deliveryMetrics a buyer may leave out, each with the enums/available-metric.json
 * names that ask for it; impressions and spend are always reported.
 */
const optionalMetrics: Readonly<Record<string, readonly string[]>> = {
  clicks: ['clicks'],
  ctr: ['ctr'],
  conversions: ['conversions'],
  views: ['views'],
  completed_views: ['completed_views', 'video_completions'],
  completion_rate: ['completion_rate'],
  viewability: ['viewability'],
  grps: ['grps'],
};

/** Delivery metrics (and whatever else the object carries) without the metrics not `requested`. */
export function requestedOnly(metrics: Record<string, unknown>, requested: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(metrics).filter(
      ([key]) => !Object.hasOwn(optionalMetrics, key) || optionalMetrics[key]!.some((name) => requested.includes(name)),
    ),
  );
}
