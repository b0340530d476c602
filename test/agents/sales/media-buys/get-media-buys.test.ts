import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { validActions } from '../../../../src/agents/sales/media-buys/index.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { buyerPool, inDays, startSales } from './harness.ts';

eachEngine('sales agent: get_media_buys', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock);
  const newBuyer = buyers.add;
  const ids = (answer: Json) => answer.media_buys.map((m: Json) => m.media_buy_id);

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  it('answers a buy with its packages, budgets, currency, flight, status, valid actions and creative deadline', async () => {
    const b = await newBuyer();
    const created = await b.create();
    const answer = await b.get({ media_buy_ids: [created.media_buy_id] });
    assert.equal(answer.sandbox, false);
    assert.deepEqual(answer.pagination, { has_more: false, total_count: 1 });
    const [buy] = answer.media_buys;
    assert.equal(buy.status, 'pending_creatives');
    assert.equal(buy.revision, 1);
    assert.deepEqual(buy.valid_actions, validActions('pending_creatives'));
    assert.equal(buy.currency, 'USD');
    assert.equal(buy.total_budget, 6000);
    assert.deepEqual([buy.start_time, buy.end_time], [inDays(clock, 10), inDays(clock, 40)]);
    assert.equal(buy.creative_deadline, inDays(clock, 8));
    assert.deepEqual(
      buy.packages.map((p: Json) => [p.package_id, p.product_id, p.budget, p.currency, p.paused, p.canceled]),
      created.packages.map((p: Json) => [p.package_id, p.product_id, p.budget, 'USD', false, false]),
    );
  });

  it('filters by status, the active ones when asked for none, and by account', async () => {
    const b = await newBuyer();
    const first = await b.create();
    const second = await b.create();
    await b.update(second.media_buy_id, { paused: true });
    assert.deepEqual(ids(await b.get()), [], 'active only by default: none is');
    assert.deepEqual(ids(await b.get({ status_filter: 'paused' })), [second.media_buy_id]);
    assert.deepEqual(ids(await b.get({ status_filter: ['pending_creatives', 'paused'] })), [
      first.media_buy_id,
      second.media_buy_id,
    ]);
    // By id, no implicit status filter.
    assert.deepEqual(ids(await b.get({ media_buy_ids: [second.media_buy_id, first.media_buy_id] })), [
      first.media_buy_id,
      second.media_buy_id,
    ]);

    const other = await newBuyer({ org: true });
    const theirs = await other.create();
    const withoutAccount = await other.call('get_media_buys', { status_filter: ['pending_creatives', 'paused'] });
    assert.deepEqual(
      ids(withoutAccount),
      [theirs.media_buy_id],
      'all of the caller’s accounts, none of another caller’s',
    );
  });

  it('pages through the buys in the order they were made', async () => {
    const b = await newBuyer();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await b.create()).media_buy_id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await b.get({
        status_filter: 'pending_creatives',
        pagination: { max_results: 2, ...(cursor ? { cursor } : {}) },
      });
      assert.equal(page.pagination.total_count, 5);
      seen.push(...ids(page));
      if (!page.pagination.has_more) break;
      cursor = page.pagination.cursor;
    }
    assert.deepEqual(seen, made);
    const bad = await b.fail('get_media_buys', { account: b.account, pagination: { cursor: 'nonsense' } });
    assert.equal(bad.code, 'INVALID_REQUEST');
  });

  it('includes the latest history entries when asked, most recent first', async () => {
    const b = await newBuyer();
    const { media_buy_id: id, packages } = await b.create();
    await b.update(id, { packages: [{ package_id: packages[0].package_id, budget: 6000 }] });
    await b.update(id, { paused: true });
    const [buy] = (await b.get({ media_buy_ids: [id], include_history: 2 })).media_buys;
    assert.deepEqual(
      buy.history.map((e: Json) => [e.revision, e.action, e.package_id]),
      [
        [3, 'paused', undefined],
        [2, 'updated_budget', packages[0].package_id],
      ],
    );
    assert.match(buy.history[1].summary, /5000 to USD 6000/);
    assert.equal((await b.get({ media_buy_ids: [id] })).media_buys[0].history, undefined, 'none unless asked');
  });
});
