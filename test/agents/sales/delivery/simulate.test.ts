import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { channelRates } from '../../../../src/agents/sales/delivery/channel-rates.ts';
import { minus, noCounts, sum } from '../../../../src/agents/sales/delivery/metrics.ts';
import { countsFor, effectiveRate } from '../../../../src/agents/sales/delivery/pricing.ts';
import { shares, simulateBuy, type SimBuy, type SimPackage } from '../../../../src/agents/sales/delivery/simulate.ts';
import { utcDays } from '../../../../src/agents/sales/delivery/utc-days.ts';

const day = 86_400_000;
/** The flight starts at midnight UTC on 1 January 2030 and lasts 30 days. */
const t0 = Date.UTC(2030, 0, 1);
const at = (days: number) => new Date(t0 + days * day);
const display = channelRates(['display']);

function pkg(more: Partial<SimPackage> = {}): SimPackage {
  return {
    package_id: 'pkg_a',
    budget: 3000,
    pricing: { model: 'cpm', rate: 10 },
    rates: display,
    start: at(0),
    end: at(30),
    pacing: 'even',
    created_at: at(-5),
    canceled_at: null,
    paused_at_creation: false,
    pause_changes: [],
    creativeless_from: null,
    ...more,
  };
}

const booked = [{ at: at(-5), status: 'pending_start' as const }];
const buy = (more: Partial<SimBuy> = {}): SimBuy => ({ statuses: booked, packages: [pkg()], adjustments: [], ...more });
const first = (b: SimBuy, now: Date) => simulateBuy(b, now).packages[0]!;
const spent = (b: SimBuy, days: number) => first(b, at(days)).spent;
/** Everything reported of the first package by `days`. */
const soFar = (b: SimBuy, days: number) => first(b, at(days)).before(new Date(at(days).getTime() + 1));

describe('delivery simulation', () => {
  it('delivers nothing before the flight starts', () => {
    const p = first(buy(), at(-1));
    assert.equal(p.spent, 0);
    assert.deepEqual(
      Object.values(p.before(at(100))),
      Object.values(countsFor(0, { model: 'cpm', rate: 10 }, display)),
    );
    assert.equal(soFar(buy(), -1).impressions, 0);
    assert.equal(p.deliveryStatus, undefined);
    assert.equal(p.pacingIndex, undefined);
  });

  it('paces evenly: spend in proportion to the flight elapsed, impressions = spend / CPM × 1000, the rest at the channel’s rates', () => {
    const p = first(buy(), at(7.5));
    assert.equal(p.spent, 750);
    assert.equal(p.pacingIndex, 1);
    assert.equal(p.deliveryStatus, 'delivering');
    assert.deepEqual(p.before(at(100)), {
      spend_cents: 75_000,
      impressions: 75_000,
      clicks: 75,
      conversions: 1,
      views: 0,
      completed_views: 0,
      viewable_impressions: 52_500,
      grps_hundredths: 0,
    });
    assert.equal(spent(buy(), 15), 1500);
  });

  it('spends exactly the budget by the end, and nothing more afterwards', () => {
    for (const pacing of ['even', 'asap', 'front_loaded'] as const) {
      const b = buy({ packages: [pkg({ pacing, budget: 2999.99 })] });
      assert.equal(spent(b, 30), 2999.99, pacing);
      assert.equal(spent(b, 400), 2999.99, pacing);
      assert.equal(soFar(b, 400).spend_cents, 299_999, pacing);
      assert.equal(first(b, at(31)).deliveryStatus, 'completed', pacing);
    }
  });

  it('spends asap within the first quarter of the flight, and front-loaded at a falling rate', () => {
    const asap = buy({ packages: [pkg({ pacing: 'asap' })] });
    assert.equal(spent(asap, 3.75), 1500);
    assert.equal(spent(asap, 7.5), 3000);
    assert.equal(first(asap, at(10)).deliveryStatus, 'budget_exhausted');
    const front = buy({ packages: [pkg({ pacing: 'front_loaded' })] });
    assert.equal(spent(front, 15), 2250);
    assert.ok(first(front, at(15)).pacingIndex! > 1);
  });

  it('delivers nothing while the buy is paused, and paces what remains over what remains of the flight after', () => {
    const b = buy({ statuses: [...booked, { at: at(10), status: 'paused' }, { at: at(20), status: 'active' }] });
    assert.equal(spent(b, 10), 1000);
    assert.equal(spent(b, 15), 1000);
    assert.deepEqual(soFar(b, 19.9), soFar(b, 10));
    assert.equal(first(b, at(15)).pacingIndex, 0.667);
    assert.equal(first(b, at(15)).deliveryStatus, 'delivering', 'the buyer’s pause is not a delivery state');
    assert.equal(spent(b, 25), 2000);
    assert.equal(spent(b, 30), 3000);
  });

  it('delivers nothing while a package is paused, whether it was made paused or paused later', () => {
    const later = buy({
      packages: [
        pkg({
          pause_changes: [
            { at: at(10), paused: true },
            { at: at(20), paused: false },
          ],
        }),
      ],
    });
    assert.equal(spent(later, 20), 1000);
    assert.equal(spent(later, 25), 2000);
    const madePaused = buy({
      packages: [pkg({ paused_at_creation: true, pause_changes: [{ at: at(15), paused: false }] })],
    });
    assert.equal(spent(madePaused, 15), 0);
    assert.equal(spent(madePaused, 22.5), 1500);
  });

  it('delivers nothing while the buy waits for creatives', () => {
    const b = buy({
      statuses: [
        { at: at(-5), status: 'pending_creatives' },
        { at: at(10), status: 'pending_start' },
      ],
    });
    assert.equal(spent(b, 10), 0);
    assert.equal(first(b, at(5)).deliveryStatus, undefined);
    assert.equal(spent(b, 20), 1500);
  });

  it('delivers nothing from a package without creatives, though its buy is active: never given one, or from when its last was taken off', () => {
    const active = [{ at: at(-5), status: 'active' as const }];
    const never = first(buy({ statuses: active, packages: [pkg({ creativeless_from: at(-5) })] }), at(10));
    assert.deepEqual([never.spent, never.deliveryStatus], [0, undefined]);
    const lost = buy({ statuses: active, packages: [pkg({ creativeless_from: at(10) })] });
    assert.equal(spent(lost, 10), 1000);
    assert.equal(spent(lost, 20), 1000, 'nothing after its last creative went');
    assert.equal(first(lost, at(20)).deliveryStatus, undefined);
  });

  it('stops at the cancellation of the buy or of the package', () => {
    const canceled = buy({ statuses: [...booked, { at: at(10), status: 'canceled' }] });
    assert.equal(spent(canceled, 20), 1000);
    assert.equal(first(canceled, at(20)).deliveryStatus, undefined);
    const packageCanceled = buy({ packages: [pkg({ canceled_at: at(10) })] });
    assert.equal(spent(packageCanceled, 40), 1000);
    assert.equal(first(packageCanceled, at(40)).deliveryStatus, undefined);
  });

  it('starts a package added to a running buy when it is added', () => {
    const b = buy({ packages: [pkg({ created_at: at(10) })] });
    assert.equal(spent(b, 10), 0);
    assert.equal(spent(b, 20), 1500);
  });

  it('reports the flight ended with budget left when the buy was paused at its end', () => {
    const b = buy({ statuses: [...booked, { at: at(20), status: 'paused' }] });
    assert.equal(spent(b, 40), 2000);
    assert.equal(first(b, at(40)).deliveryStatus, 'flight_ended');
  });

  it('spends to a forced share of the budget at once, never back, and paces the rest', () => {
    const b = buy({
      adjustments: [
        { kind: 'budget_spend', at: at(5), percentage: 80 },
        { kind: 'budget_spend', at: at(20), percentage: 10 },
      ],
    });
    assert.equal(spent(b, 4), 400);
    assert.equal(spent(b, 5), 2400);
    assert.equal(spent(b, 17.5), 2700);
    assert.equal(spent(b, 20), 2760, 'a share below what is spent changes nothing');
    assert.equal(spent(b, 30), 3000);
    const exhausted = buy({ adjustments: [{ kind: 'budget_spend', at: at(5), percentage: 100 }] });
    assert.equal(spent(exhausted, 6), 3000);
    assert.equal(first(exhausted, at(6)).deliveryStatus, 'budget_exhausted');
    assert.equal(soFar(exhausted, 6).impressions, 300_000);
  });

  it('adds recorded delivery from its time on, shared among the packages by budget, without touching the budget', () => {
    const b = buy({
      packages: [pkg(), pkg({ package_id: 'pkg_b', budget: 1000 })],
      adjustments: [
        { kind: 'delivery', at: at(2), impressions: 1001, clicks: 7, conversions: 3, reported_spend: 10.01 },
      ],
    });
    const adjusted = simulateBuy(b, at(3)).packages;
    const plain = simulateBuy({ ...b, adjustments: [] }, at(3)).packages;
    const extra = (i: number, t: Date) => minus(adjusted[i]!.before(t), plain[i]!.before(t));
    assert.deepEqual(
      [0, 1].map((i) => extra(i, at(10))),
      [
        { ...noCounts, impressions: 751, clicks: 5, conversions: 2, spend_cents: 751 },
        { ...noCounts, impressions: 250, clicks: 2, conversions: 1, spend_cents: 250 },
      ],
    );
    assert.deepEqual(extra(0, at(2)), noCounts, 'nothing before its time');
    assert.deepEqual(extra(0, new Date(at(2).getTime() + 1)), extra(0, at(10)), 'all of it from its time on');
    assert.deepEqual(
      adjusted.map((p) => p.spent),
      plain.map((p) => p.spent),
      'reported spend is not spent from the budget',
    );
  });

  it('adds up day by day to the whole span, pauses and adjustments included', () => {
    const b = buy({
      statuses: [
        ...booked,
        { at: new Date(at(3).getTime() + 5 * 3600_000), status: 'paused' },
        { at: at(6.5), status: 'active' },
      ],
      adjustments: [
        { kind: 'delivery', at: at(4.2), impressions: 12345, clicks: 3, conversions: 0, reported_spend: 99.99 },
      ],
    });
    const p = first(b, at(12.3));
    const span = { from: at(-2), to: new Date(at(12.3).getTime() + 1) };
    const days = utcDays(span.from, span.to);
    assert.equal(days.length, 15);
    assert.equal(days[0]!.date, '2029-12-30');
    assert.deepEqual(sum(days.map((d) => p.between(d.from, d.to))), p.between(span.from, span.to));
    assert.equal(p.between(at(4), at(5)).spend_cents, 9999, 'a paused day shows only what was recorded on it');
  });

  it('is deterministic', () => {
    const b = buy({
      statuses: [...booked, { at: at(10), status: 'paused' }, { at: at(12), status: 'active' }],
      packages: [pkg({ pacing: 'front_loaded' })],
    });
    assert.deepEqual(first(b, at(17)).before(at(17)), first(b, at(17)).before(at(17)));
    assert.equal(spent(b, 17), spent(b, 17));
  });

  it('counts each pricing model’s units at its rate', () => {
    const video = channelRates(['olv']);
    const cpcv = countsFor(60, { model: 'cpcv', rate: 0.06 }, video);
    assert.equal(cpcv.completed_views, 1000);
    assert.equal(cpcv.impressions, Math.floor(1000 / video.completionRate));
    assert.equal(effectiveRate('cpcv', cpcv), 0.06);
    const vcpm = countsFor(190, { model: 'vcpm', rate: 19 }, display);
    assert.equal(vcpm.viewable_impressions, 10_000);
    assert.equal(effectiveRate('vcpm', vcpm), 19);
    assert.equal(countsFor(50, { model: 'cpc', rate: 0.5 }, display).clicks, 100);
    assert.equal(
      countsFor(1000, { model: 'flat_rate', rate: 18000 }, display).impressions,
      100_000,
      'flat prices buy impressions at the notional CPM',
    );
    assert.equal(countsFor(300, { model: 'cpp', rate: 150 }, channelRates(['linear_tv'])).grps_hundredths, 200);
    assert.equal(effectiveRate('flat_rate', countsFor(1000, { model: 'flat_rate', rate: 18000 }, display)), undefined);
    assert.equal(
      countsFor(1250, { model: 'cpm', rate: 12.5 }, display).impressions,
      100_000,
      'float noise costs no impression',
    );
  });

  it('splits whole units by weight, remainders to the largest fractions', () => {
    assert.deepEqual(shares(10, [1, 1, 1]), [4, 3, 3]);
    assert.deepEqual(shares(1001, [3000, 1000]), [751, 250]);
    assert.deepEqual(shares(0, [5, 5]), [0, 0]);
  });
});
