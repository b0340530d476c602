import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { banner, list } from '../creatives/harness.ts';
import {
  ask,
  buyer,
  createArgs,
  inDays,
  refused,
  sandboxBuyer,
  startSales,
  succeeds,
  type Buyer,
  type SandboxBuyer,
} from './harness.ts';

eachEngine('sales agent: comply_test_controller, seeded catalog', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const made: Buyer[] = [];
  const newBuyer = async (options: { org?: boolean } = {}) => {
    const b = await sandboxBuyer(server, clock, options);
    made.push(b);
    return b;
  };
  const productionBuyer = async () => {
    const b = await buyer(server, clock);
    made.push(b);
    return b;
  };
  const unique = (prefix: string) => `${prefix}_${randomUUID().slice(0, 8)}`;
  /** The products an account (none: no account) is offered, the whole catalog on one page. */
  const productsOf = async (b: Buyer, account: Json | undefined) =>
    (
      await ask(b, 'get_products', {
        buying_mode: 'wholesale',
        ...(account ? { account } : {}),
        pagination: { max_results: 100 },
      })
    ).products as Json[];
  const productOf = async (b: Buyer, account: Json | undefined, id: string) =>
    (await productsOf(b, account)).find((p) => p.product_id === id);
  const formatsOf = async (b: Buyer, account: Json | undefined) =>
    (await ask(b, 'list_creative_formats', { ...(account ? { account } : {}), pagination: { max_results: 100 } }))
      .formats as Json[];
  /** A create_media_buy as a buyer's tool sends it: the account by natural key. */
  const buy = (b: SandboxBuyer, packages: Json[]) =>
    b.call('create_media_buy', createArgs(clock, b.ref, b.domain, { packages }));
  const salesUrl = () => `${server.url}/sales/mcp`;
  const creativeUrl = () => `${server.url}/creative/mcp`;

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    for (const b of made) await b.client.close();
    await server.close();
  });

  it('seeds a product from no fixture at all: get_products lists it to that sandbox account alone, and create_media_buy buys it', async () => {
    const b = await newBuyer();
    const sameCaller = await productionBuyer();
    const other = await newBuyer({ org: true });
    const id = unique('test_product');
    await succeeds(b, 'seed_product', { product_id: id }, b.ref);

    const product = (await productOf(b, b.ref, id))!;
    assert.deepEqual(
      [product.name, product.delivery_type],
      [`Test product ${id}`, 'guaranteed'],
      'named by its id, the first catalog product’s delivery type',
    );
    assert.deepEqual(
      (product.pricing_options as Json[]).map((o) => o.pricing_option_id),
      ['takeover_day_flat'],
      'the first catalog product’s first pricing option',
    );
    assert.ok((product.format_ids as Json[]).every((f) => f.agent_url === creativeUrl()));
    assert.equal(product.ext, undefined, 'the template’s approval rule is not copied');

    assert.equal(
      await productOf(other, other.ref, id),
      undefined,
      'another principal’s sandbox account does not see it',
    );
    assert.equal(
      await productOf(sameCaller, sameCaller.account, id),
      undefined,
      'the caller’s production account does not see it',
    );
    assert.equal(await productOf(b, undefined, id), undefined, 'nor a call without an account');

    const bought = await buy(b, [{ product_id: id, pricing_option_id: 'takeover_day_flat', budget: 18000 }]);
    assert.equal(bought.status, 'pending_creatives');
    assert.equal((bought.packages as Json[])[0]!.product_id, id);
    assert.equal(
      (
        await other.fail(
          'create_media_buy',
          createArgs(clock, other.ref, other.domain, {
            packages: [{ product_id: id, pricing_option_id: 'takeover_day_flat', budget: 18000 }],
          }),
        )
      ).code,
      'PRODUCT_NOT_FOUND',
    );
    assert.equal(
      (
        await sameCaller.fail(
          'create_media_buy',
          createArgs(clock, sameCaller.account, sameCaller.domain, {
            packages: [{ product_id: id, pricing_option_id: 'takeover_day_flat', budget: 18000 }],
          }),
        )
      ).code,
      'PRODUCT_NOT_FOUND',
    );

    const rows = await server.db.query<{ kind: string }>(
      `select kind from sales_test_seeds where account_id = $1 and entity_id = $2`,
      [b.account.account_id, id],
    );
    assert.deepEqual(
      rows.map((r) => r.kind),
      ['product'],
      'kept in the database',
    );
  });

  it('seeds a product from the protocol’s example fixture: bare format ids, an auction option, found by a brief and bought with a bid', async () => {
    const b = await newBuyer();
    const id = unique('zeppelin');
    const fixture = {
      name: 'Zeppelin banners',
      delivery_type: 'non_guaranteed',
      channels: ['display'],
      pricing_options: [{ pricing_option_id: 'test-pricing', pricing_model: 'cpm', currency: 'USD', floor_price: 1.0 }],
      format_ids: [{ id: 'display_300x250' }],
    };
    await succeeds(b, 'seed_product', { product_id: id, fixture }, b.ref);
    const product = (await productOf(b, b.ref, id))!;
    assert.deepEqual(product.format_ids, [{ agent_url: creativeUrl(), id: 'display_300x250' }]);
    assert.deepEqual(
      [product.delivery_type, product.channels, (product.pricing_options as Json[])[0]!.floor_price],
      ['non_guaranteed', ['display'], 1],
    );
    const found = (await ask(b, 'get_products', { brief: 'zeppelin', account: b.ref })).products as Json[];
    assert.equal(found[0]!.product_id, id, 'the account’s search index has it');
    assert.match(found[0]!.brief_relevance, /zeppelin/);

    assert.equal(
      (await buy(b, [{ product_id: id, pricing_option_id: 'test-pricing', budget: 500, bid_price: 2 }])).status,
      'pending_creatives',
    );
    assert.equal(
      (
        await b.fail(
          'create_media_buy',
          createArgs(clock, b.ref, b.domain, {
            packages: [{ product_id: id, pricing_option_id: 'test-pricing', budget: 500, bid_price: 0.5 }],
          }),
        )
      ).code,
      'VALIDATION_ERROR',
      'its floor holds',
    );

    assert.match(
      (await succeeds(b, 'seed_product', { product_id: id, fixture: structuredClone(fixture) }, b.ref)).message,
      /nothing changed/,
    );
    assert.match(
      (
        await refused(
          b,
          'INVALID_PARAMS',
          'seed_product',
          { product_id: id, fixture: { ...fixture, channels: ['olv'] } },
          b.ref,
        )
      ).error_detail,
      /fixture\.channels differ/,
    );
  });

  it('keeps a product seeded hidden out of get_products, brief or not, while create_media_buy buys it by id', async () => {
    const b = await newBuyer();
    const id = unique('hidden');
    await succeeds(b, 'seed_product', { product_id: id, fixture: { name: 'Quokka placements', hidden: true } }, b.ref);
    assert.equal(await productOf(b, b.ref, id), undefined);
    const found = (await ask(b, 'get_products', { brief: 'quokka', account: b.ref })).products as Json[];
    assert.equal(
      found.some((p) => p.product_id === id),
      false,
    );
    const bought = await buy(b, [{ product_id: id, pricing_option_id: 'takeover_day_flat', budget: 18000 }]);
    assert.equal((bought.packages as Json[])[0]!.product_id, id);
  });

  it('refuses a product fixture that makes no product, and an id the account’s catalog has, storing nothing', async () => {
    const b = await newBuyer();
    const expect = async (fixture: Json, pattern: RegExp) => {
      const id = unique('bad');
      assert.match(
        (await refused(b, 'INVALID_PARAMS', 'seed_product', { product_id: id, fixture }, b.ref)).error_detail,
        pattern,
      );
      assert.equal(await productOf(b, b.ref, id), undefined);
    };
    await expect({ delivery_type: 'sometimes' }, /fixture\.delivery_type/);
    await expect({ format_ids: [{ id: 'hologram' }] }, /fixture\.format_ids\[0\].*seed_creative_format/);
    await expect({ pricing_options: [{ pricing_model: 'barter' }] }, /fixture\.pricing_options/);
    assert.match(
      (await refused(b, 'INVALID_PARAMS', 'seed_product', { product_id: 'dh_news_display' }, b.ref)).error_detail,
      /already exists/,
    );
  });

  it('seeds pricing options on a seeded product and on a catalog product, for that account only', async () => {
    const b = await newBuyer();
    const other = await newBuyer();
    const id = unique('priced');
    await succeeds(b, 'seed_product', { product_id: id }, b.ref);
    await succeeds(
      b,
      'seed_pricing_option',
      {
        product_id: id,
        pricing_option_id: 'default',
        fixture: { pricing_model: 'cpm', floor_price: 5.0, currency: 'USD' },
      },
      b.ref,
    );
    const option = ((await productOf(b, b.ref, id))!.pricing_options as Json[]).find(
      (o) => o.pricing_option_id === 'default',
    )!;
    assert.deepEqual(
      [option.pricing_model, option.floor_price, option.fixed_price],
      ['cpm', 5, undefined],
      'an auction fixture inherits no fixed price',
    );
    assert.equal(
      (await buy(b, [{ product_id: id, pricing_option_id: 'default', budget: 1000, bid_price: 6 }])).status,
      'pending_creatives',
    );

    await succeeds(b, 'seed_pricing_option', { product_id: 'dh_news_display', pricing_option_id: 'po_min' }, b.ref);
    const copied = ((await productOf(b, b.ref, 'dh_news_display'))!.pricing_options as Json[]).find(
      (o) => o.pricing_option_id === 'po_min',
    )!;
    assert.deepEqual(
      [copied.pricing_model, copied.fixed_price, copied.min_spend_per_package],
      ['cpm', 14, 2500],
      'the product’s first option, renamed',
    );
    assert.equal(
      (await buy(b, [{ product_id: 'dh_news_display', pricing_option_id: 'po_min', budget: 5000 }])).status,
      'pending_creatives',
    );
    assert.equal(
      ((await productOf(other, other.ref, 'dh_news_display'))!.pricing_options as Json[]).some(
        (o) => o.pricing_option_id === 'po_min',
      ),
      false,
    );
    assert.equal(
      (
        await other.fail(
          'create_media_buy',
          createArgs(clock, other.ref, other.domain, {
            packages: [{ product_id: 'dh_news_display', pricing_option_id: 'po_min', budget: 5000 }],
          }),
        )
      ).code,
      'VALIDATION_ERROR',
    );

    assert.match(
      (
        await refused(
          b,
          'INVALID_PARAMS',
          'seed_pricing_option',
          { product_id: unique('nowhere'), pricing_option_id: 'x' },
          b.ref,
        )
      ).error_detail,
      /seed_product first/,
    );
    assert.match(
      (
        await refused(
          b,
          'INVALID_PARAMS',
          'seed_pricing_option',
          { product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed' },
          b.ref,
        )
      ).error_detail,
      /already has/,
    );
    assert.match(
      (
        await refused(
          b,
          'INVALID_PARAMS',
          'seed_pricing_option',
          { product_id: id, pricing_option_id: 'odd', fixture: { pricing_model: 'barter' } },
          b.ref,
        )
      ).error_detail,
      /fixture\.pricing_model/,
    );
    assert.match(
      (
        await refused(
          other,
          'INVALID_PARAMS',
          'seed_pricing_option',
          { product_id: id, pricing_option_id: 'x' },
          other.ref,
        )
      ).error_detail,
      /seed_product first/,
      'another account has no such product',
    );
  });

  it('seeds a creative format: list_creative_formats lists it to that account, sync_creatives takes it, a seeded product sells it', async () => {
    const b = await newBuyer();
    const other = await newBuyer({ org: true });
    const formatId = unique('test_format');
    await succeeds(b, 'seed_creative_format', { format_id: formatId }, b.ref);
    const listed = (await formatsOf(b, b.ref)).find((f) => f.format_id.id === formatId)!;
    assert.deepEqual(
      [listed.format_id, listed.name],
      [{ agent_url: salesUrl(), id: formatId }, `Test format ${formatId}`],
    );
    assert.equal(
      (await formatsOf(other, other.ref)).some((f) => f.format_id.id === formatId),
      false,
    );
    assert.equal(
      (await formatsOf(b, undefined)).some((f) => f.format_id.id === formatId),
      false,
    );

    const productId = unique('formatted');
    await succeeds(b, 'seed_product', { product_id: productId, fixture: { format_ids: [{ id: formatId }] } }, b.ref);
    assert.deepEqual((await productOf(b, b.ref, productId))!.format_ids, [{ agent_url: salesUrl(), id: formatId }]);
    const bought = await buy(b, [{ product_id: productId, pricing_option_id: 'takeover_day_flat', budget: 18000 }]);
    const packageId = (bought.packages as Json[])[0]!.package_id as string;

    const creative = { ...banner(server, 'of_seeded_format'), format_id: { agent_url: salesUrl(), id: formatId } };
    const synced = await ask(b, 'sync_creatives', {
      idempotency_key: randomUUID(),
      account: b.ref,
      creatives: [creative],
      assignments: [{ creative_id: 'of_seeded_format', package_id: packageId }],
    });
    assert.deepEqual(
      (synced.creatives as Json[]).map((c) => [c.action, c.assigned_to]),
      [['created', [packageId]]],
    );
    assert.equal(
      (await b.get({ media_buy_ids: [bought.media_buy_id] })).media_buys[0].status,
      'pending_start',
      'the buy has its creative',
    );
    const refusedSync = await other.fail('sync_creatives', {
      idempotency_key: randomUUID(),
      account: other.ref,
      creatives: [creative],
    });
    assert.match(JSON.stringify(refusedSync), /VALIDATION_ERROR/, 'another account does not take the format');

    await succeeds(
      b,
      'seed_creative',
      { creative_id: 'placeholder_of_seeded', fixture: { format_id: { id: formatId } } },
      b.ref,
    );
    const seeded = (
      (await list(b, { account: b.ref, filters: { creative_ids: ['placeholder_of_seeded'] } })).creatives as Json[]
    )[0]!;
    assert.deepEqual(seeded.format_id, { agent_url: salesUrl(), id: formatId });
  });

  it('seeds a creative from no fixture and from the protocol’s example (assets as a typed list)', async () => {
    const b = await newBuyer();
    await succeeds(b, 'seed_creative', { creative_id: 'bare' }, b.ref);
    await succeeds(
      b,
      'seed_creative',
      {
        creative_id: 'campaign_hero_video',
        fixture: {
          status: 'approved',
          format_id: { id: 'video_30s' },
          assets: [{ type: 'video', url: 'https://example.com/hero.mp4' }],
        },
      },
      b.ref,
    );
    const creatives = (await list(b, { account: b.ref, filters: { creative_ids: ['bare', 'campaign_hero_video'] } }))
      .creatives as Json[];
    const bare = creatives.find((c) => c.creative_id === 'bare')!;
    assert.deepEqual([bare.name, bare.format_id], ['bare', { agent_url: creativeUrl(), id: 'display_300x250' }]);
    assert.deepEqual(
      Object.keys(bare.assets).sort(),
      ['banner_image', 'click_url'],
      'a placeholder for each required asset',
    );
    assert.deepEqual([bare.assets.banner_image.width, bare.assets.banner_image.height], [300, 250]);
    const video = creatives.find((c) => c.creative_id === 'campaign_hero_video')!;
    assert.deepEqual(
      [video.status, video.format_id.id, video.assets.video_file.url],
      ['approved', 'video_30s', 'https://example.com/hero.mp4'],
    );
    assert.match(
      (
        await refused(
          b,
          'INVALID_PARAMS',
          'seed_creative',
          { creative_id: 'odd', fixture: { format_id: { id: 'hologram' } } },
          b.ref,
        )
      ).error_detail,
      /hologram/,
    );
  });

  it('seeds media buys from no fixture, from the protocol’s example on a seeded product, and from a budget and flight; they deliver', async () => {
    const b = await newBuyer();
    const bare = unique('mb_bare');
    await succeeds(b, 'seed_media_buy', { media_buy_id: bare }, b.ref);
    const bareBuy = (await b.get({ media_buy_ids: [bare] })).media_buys[0] as Json;
    assert.deepEqual(
      [bareBuy.status, (bareBuy.packages as Json[]).map((p) => [p.product_id, p.budget])],
      ['pending_creatives', [['dh_homepage_takeover', 1000]]],
    );

    const productId = unique('test_product');
    await succeeds(
      b,
      'seed_product',
      {
        product_id: productId,
        fixture: {
          delivery_type: 'non_guaranteed',
          pricing_options: [
            { pricing_option_id: 'test-pricing', pricing_model: 'cpm', currency: 'USD', floor_price: 1.0 },
          ],
        },
      },
      b.ref,
    );
    const example = unique('mb_acme');
    await succeeds(
      b,
      'seed_media_buy',
      {
        media_buy_id: example,
        fixture: { status: 'active', packages: [{ package_id: `pkg_${example}`, product_id: productId }] },
      },
      b.ref,
    );
    const exampleBuy = (await b.get({ media_buy_ids: [example] })).media_buys[0] as Json;
    assert.deepEqual(
      [exampleBuy.status, (exampleBuy.packages as Json[]).map((p) => [p.package_id, p.product_id, p.bid_price])],
      ['active', [[`pkg_${example}`, productId, 1]]],
    );
    await succeeds(b, 'simulate_delivery', { media_buy_id: example, impressions: 10000, clicks: 150 }, b.ref);
    const delivery = await ask(b, 'get_media_buy_delivery', { account: b.ref, media_buy_ids: [example] });
    assert.equal(
      (delivery.media_buy_deliveries as Json[])[0]!.totals.impressions >= 10000,
      true,
      'a buy of a seeded product reports its delivery',
    );

    const planned = unique('mb_flight');
    const start = inDays(clock, 5).slice(0, 10);
    const end = inDays(clock, 35).slice(0, 10);
    await succeeds(
      b,
      'seed_media_buy',
      { media_buy_id: planned, fixture: { budget: { total: 30000, currency: 'USD' }, flight: { start, end } } },
      b.ref,
    );
    const plannedBuy = (await b.get({ media_buy_ids: [planned] })).media_buys[0] as Json;
    assert.deepEqual(
      [plannedBuy.start_time, plannedBuy.end_time, (plannedBuy.packages as Json[])[0]!.budget],
      [`${start}T00:00:00.000Z`, `${end}T23:59:59.000Z`, 30000],
    );

    const missing = await refused(
      b,
      'INVALID_PARAMS',
      'seed_media_buy',
      { media_buy_id: unique('mb_x'), fixture: { packages: [{ product_id: unique('unseeded') }] } },
      b.ref,
    );
    assert.match(missing.error_detail, /PRODUCT_NOT_FOUND at fixture\.packages\[0\]\.product_id/);
  });

  it('is FORBIDDEN to seed on a production account, which then sees nothing seeded', async () => {
    const production = await productionBuyer();
    const id = unique('forbidden');
    await refused(production, 'FORBIDDEN', 'seed_product', { product_id: id });
    await refused(production, 'FORBIDDEN', 'seed_creative_format', { format_id: id });
    await refused(production, 'FORBIDDEN', 'seed_pricing_option', {
      product_id: 'dh_news_display',
      pricing_option_id: id,
    });
    assert.equal(await productOf(production, production.account, id), undefined);
    assert.equal(
      (await formatsOf(production, production.account)).some((f) => f.format_id.id === id),
      false,
    );
  });
});
