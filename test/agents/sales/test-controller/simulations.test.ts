import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { cents, day, deliveryOf, servingBuy } from '../delivery/harness.ts';
import { buyerPool, refused, startSales, succeeds, type Buyer } from './harness.ts';

eachEngine('sales agent: comply_test_controller, simulated delivery and spend', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock, { sandbox: true });
  const newBuyer = buyers.add;
  /** A serving buy of the buyer's (6,000 USD over two packages), with the clock three days into its flight. */
  const runningBuy = async (b: Buyer) => {
    const buy = await servingBuy(server, clock, b);
    clock.set(Date.parse(buy.packages[0].start_time) + 3 * day);
    return buy.media_buy_id as string;
  };

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  it('adds simulated delivery to the buy’s report, with running totals', async () => {
    const b = await newBuyer();
    const id = await runningBuy(b);
    const before = await deliveryOf(b, id);
    const first = await succeeds(b, 'simulate_delivery', {
      media_buy_id: id,
      impressions: 10_000,
      clicks: 150,
      reported_spend: { amount: 150, currency: 'USD' },
    });
    assert.deepEqual(first.simulated, {
      impressions: 10_000,
      clicks: 150,
      conversions: 0,
      reported_spend: { amount: 150, currency: 'USD' },
    });
    assert.deepEqual(first.cumulative, first.simulated);
    const second = await succeeds(b, 'simulate_delivery', { media_buy_id: id, impressions: 5, conversions: 2 });
    assert.deepEqual(second.cumulative, {
      impressions: 10_005,
      clicks: 150,
      conversions: 2,
      reported_spend: { amount: 150, currency: 'USD' },
    });
    const after = await deliveryOf(b, id);
    assert.equal(after.totals.impressions - before.totals.impressions, 10_005);
    assert.equal(after.totals.clicks - before.totals.clicks, 150);
    assert.equal(cents(after.totals.spend) - cents(before.totals.spend), 15_000);
  });

  it('spends the buy’s budget to a percentage', async () => {
    const b = await newBuyer();
    const id = await runningBuy(b);
    const spent = await succeeds(b, 'simulate_budget_spend', { media_buy_id: id, spend_percentage: 95 });
    assert.deepEqual(spent.simulated, {
      spend_percentage: 95,
      computed_spend: { amount: 5700, currency: 'USD' },
      budget: { amount: 6000, currency: 'USD' },
    });
    assert.deepEqual(
      (await deliveryOf(b, id)).by_package.map((p: Json) => p.spend),
      [4750, 950],
    );
    await succeeds(b, 'simulate_budget_spend', {
      media_buy_id: id,
      account_id: b.account.account_id,
      spend_percentage: 100,
    });
    assert.deepEqual(
      (await deliveryOf(b, id)).by_package.map((p: Json) => p.delivery_status),
      ['budget_exhausted', 'budget_exhausted'],
    );
  });

  it('refuses buys that are not the sandbox account’s, spend without a buy, and a currency the buy is not in', async () => {
    const b = await newBuyer();
    const sibling = await newBuyer();
    const other = await newBuyer({ org: true, sandbox: true });
    const id = await runningBuy(b);
    const siblings = await runningBuy(sibling);
    const others = await runningBuy(other);
    for (const mediaBuyId of [siblings, others, 'mb_nowhere']) {
      assert.equal(
        (await refused(b, 'NOT_FOUND', 'simulate_delivery', { media_buy_id: mediaBuyId, impressions: 1 }))
          .current_state,
        null,
      );
      await refused(b, 'NOT_FOUND', 'simulate_budget_spend', { media_buy_id: mediaBuyId, spend_percentage: 50 });
    }
    await refused(b, 'NOT_FOUND', 'simulate_budget_spend', {
      media_buy_id: id,
      account_id: sibling.account.account_id,
      spend_percentage: 50,
    });
    assert.match(
      (
        await refused(b, 'INVALID_PARAMS', 'simulate_budget_spend', {
          account_id: b.account.account_id,
          spend_percentage: 50,
        })
      ).error_detail,
      /media_buy_id/,
    );
    const currency = await refused(b, 'INVALID_PARAMS', 'simulate_delivery', {
      media_buy_id: id,
      reported_spend: { amount: 1, currency: 'EUR' },
    });
    assert.match(currency.error_detail, /VALIDATION_ERROR at reported_spend\.currency/);
    assert.match(
      (await refused(b, 'INVALID_PARAMS', 'simulate_budget_spend', { media_buy_id: id, spend_percentage: 101 }))
        .error_detail,
      /params\.spend_percentage/,
    );

    const production = await newBuyer({});
    const theirs = await runningBuy(production);
    await refused(production, 'FORBIDDEN', 'simulate_delivery', { media_buy_id: theirs, impressions: 1 });
    assert.deepEqual(
      (await succeeds(b, 'simulate_delivery', { media_buy_id: id })).cumulative,
      { impressions: 0, clicks: 0, conversions: 0, reported_spend: { amount: 0, currency: 'USD' } },
      'nothing was recorded by the refusals',
    );
  });
});
