import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { demoCatalogPath } from '../../../../src/agents/sales/catalog/index.ts';
import { recordBudgetSpend, recordSimulatedDelivery } from '../../../../src/agents/sales/delivery/index.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { startTestServer } from '../../../support/server.ts';
import { buyer, buyerPool, cents, day, delivery, deliveryOf, servingBuy, startSales, type Buyer } from './harness.ts';

eachEngine('sales agent: get_media_buy_delivery', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock);
  const newBuyer = buyers.add;
  /** Moves the clock to `days` after the buy's flight starts (the clock only ever moves forward). */
  /** A create_media_buy answer's flight start (its packages', which are the buy's). */
  const startOf = (buy: Json): string => buy.packages[0].start_time;
  const moveTo = (buy: Json, days: number) => {
    const target = Date.parse(startOf(buy)) + days * day;
    assert.ok(target >= clock.now().getTime(), 'the test moves the clock forward');
    clock.set(target);
  };
  const spends = (d: Json) => [d.totals.spend, ...d.by_package.map((p: Json) => p.spend)];

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  it('reports nothing before the flight starts, then spend in proportion to the flight elapsed', async () => {
    const b = await newBuyer();
    const buy = await servingBuy(server, clock, b);
    const early = await delivery(b, { media_buy_ids: [buy.media_buy_id] });
    assert.equal(early.currency, 'USD');
    assert.deepEqual(early.aggregated_totals, {
      impressions: 0,
      spend: 0,
      clicks: 0,
      conversions: 0,
      media_buy_count: 1,
    });
    const [nothing] = early.media_buy_deliveries;
    assert.equal(nothing.status, 'pending_start');
    assert.equal(nothing.pricing_model, 'cpm');
    assert.deepEqual(spends(nothing), [0, 0, 0]);
    assert.deepEqual(
      nothing.by_package.map((p: Json) => [
        p.package_id,
        p.pricing_model,
        p.rate,
        p.currency,
        p.paused,
        p.delivery_status,
        p.pacing_index,
      ]),
      buy.packages.map((p: Json, i: number) => [p.package_id, 'cpm', [14, 5][i], 'USD', false, undefined, undefined]),
    );

    moveTo(buy, 7.5);
    const quarter = await deliveryOf(b, buy.media_buy_id);
    assert.deepEqual(spends(quarter), [1500, 1250, 250]);
    assert.deepEqual(
      quarter.by_package.map((p: Json) => p.impressions),
      [Math.floor((1250 / 14) * 1000), (250 / 5) * 1000],
    );
    assert.deepEqual(
      quarter.by_package.map((p: Json) => [p.pacing_index, p.delivery_status]),
      [
        [1, 'delivering'],
        [1, 'delivering'],
      ],
    );
    assert.equal(quarter.totals.impressions, quarter.by_package[0].impressions + quarter.by_package[1].impressions);
    assert.equal(quarter.totals.clicks, quarter.by_package[0].clicks + quarter.by_package[1].clicks);
    assert.ok(quarter.totals.clicks > 0 && quarter.totals.ctr > 0);
    assert.ok(
      Math.abs(quarter.totals.effective_rate - (1500 / quarter.totals.impressions) * 1000) < 1e-4,
      'the CPM paid',
    );
  });

  it('spends exactly the budget by the end of the flight, and never more', async () => {
    const b = await newBuyer();
    const buy = await servingBuy(server, clock, b);
    moveTo(buy, 30);
    const ended = await deliveryOf(b, buy.media_buy_id);
    assert.deepEqual(spends(ended), [6000, 5000, 1000]);
    assert.deepEqual(
      ended.by_package.map((p: Json) => p.delivery_status),
      ['completed', 'completed'],
    );
    moveTo(buy, 45);
    assert.deepEqual(await deliveryOf(b, buy.media_buy_id), ended);
  });

  it('delivers nothing while the buy or a package is paused, and catches up after', async () => {
    const b = await newBuyer();
    const buy = await servingBuy(server, clock, b);
    moveTo(buy, 6);
    await b.update(buy.media_buy_id, { paused: true });
    const paused = await deliveryOf(b, buy.media_buy_id);
    assert.deepEqual(spends(paused), [1200, 1000, 200]);
    moveTo(buy, 12);
    const later = await deliveryOf(b, buy.media_buy_id);
    assert.equal(later.status, 'paused');
    assert.deepEqual(later.totals, paused.totals, 'nothing delivered while paused');
    assert.ok(later.by_package[0].pacing_index < 1);

    await b.update(buy.media_buy_id, { paused: false });
    moveTo(buy, 21);
    assert.deepEqual(
      spends(await deliveryOf(b, buy.media_buy_id)),
      [3600, 3000, 600],
      'what remains paced over what remains',
    );

    const [first, second] = buy.packages;
    await b.update(buy.media_buy_id, { packages: [{ package_id: first.package_id, paused: true }] });
    moveTo(buy, 30);
    const onePaused = await deliveryOf(b, buy.media_buy_id);
    assert.deepEqual(spends(onePaused), [4000, 3000, 1000], 'the paused package stopped, the other spent its budget');
    assert.deepEqual(
      onePaused.by_package.map((p: Json) => [p.package_id, p.paused, p.delivery_status]),
      [
        [first.package_id, true, 'flight_ended'],
        [second.package_id, false, 'completed'],
      ],
    );
  });

  it('delivers nothing from a package without creatives, though a resumed buy is active', async () => {
    const b = await newBuyer();
    const buy = await b.create();
    assert.equal(buy.status, 'pending_creatives');
    moveTo(buy, 1);
    await b.update(buy.media_buy_id, { paused: true });
    assert.equal(
      (await b.update(buy.media_buy_id, { paused: false })).status,
      'active',
      'resumed as the published lifecycle says',
    );
    moveTo(buy, 5);
    const report = await deliveryOf(b, buy.media_buy_id);
    assert.deepEqual(spends(report), [0, 0, 0]);
    assert.deepEqual(
      report.by_package.map((p: Json) => p.delivery_status),
      [undefined, undefined],
    );
  });

  it('stops a package when its last creative is taken off', async () => {
    const b = await newBuyer();
    const buy = await servingBuy(server, clock, b);
    moveTo(buy, 3);
    const before = spends(await deliveryOf(b, buy.media_buy_id));
    assert.ok(before[1] > 0);
    await b.update(buy.media_buy_id, {
      packages: [{ package_id: buy.packages[0].package_id, creative_assignments: [] }],
    });
    moveTo(buy, 6);
    const after = await deliveryOf(b, buy.media_buy_id);
    assert.equal(after.by_package[0].spend, before[1], 'nothing spent after its creatives went');
    assert.equal(after.by_package[0].delivery_status, undefined);
    assert.ok(after.by_package[1].spend > before[2], 'the other package, with its creative, goes on');
  });

  it('stops delivering a canceled buy', async () => {
    const b = await newBuyer();
    const buy = await servingBuy(server, clock, b);
    moveTo(buy, 15);
    await b.update(buy.media_buy_id, { canceled: true });
    const canceled = await deliveryOf(b, buy.media_buy_id);
    assert.equal(canceled.status, 'canceled');
    assert.deepEqual(spends(canceled), [3000, 2500, 500]);
    assert.deepEqual(
      canceled.by_package.map((p: Json) => p.delivery_status),
      [undefined, undefined],
    );
    moveTo(buy, 40);
    assert.deepEqual((await deliveryOf(b, buy.media_buy_id)).totals, canceled.totals);
  });

  it('breaks delivery down by UTC day on request, days adding up to the totals', async () => {
    const b = await newBuyer();
    const buy = await servingBuy(server, clock, b);
    moveTo(buy, 3);
    await b.update(buy.media_buy_id, { paused: true });
    moveTo(buy, 5.5);
    await b.update(buy.media_buy_id, { paused: false });
    moveTo(buy, 9.25);
    assert.equal((await deliveryOf(b, buy.media_buy_id)).daily_breakdown, undefined, 'only when asked');
    const d = await deliveryOf(b, buy.media_buy_id, { include_package_daily_breakdown: true });
    const dates = (days: Json[]) => days.map((x) => x.date);
    const first = startOf(buy).slice(0, 10);
    assert.equal(d.daily_breakdown[0].date, first);
    assert.equal(d.daily_breakdown.at(-1).date, clock.now().toISOString().slice(0, 10));
    for (const [i, date] of dates(d.daily_breakdown).entries())
      assert.equal(date, new Date(Date.parse(`${first}T00:00:00Z`) + i * day).toISOString().slice(0, 10));
    const total = (days: Json[], key: 'spend' | 'impressions') =>
      days.reduce((s, x) => s + (key === 'spend' ? cents(x.spend) : x.impressions), 0);
    assert.equal(total(d.daily_breakdown, 'spend'), cents(d.totals.spend));
    assert.equal(total(d.daily_breakdown, 'impressions'), d.totals.impressions);
    for (const p of d.by_package) {
      assert.deepEqual(dates(p.daily_breakdown), dates(d.daily_breakdown));
      assert.equal(total(p.daily_breakdown, 'spend'), cents(p.spend));
      assert.equal(total(p.daily_breakdown, 'impressions'), p.impressions);
    }
    assert.ok(
      d.daily_breakdown.slice(1).some((x: Json) => x.spend === 0 && x.impressions === 0),
      'a whole day paused delivers nothing',
    );
    assert.ok(d.daily_breakdown.at(-2).spend > 200, 'a whole day after the pause catches up: above the even 200 a day');
  });

  it('reports the asked UTC days only: start_date included, end_date excluded', async () => {
    const b = await newBuyer();
    const buy = await servingBuy(server, clock, b);
    moveTo(buy, 20);
    const lifetime = await deliveryOf(b, buy.media_buy_id, { include_package_daily_breakdown: true });
    const from = lifetime.daily_breakdown[3].date;
    const to = lifetime.daily_breakdown[8].date;
    const answer = await delivery(b, {
      media_buy_ids: [buy.media_buy_id],
      start_date: from,
      end_date: to,
      include_package_daily_breakdown: true,
    });
    assert.deepEqual(answer.reporting_period, { start: `${from}T00:00:00.000Z`, end: `${to}T00:00:00.000Z` });
    const [ranged] = answer.media_buy_deliveries;
    assert.deepEqual(ranged.daily_breakdown, lifetime.daily_breakdown.slice(3, 8));
    assert.equal(
      cents(ranged.totals.spend),
      lifetime.daily_breakdown.slice(3, 8).reduce((s: number, x: Json) => s + cents(x.spend), 0),
    );
    assert.ok(Math.abs(ranged.totals.spend - 1000) <= 0.02, 'five whole days of a 30-day flight of 6,000');

    const since = await delivery(b, { media_buy_ids: [buy.media_buy_id], start_date: from });
    assert.deepEqual(since.reporting_period, { start: `${from}T00:00:00.000Z`, end: clock.now().toISOString() });
    const until = await delivery(b, { media_buy_ids: [buy.media_buy_id], end_date: from });
    assert.deepEqual(until.reporting_period, { start: startOf(buy), end: `${from}T00:00:00.000Z` });
    assert.equal(
      cents(since.media_buy_deliveries[0].totals.spend) + cents(until.media_buy_deliveries[0].totals.spend),
      cents(lifetime.totals.spend),
    );

    const ahead = new Date(clock.now().getTime() + 5 * day).toISOString().slice(0, 10);
    const future = await delivery(b, { media_buy_ids: [buy.media_buy_id], start_date: ahead });
    assert.equal(future.media_buy_deliveries[0].totals.spend, 0);
    assert.deepEqual(future.reporting_period, { start: `${ahead}T00:00:00.000Z`, end: `${ahead}T00:00:00.000Z` });

    const backwards = await b.fail('get_media_buy_delivery', {
      media_buy_ids: [buy.media_buy_id],
      start_date: to,
      end_date: from,
    });
    assert.deepEqual([backwards.code, backwards.field], ['VALIDATION_ERROR', 'end_date']);
    const same = await b.fail('get_media_buy_delivery', { start_date: from, end_date: from });
    assert.equal(same.code, 'VALIDATION_ERROR');
    const impossible = await b.fail('get_media_buy_delivery', { start_date: '2031-02-30' });
    assert.deepEqual([impossible.code, impossible.field], ['INVALID_REQUEST', 'start_date']);
    const malformed = await b.fail('get_media_buy_delivery', { end_date: '1 March 2031' });
    assert.deepEqual([malformed.code, malformed.field], ['INVALID_REQUEST', 'end_date']);
  });

  it('filters by status, active when neither ids nor a status are given', async () => {
    const b = await newBuyer();
    const running = await servingBuy(server, clock, b, { start_time: 'asap' });
    const paused = await servingBuy(server, clock, b);
    await b.update(paused.media_buy_id, { paused: true });
    const ids = (answer: Json) => answer.media_buy_deliveries.map((d: Json) => d.media_buy_id);
    assert.deepEqual(ids(await delivery(b, { account: b.account })), [running.media_buy_id]);
    assert.deepEqual(ids(await delivery(b, { account: b.account, status_filter: 'paused' })), [paused.media_buy_id]);
    const both = await delivery(b, { account: b.account, status_filter: ['active', 'paused'] });
    assert.deepEqual(ids(both), [running.media_buy_id, paused.media_buy_id]);
    assert.equal(both.aggregated_totals.media_buy_count, 2);
    assert.equal(
      cents(both.aggregated_totals.spend),
      both.media_buy_deliveries.reduce((s: number, d: Json) => s + cents(d.totals.spend), 0),
    );
  });

  it('answers ids the caller has no buy of in errors[], and never shows another buyer’s buys', async () => {
    const b = await newBuyer();
    const mine = await servingBuy(server, clock, b, { start_time: 'asap' });
    const answer = await delivery(b, { media_buy_ids: [mine.media_buy_id, 'mb_000000000000000000000000'] });
    assert.deepEqual(
      answer.media_buy_deliveries.map((d: Json) => d.media_buy_id),
      [mine.media_buy_id],
    );
    assert.deepEqual(
      answer.errors.map((e: Json) => [e.code, e.field]),
      [['MEDIA_BUY_NOT_FOUND', 'media_buy_ids']],
    );

    const other = await newBuyer({ org: true });
    const theirs = await delivery(other, { media_buy_ids: [mine.media_buy_id] });
    assert.deepEqual(theirs.media_buy_deliveries, []);
    assert.deepEqual(
      theirs.errors.map((e: Json) => e.code),
      ['MEDIA_BUY_NOT_FOUND'],
    );
    assert.deepEqual(theirs.aggregated_totals, { impressions: 0, spend: 0, media_buy_count: 0 });
    const everything = await delivery(other, {
      status_filter: ['pending_creatives', 'pending_start', 'active', 'paused', 'completed', 'rejected', 'canceled'],
    });
    assert.ok(!everything.media_buy_deliveries.some((d: Json) => d.media_buy_id === mine.media_buy_id));
  });

  it('adds what the test controller records: delivery on top (reported spend off the budget), and spend to a share of the budget', async () => {
    const b = await newBuyer();
    const buy = await servingBuy(server, clock, b);
    const id = buy.media_buy_id;
    const { owner } = (
      await server.db.query<{ owner: string }>('select owner from sales_media_buys where media_buy_id = $1', [id])
    )[0]!;
    moveTo(buy, 3);
    const before = await deliveryOf(b, id);
    const recorded = await recordSimulatedDelivery(
      server.db,
      {
        owner,
        media_buy_id: id,
        impressions: 10_000,
        clicks: 150,
        conversions: 4,
        reported_spend: { amount: 150, currency: 'USD' },
      },
      clock.now(),
    );
    assert.deepEqual(recorded, {
      simulated: { impressions: 10_000, clicks: 150, conversions: 4, reported_spend: { amount: 150, currency: 'USD' } },
      cumulative: {
        impressions: 10_000,
        clicks: 150,
        conversions: 4,
        reported_spend: { amount: 150, currency: 'USD' },
      },
    });
    const again = await recordSimulatedDelivery(server.db, { media_buy_id: id, impressions: 5 }, clock.now());
    assert.deepEqual(again.cumulative, {
      impressions: 10_005,
      clicks: 150,
      conversions: 4,
      reported_spend: { amount: 150, currency: 'USD' },
    });
    const adjusted = await deliveryOf(b, id);
    assert.equal(adjusted.totals.impressions - before.totals.impressions, 10_005);
    assert.equal(adjusted.totals.clicks - before.totals.clicks, 150);
    assert.equal(adjusted.totals.conversions - before.totals.conversions, 4);
    assert.equal(cents(adjusted.totals.spend) - cents(before.totals.spend), 15_000);
    assert.deepEqual(
      adjusted.by_package.map((p: Json) => p.pacing_index),
      before.by_package.map((p: Json) => p.pacing_index),
      'reported spend is not spent from the budget',
    );

    const spent = await recordBudgetSpend(server.db, { media_buy_id: id }, 95, clock.now());
    assert.deepEqual(spent, { spend_percentage: 95, computed_spend: 5700, budget: 6000, currency: 'USD' });
    const forced = await deliveryOf(b, id);
    assert.deepEqual(
      forced.by_package.map((p: Json) => p.spend),
      [4750 + 125, 950 + 25],
      '95% of each budget, plus its share of the reported spend (by budget)',
    );
    moveTo(buy, 30);
    const ended = await deliveryOf(b, id);
    assert.deepEqual(
      ended.by_package.map((p: Json) => p.spend),
      [5000 + 125, 1000 + 25],
      'the budget and no more, plus what was reported',
    );

    const exhausted = await servingBuy(server, clock, b);
    moveTo(exhausted, 2);
    await recordBudgetSpend(server.db, { owner, media_buy_id: exhausted.media_buy_id }, 100, clock.now());
    const out = await deliveryOf(b, exhausted.media_buy_id);
    assert.deepEqual(spends(out), [6000, 5000, 1000]);
    assert.deepEqual(
      out.by_package.map((p: Json) => p.delivery_status),
      ['budget_exhausted', 'budget_exhausted'],
    );

    const refused = async (call: Promise<unknown>, code: string, field: string) =>
      assert.rejects(call, (err: { code?: string; field?: string }) => err.code === code && err.field === field);
    await refused(
      recordBudgetSpend(server.db, { media_buy_id: id }, 101, clock.now()),
      'INVALID_REQUEST',
      'spend_percentage',
    );
    await refused(
      recordSimulatedDelivery(
        server.db,
        { media_buy_id: id, reported_spend: { amount: 1, currency: 'EUR' } },
        clock.now(),
      ),
      'VALIDATION_ERROR',
      'reported_spend.currency',
    );
    await refused(
      recordSimulatedDelivery(server.db, { media_buy_id: id, clicks: 1.5 }, clock.now()),
      'INVALID_REQUEST',
      'clicks',
    );
    await refused(
      recordSimulatedDelivery(server.db, { media_buy_id: `mb_${randomUUID()}` }, clock.now()),
      'MEDIA_BUY_NOT_FOUND',
      'media_buy_id',
    );
    await refused(
      recordBudgetSpend(server.db, { owner: 'org:someone-else', media_buy_id: id }, 50, clock.now()),
      'MEDIA_BUY_NOT_FOUND',
      'media_buy_id',
    );
  });

  it('refuses start_date and end_date for a buy of products reported over their whole flight only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ap-catalog-'));
    after(() => rm(dir, { recursive: true, force: true }));
    // The demo catalog's display products share one reporting block: make it lifetime only.
    const path = join(dir, 'catalog.yaml');
    await writeFile(
      path,
      (await readFile(demoCatalogPath, 'utf8')).replace(
        'date_range_support: date_range',
        'date_range_support: lifetime_only',
      ),
    );
    const lifetimeServer = await startTestServer(engine, {
      env: { AGENTS: 'true', SALES_CATALOG: path },
      deps: { clock },
    });
    let client: Buyer['client'] | undefined;
    try {
      const b = await buyer(lifetimeServer, clock);
      client = b.client;
      const buy = await servingBuy(lifetimeServer, clock, b);
      moveTo(buy, 3);
      const today = clock.now().toISOString().slice(0, 10);
      const ranged = await delivery(b, { media_buy_ids: [buy.media_buy_id], start_date: today });
      assert.deepEqual(ranged.media_buy_deliveries, []);
      assert.deepEqual(
        ranged.errors.map((e: Json) => [e.code, e.field, e.details.media_buy_id]),
        [['UNSUPPORTED_FEATURE', 'start_date', buy.media_buy_id]],
      );
      assert.deepEqual(spends(await deliveryOf(b, buy.media_buy_id)), [600, 500, 100], 'its lifetime is reported');
    } finally {
      await client?.close();
      await lifetimeServer.close();
    }
  });
});
