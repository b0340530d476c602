import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { TaskEvent } from '../../../src/agents/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { Reports } from '../../support/events.ts';
import type { Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { banner } from './creatives/harness.ts';
import { day, inDays, naturalKeyBuyer, startSales, type Buyer, type NaturalKey } from './media-buys/harness.ts';
import { succeeds } from './test-controller/harness.ts';

const responses: Record<string, string> = {
  get_ap_capabilities: '/schemas/3.0.6/protocol/get-ap-capabilities-response.json',
  get_products: '/schemas/3.0.6/media-buy/get-products-response.json',
  sync_creatives: '/schemas/3.0.6/creative/sync-creatives-response.json',
  get_media_buy_delivery: '/schemas/3.0.6/media-buy/get-media-buy-delivery-response.json',
  get_task: '/schemas/3.0.6/core/tasks-get-response.json',
  sync_catalogs: '/schemas/3.0.6/media-buy/sync-catalogs-response.json',
  build_creative: '/schemas/3.0.6/media-buy/build-creative-response.json',
  sync_event_sources: '/schemas/3.0.6/media-buy/sync-event-sources-response.json',
  log_event: '/schemas/3.0.6/media-buy/log-event-response.json',
  provide_performance_feedback: '/schemas/3.0.6/media-buy/provide-performance-feedback-response.json',
};

/**
 * Each sales specialism the agent declares, run as a buyer's tool runs it: only the test
 * controller and the ordinary tasks, on a sandbox account named by natural key and never declared
 * first. Seed, discover, buy the specialism's way, traffic a creative, pause, resume, deliver (the
 * test controller's simulated delivery), report, cancel; every answer checked against its
 * published schema, and each step's status and valid_actions.
 */
eachEngine('sales agent: each declared specialism, end to end', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const tasks = new Reports<TaskEvent>();
  const made: Array<Buyer<NaturalKey>> = [];
  const buyers = {
    add: async () => {
      const b = await naturalKeyBuyer(server, clock);
      made.push(b);
      return b;
    },
  };

  before(async () => {
    server = await startSales(engine, clock);
    server.app.taskWorker!.watch(tasks.add);
  });
  after(async () => {
    for (const b of made) await b.client.close();
    await server.close();
  });

  const call = async (b: Buyer<NaturalKey>, name: string, args: Record<string, unknown>): Promise<Json> => {
    const answer = await b.call(name, args);
    const schema = responses[name];
    if (schema) assert.deepEqual(validateSchema(schema, answer).errors, [], `${name} answers its published schema`);
    return answer;
  };
  const key = () => randomUUID();
  const flight = () => ({ start_time: 'asap', end_time: inDays(clock, 30) });

  /** A buy's status and valid_actions as get_media_buys reads them. */
  const stateOf = async (b: Buyer<NaturalKey>, mediaBuyId: string) => {
    const [buy] = (await b.get({ media_buy_ids: [mediaBuyId] })).media_buys as Json[];
    return [buy!.status, [...(buy!.valid_actions as string[])].sort()];
  };
  const running = [
    'add_packages',
    'cancel',
    'pause',
    'sync_creatives',
    'update_budget',
    'update_dates',
    'update_packages',
  ];
  const pausedActions = [
    'add_packages',
    'cancel',
    'resume',
    'sync_creatives',
    'update_budget',
    'update_dates',
    'update_packages',
  ];

  /** From a booked buy waiting for creatives: traffic `creatives` (by package index), pause, resume, deliver, report, cancel. */
  async function serveAndCancel(b: Buyer<NaturalKey>, buy: Json, creatives: Map<number, Json>): Promise<void> {
    assert.equal(buy.status, 'pending_creatives');
    assert.deepEqual(await stateOf(b, buy.media_buy_id), ['pending_creatives', running]);
    await call(b, 'sync_creatives', {
      idempotency_key: key(),
      account: b.account,
      creatives: [...new Map([...creatives.values()].map((c) => [c.creative_id, c])).values()],
    });
    const packages = [...creatives].map(([i, c]) => ({
      package_id: buy.packages[i].package_id,
      creative_assignments: [{ creative_id: c.creative_id }],
    }));
    const live = await b.update(buy.media_buy_id, { packages });
    assert.equal(live.status, 'active', 'with creatives and its flight begun, the buy serves');
    assert.deepEqual(await stateOf(b, buy.media_buy_id), ['active', running]);

    const paused = await b.update(buy.media_buy_id, { paused: true });
    assert.equal(paused.status, 'paused');
    assert.deepEqual(await stateOf(b, buy.media_buy_id), ['paused', pausedActions]);
    const resumed = await b.update(buy.media_buy_id, { paused: false });
    assert.equal(resumed.status, 'active');
    assert.deepEqual(await stateOf(b, buy.media_buy_id), ['active', running]);

    clock.advance(2 * day);
    await succeeds(b, 'simulate_delivery', {
      media_buy_id: buy.media_buy_id,
      impressions: 12_000,
      clicks: 90,
      reported_spend: { amount: 120, currency: 'USD' },
    });
    const delivery = await call(b, 'get_media_buy_delivery', { account: b.account, media_buy_ids: [buy.media_buy_id] });
    const [report] = delivery.media_buy_deliveries as Json[];
    assert.ok((report!.totals as Json).impressions >= 12_000, 'the simulated delivery is reported');

    const canceled = await b.update(buy.media_buy_id, { canceled: true, cancellation_reason: 'End of test' });
    assert.deepEqual([canceled.status, canceled.valid_actions], ['canceled', []]);
    assert.deepEqual(await stateOf(b, buy.media_buy_id), ['canceled', []]);
    // The public test credential is one caller for every buyer here: its accounts of this brand.
    const accounts = ((await b.call('list_accounts', {})).accounts as Json[]).filter(
      (a) => (a.brand as Json).domain === b.domain,
    );
    assert.deepEqual(
      accounts.map((a) => [a.sandbox, a.operator, a.status]),
      [[true, b.account.operator, 'active']],
      'its first call declared the one sandbox account',
    );
  }

  it('sales-non-guaranteed: a seeded auction product found by brief and bought', async () => {
    const b = await buyers.add();
    const capabilities = await call(b, 'get_ap_capabilities', {});
    assert.ok((capabilities.specialisms as string[]).includes('sales-non-guaranteed'));
    const productId = `seeded-auction-${key().slice(0, 8)}`;
    await succeeds(b, 'seed_product', {
      product_id: productId,
      fixture: {
        name: 'Quillfeather run-of-site display',
        delivery_type: 'non_guaranteed',
        pricing_options: [{ pricing_option_id: 'auction', pricing_model: 'cpm', currency: 'USD', floor_price: 2 }],
      },
    });
    const { products } = await call(b, 'get_products', {
      buying_mode: 'brief',
      brief: 'quillfeather display',
      brand: { domain: b.domain },
      account: b.account,
    });
    const seeded = (products as Json[]).find((p) => p.product_id === productId)!;
    assert.equal(seeded.delivery_type, 'non_guaranteed');
    const buy = await b.call('create_media_buy', {
      idempotency_key: key(),
      account: b.account,
      brand: { domain: b.domain },
      ...flight(),
      packages: [{ product_id: productId, pricing_option_id: 'auction', budget: 2000, bid_price: 5 }],
    });
    await serveAndCancel(b, buy, new Map([[0, banner(server, `ng-${key().slice(0, 8)}`)]]));
  });

  it('sales-guaranteed: a buy needing the publisher’s approval is submitted, then completed and served', async () => {
    const b = await buyers.add();
    assert.ok(((await call(b, 'get_ap_capabilities', {})).specialisms as string[]).includes('sales-guaranteed'));
    // A negotiated price for this account, seeded on the takeover that waits for the publisher.
    await succeeds(b, 'seed_pricing_option', {
      product_id: 'dh_homepage_takeover',
      pricing_option_id: 'negotiated_day',
      fixture: { pricing_model: 'flat_rate', fixed_price: 16000, currency: 'USD' },
    });
    const accepted = await b.call('create_media_buy', {
      idempotency_key: key(),
      account: b.account,
      brand: { domain: b.domain },
      ...flight(),
      packages: [{ product_id: 'dh_homepage_takeover', pricing_option_id: 'negotiated_day', budget: 16000 }],
    });
    assert.equal(accepted.status, 'submitted');
    assert.equal(accepted.media_buy_id, undefined, 'nothing is live before the approval');
    await tasks.until((t) => t.taskId === accepted.task_id && t.status === 'completed');
    const task = await call(b, 'get_task', { task_id: accepted.task_id });
    assert.deepEqual([task.status, task.task_type], ['completed', 'create_media_buy']);
    await serveAndCancel(b, task.result as Json, new Map([[0, banner(server, `g-${key().slice(0, 8)}`)]]));
  });

  it('sales-proposal-mode: a brief’s proposal bought by proposal_id and total_budget', async () => {
    const b = await buyers.add();
    assert.ok(((await call(b, 'get_ap_capabilities', {})).specialisms as string[]).includes('sales-proposal-mode'));
    const productId = `seeded-proposal-${key().slice(0, 8)}`;
    await succeeds(b, 'seed_product', {
      product_id: productId,
      fixture: { name: 'Marigold commuter display banners', description: 'Premium news display banners for commuters' },
    });
    const answer = await call(b, 'get_products', {
      brief: 'marigold commuter display banners',
      brand: { domain: b.domain },
      account: b.account,
    });
    assert.ok(
      (answer.products as Json[]).some((p) => p.product_id === productId),
      'the seeded product is discovered',
    );
    const [proposal] = answer.proposals as Json[];
    const amount = Math.max(((proposal!.total_budget_guidance as Json).min as number | undefined) ?? 0, 12_000);
    const buy = await b.call('create_media_buy', {
      idempotency_key: key(),
      account: b.account,
      brand: { domain: b.domain },
      ...flight(),
      proposal_id: proposal!.proposal_id,
      total_budget: { amount, currency: 'USD' },
    });
    assert.equal((buy.packages as Json[]).length, (proposal!.allocations as Json[]).length);
    const takesBanner = (productId: string) =>
      ((answer.products as Json[]).find((p) => p.product_id === productId)!.format_ids as Json[]).some(
        (f) => f.id === 'display_300x250',
      );
    const creative = banner(server, `p-${key().slice(0, 8)}`);
    const assigned = new Map(
      (buy.packages as Json[]).flatMap((p, i): [number, Json][] => (takesBanner(p.product_id) ? [[i, creative]] : [])),
    );
    assert.ok(assigned.size > 0, 'the display plan takes the banner');
    await serveAndCancel(b, buy, assigned);
  });

  it('sales-catalog-driven: a synced catalog finds the product, build_creative makes its creative, conversions and feedback are taken', async () => {
    const b = await buyers.add();
    assert.ok(((await call(b, 'get_ap_capabilities', {})).specialisms as string[]).includes('sales-catalog-driven'));
    const productId = `seeded-catalog-${key().slice(0, 8)}`;
    await succeeds(b, 'seed_product', {
      product_id: productId,
      fixture: { name: 'Pantry shelf native cards', catalog_types: ['product'] },
    });
    const items = [
      {
        item_id: 'sku-oil',
        title: 'Extra virgin olive oil',
        description: 'Cold-pressed, for dressings',
        url: 'https://pantry.example/oil',
      },
      {
        item_id: 'sku-pasta',
        title: 'Bronze-cut rigatoni',
        description: 'Slow-dried durum wheat',
        url: 'https://pantry.example/pasta',
      },
    ];
    await call(b, 'sync_catalogs', {
      idempotency_key: key(),
      account: b.account,
      catalogs: [{ catalog_id: 'pantry', type: 'product', items }],
    });
    const { products, catalog_applied } = await call(b, 'get_products', {
      buying_mode: 'wholesale',
      brand: { domain: b.domain },
      account: b.account,
      catalog: { catalog_id: 'pantry', type: 'product' },
    });
    assert.equal(catalog_applied, true);
    const product = (products as Json[]).find((p) => p.product_id === productId)!;
    assert.deepEqual(
      (product.catalog_match as Json).matched_ids,
      ['sku-oil', 'sku-pasta'],
      'the seeded product takes the catalog',
    );

    const format = (product.format_ids as Json[])[0]!;
    const built = await call(b, 'build_creative', {
      idempotency_key: key(),
      target_format_id: format,
      creative_manifest: {
        format_id: format,
        assets: {
          promoted_offerings: {
            brand_manifest: { name: 'Pantry', url: 'https://pantry.example/', colors: { primary: '#7a3b12' } },
            inline_offerings: items.map((i) => ({ name: i.title, description: i.description, landing_url: i.url })),
          },
        },
      },
    });
    const manifest = built.creative_manifest as Json;
    assert.deepEqual(manifest.format_id, format);
    const creative = {
      creative_id: `cd-${key().slice(0, 8)}`,
      name: 'Pantry native card',
      format_id: manifest.format_id,
      assets: manifest.assets,
    };

    const option = (product.pricing_options as Json[])[0]!;
    const buy = await b.call('create_media_buy', {
      idempotency_key: key(),
      account: b.account,
      brand: { domain: b.domain },
      ...flight(),
      packages: [{ product_id: product.product_id, pricing_option_id: option.pricing_option_id, budget: 4000 }],
    });
    await call(b, 'sync_event_sources', {
      idempotency_key: key(),
      account: b.account,
      event_sources: [{ event_source_id: 'pantry-web', event_types: ['purchase'] }],
    });
    const logged = await call(b, 'log_event', {
      idempotency_key: key(),
      event_source_id: 'pantry-web',
      events: [
        {
          event_id: 'ord-1',
          event_type: 'purchase',
          event_time: clock.now().toISOString(),
          custom_data: { content_ids: ['sku-oil'], value: 12.5, currency: 'USD' },
        },
      ],
    });
    assert.equal(logged.events_processed, 1);
    const feedback = await call(b, 'provide_performance_feedback', {
      idempotency_key: key(),
      media_buy_id: buy.media_buy_id,
      measurement_period: { start: clock.now().toISOString(), end: inDays(clock, 1) },
      performance_index: 1.2,
    });
    assert.equal(feedback.success, true);
    await serveAndCancel(b, buy, new Map([[0, creative]]));
  });
});
