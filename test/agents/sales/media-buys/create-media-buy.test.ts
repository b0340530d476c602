import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { setAccountStatus } from '../../../../src/agents/sales/index.ts';
import { validActions } from '../../../../src/agents/sales/media-buys/index.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { banner } from '../creatives/harness.ts';
import { buyerPool, createArgs, day, inDays, startSales, type Buyer } from './harness.ts';

const allStatuses = ['pending_creatives', 'pending_start', 'active', 'paused', 'completed', 'rejected', 'canceled'];

eachEngine('sales agent: create_media_buy', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock);
  const newBuyer = buyers.add;
  const fixed = { product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 };
  const auction = {
    product_id: 'dh_news_display_auction',
    pricing_option_id: 'cpm_auction',
    budget: 1000,
    bid_price: 5,
  };
  /** Asserts the create fails with `code` at `field`, and leaves no buy behind. */
  const refused = async (b: Buyer, more: Record<string, unknown>, code: string, field: string) => {
    const error = await b.fail('create_media_buy', createArgs(clock, b.account, b.domain, more));
    assert.equal(error.code, code, JSON.stringify(error));
    assert.equal(error.field, field, JSON.stringify(error));
    return error;
  };

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  it('confirms a buy at revision 1 waiting for creatives, with seller package ids, valid actions and the terms it agreed', async () => {
    const b = await newBuyer();
    const targeting = {
      geo_countries: ['US'],
      property_list: {
        agent_url: 'https://lists.example/mcp',
        list_id: 'news-allow',
        auth_token: 'secret-token-of-the-list',
      },
      collection_list: { agent_url: 'https://lists.example/mcp', list_id: 'shows' },
    };
    const terms = {
      billing_measurement: { vendor: { domain: 'campaignmanager.google.com' }, max_variance_percent: 10 },
      makegood_policy: { available_remedies: ['credit'] },
    };
    const answer = await b.create({
      po_number: 'PO-7',
      packages: [{ ...fixed, targeting_overlay: targeting, measurement_terms: terms }, auction],
    });
    assert.match(answer.media_buy_id, /^mb_[0-9a-f]{24}$/);
    assert.equal(answer.status, 'pending_creatives');
    assert.equal(answer.revision, 1);
    assert.equal(answer.confirmed_at, clock.now().toISOString());
    assert.deepEqual(answer.valid_actions, validActions('pending_creatives'));
    assert.ok(answer.valid_actions.includes('sync_creatives') && answer.valid_actions.includes('cancel'));
    assert.equal(answer.sandbox, false);
    assert.equal(answer.replayed, false);
    assert.equal(answer.po_number, 'PO-7');
    assert.equal(answer.account.account_id, b.account.account_id);
    const [first, second] = answer.packages;
    assert.match(first.package_id, /^pkg_[0-9a-f]{24}$/);
    assert.notEqual(first.package_id, second.package_id);
    assert.deepEqual(
      answer.packages.map((p: Json) => [p.product_id, p.pricing_option_id, p.budget, p.bid_price]),
      [
        ['dh_news_display', 'cpm_fixed', 5000, undefined],
        ['dh_news_display_auction', 'cpm_auction', 1000, 5],
      ],
    );
    assert.deepEqual(
      first.targeting_overlay,
      { ...targeting, property_list: { agent_url: 'https://lists.example/mcp', list_id: 'news-allow' } },
      'persisted and echoed, the list’s token never',
    );
    assert.deepEqual(first.measurement_terms, terms);
    assert.equal(first.start_time, inDays(clock, 10), 'the buy’s flight, resolved');
    // Creatives are due two days before the start.
    assert.equal(answer.creative_deadline, inDays(clock, 8));

    const [stored] = (await b.get({ media_buy_ids: [answer.media_buy_id] })).media_buys;
    assert.equal(stored.status, 'pending_creatives');
    assert.equal(stored.total_budget, 6000);
    assert.equal(stored.currency, 'USD');
    assert.deepEqual(
      stored.packages[0].targeting_overlay,
      first.targeting_overlay,
      'get_media_buys echoes the persisted targeting',
    );
  });

  it('starts an asap buy now, and marks a sandbox account’s buy as sandbox', async () => {
    const b = await newBuyer({ sandbox: true });
    const answer = await b.create({ start_time: 'asap' });
    assert.equal(answer.sandbox, true);
    assert.equal(answer.packages[0].start_time, clock.now().toISOString());
    assert.equal(answer.creative_deadline, clock.now().toISOString());
  });

  it('takes the creative agent named by any loopback spelling of its URL, as the README writes localhost', async () => {
    const b = await newBuyer({ sandbox: true });
    const localhost = server.url.replace('127.0.0.1', 'localhost');
    assert.notEqual(localhost, server.url, 'the server introduced itself as 127.0.0.1');
    const formatId = { agent_url: `${localhost}/creative/mcp`, id: 'display_300x250' };
    const answer = await b.create({
      packages: [
        { product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000, format_ids: [formatId] },
      ],
    });
    const creative: Json = { ...banner(server, `lh-${randomUUID().slice(0, 8)}`), format_id: formatId };
    const synced = await b.call('sync_creatives', {
      idempotency_key: randomUUID(),
      account: b.account,
      creatives: [creative],
      assignments: [{ creative_id: creative.creative_id, package_id: answer.packages[0].package_id }],
    });
    assert.equal(synced.assignment_errors, undefined, JSON.stringify(synced));
  });

  it('checks the flight and the budgets before the products, each mistake with its own code and field', async () => {
    const b = await newBuyer();
    const unknown = { ...fixed, product_id: 'no_such_product' };
    await refused(
      b,
      { start_time: inDays(clock, 5), end_time: inDays(clock, 4), packages: [unknown] },
      'VALIDATION_ERROR',
      'end_time',
    );
    await refused(
      b,
      { start_time: new Date(clock.now().getTime() - 60_000).toISOString() },
      'VALIDATION_ERROR',
      'start_time',
    );
    await refused(b, { packages: [{ ...unknown, budget: 0 }] }, 'BUDGET_TOO_LOW', 'packages[0].budget');
    await refused(
      b,
      { packages: [fixed, { ...fixed, start_time: inDays(clock, 9) }] },
      'VALIDATION_ERROR',
      'packages[1].start_time',
    );
    await refused(b, { packages: [fixed, unknown] }, 'PRODUCT_NOT_FOUND', 'packages[1].product_id');
    const option = await refused(
      b,
      { packages: [{ ...fixed, pricing_option_id: 'cpm_whatever' }] },
      'VALIDATION_ERROR',
      'packages[0].pricing_option_id',
    );
    assert.deepEqual(option.details.pricing_option_ids, ['cpm_fixed', 'vcpm_fixed']);
    const low = await refused(b, { packages: [{ ...fixed, budget: 2499 }] }, 'BUDGET_TOO_LOW', 'packages[0].budget');
    assert.equal(low.details.min_spend_per_package, 2500);
    const floor = await refused(
      b,
      { packages: [{ ...auction, bid_price: 4.49 }] },
      'VALIDATION_ERROR',
      'packages[0].bid_price',
    );
    assert.equal(floor.details.floor_price, 4.5);
    await refused(b, { packages: [{ ...auction, bid_price: undefined }] }, 'VALIDATION_ERROR', 'packages[0].bid_price');
    await refused(b, { packages: [{ ...fixed, bid_price: 20 }] }, 'VALIDATION_ERROR', 'packages[0].bid_price');
    await refused(
      b,
      { packages: [{ ...fixed, format_ids: [{ agent_url: `${server.url}/creative/mcp`, id: 'video_30s' }] }] },
      'VALIDATION_ERROR',
      'packages[0].format_ids[0]',
    );
    await refused(
      b,
      { packages: [{ ...fixed, creative_assignments: [{ creative_id: 'cr_1' }] }] },
      'CREATIVE_NOT_FOUND',
      'packages[0].creative_assignments[0].creative_id',
    );
    await refused(
      b,
      { proposal_id: 'p1', total_budget: { amount: 1, currency: 'USD' } },
      'REFERENCE_NOT_FOUND',
      'proposal_id',
    );
    await refused(b, { packages: [{ ...fixed, budget: -1 }] }, 'INVALID_REQUEST', 'packages[0].budget');

    const none = await b.get({ status_filter: allStatuses });
    assert.deepEqual(none.media_buys, [], 'a refused buy leaves nothing behind');
  });

  it('rejects measurement terms it cannot accept, naming the term and what it would accept', async () => {
    const b = await newBuyer();
    const tight = await refused(
      b,
      {
        packages: [
          {
            ...fixed,
            measurement_terms: { billing_measurement: { vendor: { domain: 'dcm.example' }, max_variance_percent: 5 } },
          },
        ],
      },
      'TERMS_REJECTED',
      'packages[0].measurement_terms.billing_measurement.max_variance_percent',
    );
    assert.equal(tight.details.minimum_max_variance_percent, 10);
    const remedy = await refused(
      b,
      {
        packages: [
          { ...fixed, measurement_terms: { makegood_policy: { available_remedies: ['invoice_adjustment'] } } },
        ],
      },
      'TERMS_REJECTED',
      'packages[0].measurement_terms.makegood_policy.available_remedies',
    );
    assert.deepEqual(remedy.details.available_remedies, ['additional_delivery', 'credit']);
    await refused(
      b,
      {
        packages: [
          {
            ...fixed,
            measurement_terms: { billing_measurement: { vendor: { domain: 'dcm.example' }, measurement_window: 'c7' } },
          },
        ],
      },
      'TERMS_REJECTED',
      'packages[0].measurement_terms.billing_measurement.measurement_window',
    );
  });

  it('needs an active account', async () => {
    const b = await newBuyer();
    await setAccountStatus(server.db, b.account.account_id, 'suspended', { by: 'seller:test', at: clock.now() });
    await refused(b, {}, 'ACCOUNT_SUSPENDED', 'account');
  });

  it('replays a retried create instead of booking twice, and refuses the key with another payload or once expired', async () => {
    const b = await newBuyer();
    const args = createArgs(clock, b.account, b.domain);
    const first = await b.call('create_media_buy', args);
    const again = await b.call('create_media_buy', args);
    assert.equal(again.replayed, true);
    assert.equal(again.media_buy_id, first.media_buy_id);
    assert.deepEqual(again.packages, first.packages);
    const conflict = await b.fail('create_media_buy', { ...args, po_number: 'other' });
    assert.equal(conflict.code, 'IDEMPOTENCY_CONFLICT');
    const buys = await b.get({ status_filter: allStatuses });
    assert.deepEqual(
      buys.media_buys.map((m: Json) => m.media_buy_id),
      [first.media_buy_id],
      'one buy, booked once',
    );

    clock.advance(day + 1000);
    const expired = await b.fail('create_media_buy', args);
    assert.equal(expired.code, 'IDEMPOTENCY_EXPIRED');
  });
});
