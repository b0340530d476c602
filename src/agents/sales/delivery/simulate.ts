import type { MediaBuyStatus } from '../media-buys/index.ts';
import type { ChannelRates } from './channel-rates.ts';
import { either, minus, noCounts, nothingShown, plus, sum, type Counts, type Shown } from './metrics.ts';
import { countsFor, shownFor, type Pricing } from './pricing.ts';

/** enums/pacing.json. */
export const pacings = ['even', 'asap', 'front_loaded'] as const;
export type Pacing = (typeof pacings)[number];

/** One package of a buy, with its terms as they stand and the history of its pauses. */
export interface SimPackage {
  package_id: string;
  budget: number;
  pricing: Pricing;
  rates: ChannelRates;
  /** Its flight (the buy's when it has none of its own). */
  start: Date;
  end: Date;
  pacing: Pacing;
  /** When it was booked: with the buy, or when a later update added it. */
  created_at: Date;
  canceled_at: Date | null;
  paused_at_creation: boolean;
  /** Each later pause (true) or resume (false) of the package, oldest first. */
  pause_changes: ReadonlyArray<{ at: Date; paused: boolean }>;
  /**
   * From when it has had no creative to run, so serves nothing: its booking when it never had
   * one, the last time one was taken off when none is left; null while it has one.
   */
  creativeless_from: Date | null;
}

/** What the compliance test controller recorded for the buy. */
export type Adjustment =
  /** Delivery reported on top of the simulation; `reported_spend` never counts against the budget. */
  | { kind: 'delivery'; at: Date; impressions: number; clicks: number; conversions: number; reported_spend: number }
  /** The budget spent to this share (0–100) by `at`. */
  | { kind: 'budget_spend'; at: Date; percentage: number };

export interface SimBuy {
  /** The buy's status after each change of its history, oldest first; the first is its creation. */
  statuses: ReadonlyArray<{ at: Date; status: MediaBuyStatus }>;
  packages: readonly SimPackage[];
  adjustments: readonly Adjustment[];
}

/** by_package[].delivery_status (none before the flight, for a canceled or rejected buy or package, or one without creatives). */
export type DeliveryStatus = 'delivering' | 'completed' | 'budget_exhausted' | 'flight_ended';

export interface SimulatedPackage {
  package_id: string;
  /** The metrics it reports beyond impressions and spend, whatever the period. */
  shown: Shown;
  /** Everything delivered before `t` (an instant past now: everything so far). */
  before(t: Date): Counts;
  /** Delivery within [from, to). */
  between(from: Date, to: Date): Counts;
  /** Spent by now against the budget (reported spend of adjustments not included). */
  spent: number;
  deliveryStatus: DeliveryStatus | undefined;
  /** Spent by now over what even pacing would have spent by now (1 = on track); none before the flight. */
  pacingIndex: number | undefined;
}

export interface SimulatedBuy {
  packages: SimulatedPackage[];
  /** The earliest instant with anything to report: its first flight start, or an earlier adjustment. */
  firstActivity: Date;
}

/** Statuses in which a buy serves its packages (a stored `pending_start` stays so after the start: it serves from then). */
const serving: ReadonlySet<MediaBuyStatus> = new Set(['pending_start', 'active']);

/**
 * How much of what remains is spent after a fraction `x` of the remaining flight, per pacing
 * (enums/pacing.json): even spreads it evenly, asap spends it within the first quarter, and
 * front_loaded spends at a rate falling linearly from twice even to nothing.
 */
const shapes: Record<Pacing, (x: number) => number> = {
  even: (x) => x,
  asap: (x) => 4 * x,
  front_loaded: (x) => (x >= 1 ? 1 : 2 * x - x * x),
};

/**
 * The delivery of one media buy, as a pure function of its packages, its history and the
 * controller's adjustments, up to `now`. Each package spends its budget over its own flight while
 * it serves: the buy pending its start or active, the package booked with a creative to run,
 * neither paused nor canceled, and within the flight. Whenever it starts serving again (or a forced spend moves it), what
 * remains of the budget is paced anew over what remains of the flight, so a pause is caught up
 * and a package never spends more than its budget. Spend buys units at the package's rate; the
 * other metrics follow from the channel's fixed rates. Deterministic: no randomness, no clock but `now`.
 */
export function simulateBuy(buy: SimBuy, now: Date): SimulatedBuy {
  const nowMs = now.getTime();
  const statusNow = statusAt(buy.statuses, nowMs);
  const packages = buy.packages.map((pkg) => {
    const added = deliveryShares(buy.adjustments, buy.packages, pkg);
    const forced = buy.adjustments.flatMap((a) =>
      a.kind === 'budget_spend' && liveAt(pkg, a.at) ? [{ at: a.at.getTime(), fraction: a.percentage / 100 }] : [],
    );
    const spans = servingSpans(pkg, buy.statuses, nowMs);
    const spendAt = spendCurve(
      pkg,
      spans,
      forced.filter((f) => f.at <= nowMs),
    );
    const before = (t: Date): Counts => {
      const at = t.getTime();
      return plus(
        countsFor(spendAt(Math.min(at, nowMs)), pkg.pricing, pkg.rates),
        sum(added.filter((a) => a.at < at).map((a) => a.counts)),
      );
    };
    const spent = spendAt(nowMs);
    const adjustedShown: Shown = {
      ...nothingShown,
      clicks: added.some((a) => a.counts.clicks > 0),
      conversions: added.some((a) => a.counts.conversions > 0),
    };
    return {
      package_id: pkg.package_id,
      shown: either(shownFor(pkg.pricing, pkg.rates), adjustedShown),
      before,
      between: (from: Date, to: Date) => minus(before(to), before(from)),
      spent,
      deliveryStatus: deliveryStatus(pkg, statusNow, spent, nowMs),
      pacingIndex: pacingIndex(pkg, spent, nowMs),
    };
  });
  const starts = [...buy.packages.map((p) => p.start.getTime()), ...buy.adjustments.map((a) => a.at.getTime())];
  return { packages, firstActivity: new Date(starts.length > 0 ? Math.min(...starts) : nowMs) };
}

/** The buy's status at instant `t` (a change at `t` counts); undefined before it was made. */
export function statusAt(statuses: SimBuy['statuses'], t: number): MediaBuyStatus | undefined {
  let status: MediaBuyStatus | undefined;
  for (const s of statuses) if (s.at.getTime() <= t) status = s.status;
  return status;
}

function pausedAt(pkg: SimPackage, t: number): boolean {
  let paused = pkg.paused_at_creation;
  for (const c of pkg.pause_changes) if (c.at.getTime() <= t) paused = c.paused;
  return paused;
}

/** Booked and not yet canceled at `at`: the packages an adjustment then applies to. */
const liveAt = (pkg: SimPackage, at: Date) =>
  pkg.created_at <= at && (pkg.canceled_at === null || pkg.canceled_at > at);

interface Span {
  from: number;
  to: number;
}

/** When the package served, up to now: disjoint, in order. */
function servingSpans(pkg: SimPackage, statuses: SimBuy['statuses'], now: number): Span[] {
  const begin = Math.max(pkg.start.getTime(), pkg.created_at.getTime());
  const stop = Math.min(
    pkg.end.getTime(),
    pkg.canceled_at?.getTime() ?? Infinity,
    pkg.creativeless_from?.getTime() ?? Infinity,
    now,
  );
  const changes = [begin, ...statuses.map((s) => s.at.getTime()), ...pkg.pause_changes.map((c) => c.at.getTime())];
  const cuts = [...new Set(changes)].filter((t) => t >= begin && t < stop).sort((a, b) => a - b);
  const spans: Span[] = [];
  cuts.forEach((from, i) => {
    const status = statusAt(statuses, from);
    if (status === undefined || !serving.has(status) || pausedAt(pkg, from)) return;
    const to = cuts[i + 1] ?? stop;
    const last = spans.at(-1);
    if (last?.to === from) last.to = to;
    else spans.push({ from, to });
  });
  return spans;
}

/** From `from` on: what was spent then, and whether it is spending. */
interface Piece {
  from: number;
  spent: number;
  serving: boolean;
}

/** The package's cumulative spend at any instant up to now. */
function spendCurve(
  pkg: SimPackage,
  spans: readonly Span[],
  forced: ReadonlyArray<{ at: number; fraction: number }>,
): (t: number) => number {
  const { budget } = pkg;
  const end = pkg.end.getTime();
  const shape = shapes[pkg.pacing];
  const value = (piece: Piece, t: number) => {
    if (!piece.serving) return piece.spent;
    const done = shape((t - piece.from) / (end - piece.from));
    return done >= 1 ? budget : Math.min(budget, piece.spent + (budget - piece.spent) * done);
  };
  const breaks = [...new Set([...spans.flatMap((s) => [s.from, s.to]), ...forced.map((f) => f.at)])].sort(
    (a, b) => a - b,
  );
  const pieces: Piece[] = [];
  for (const at of breaks) {
    const last = pieces.at(-1);
    let spent = last ? value(last, at) : 0;
    const here = forced.filter((f) => f.at === at);
    // Spend never goes back: a forced share below what is spent changes nothing.
    for (const f of here) spent = Math.max(spent, Math.min(budget, f.fraction * budget));
    const on = spans.some((s) => s.from <= at && at < s.to);
    if (last && last.serving === on && here.length === 0) continue;
    pieces.push({ from: at, spent, serving: on });
  }
  return (t) => {
    let piece: Piece | undefined;
    for (const p of pieces) if (p.from <= t) piece = p;
    return piece ? value(piece, t) : 0;
  };
}

/**
 * The package's part of each delivery adjustment: shared among the buy's packages booked and not
 * canceled at its time (all of them if none was), by budget, whole units to the largest remainders.
 */
function deliveryShares(
  adjustments: readonly Adjustment[],
  packages: readonly SimPackage[],
  pkg: SimPackage,
): Array<{ at: number; counts: Counts }> {
  return adjustments.flatMap((a) => {
    if (a.kind !== 'delivery') return [];
    const live = packages.filter((p) => liveAt(p, a.at));
    const among = live.length > 0 ? live : packages;
    const i = among.indexOf(pkg);
    if (i < 0) return [];
    const weights = among.map((p) => p.budget);
    const part = (total: number) => shares(total, weights)[i]!;
    return [
      {
        at: a.at.getTime(),
        counts: {
          ...noCounts,
          impressions: part(a.impressions),
          clicks: part(a.clicks),
          conversions: part(a.conversions),
          spend_cents: part(Math.round(a.reported_spend * 100)),
        },
      },
    ];
  });
}

/** `total` whole units split by weight (largest remainder; ties to the first listed). */
export function shares(total: number, weights: readonly number[]): number[] {
  const whole = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (whole > 0 ? (total * w) / whole : total / weights.length));
  const out = exact.map((x) => Math.floor(x));
  const left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ rest: x - out[i]!, i })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let k = 0; k < left; k++) out[order[k % order.length]!.i]! += 1;
  return out;
}

function deliveryStatus(
  pkg: SimPackage,
  status: MediaBuyStatus | undefined,
  spent: number,
  now: number,
): DeliveryStatus | undefined {
  if (now < pkg.start.getTime()) return undefined;
  if (status === 'canceled' || status === 'rejected' || (pkg.canceled_at !== null && pkg.canceled_at.getTime() <= now))
    return undefined;
  const ended = now >= pkg.end.getTime() || status === 'completed';
  if (Math.round(spent * 100) >= Math.round(pkg.budget * 100)) return ended ? 'completed' : 'budget_exhausted';
  if (ended) return 'flight_ended';
  const waiting =
    status === 'pending_creatives' || (pkg.creativeless_from !== null && pkg.creativeless_from.getTime() <= now);
  return waiting ? undefined : 'delivering';
}

function pacingIndex(pkg: SimPackage, spent: number, now: number): number | undefined {
  const start = pkg.start.getTime();
  const elapsed = (Math.min(now, pkg.end.getTime()) - start) / (pkg.end.getTime() - start);
  if (!(elapsed > 0)) return undefined;
  return Math.round((spent / (pkg.budget * elapsed)) * 1000) / 1000;
}
