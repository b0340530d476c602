import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { creativeHistory } from '../../../../src/agents/sales/creatives/index.ts';
import { validActions } from '../../../../src/agents/sales/media-buys/index.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { banner, list, sync } from '../creatives/harness.ts';
import { buyerPool, createArgs, inDays, refused, startSales, succeeds, type Buyer } from './harness.ts';

eachEngine('sales agent: comply_test_controller, seeds', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock, { sandbox: true });
  const newBuyer = buyers.add;
  /** A creative fixture: the banner without its id. */
  const creativeFixture = (id: string, more: Json = {}) => {
    const { creative_id: _id, ...fixture } = banner(server, id, more);
    return fixture;
  };
  const buyFixture = (more: Json = {}) => ({
    packages: [{ product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 }],
    ...more,
  });
  const creativeOf = async (b: Buyer, id: string) =>
    ((await list(b, { filters: { creative_ids: [id] } })).creatives as Json[])[0];
  const buyOf = async (b: Buyer, id: string) =>
    (await b.get({ media_buy_ids: [id], include_history: 5 })).media_buys[0] as Json | undefined;

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  it('seeds a creative under the caller’s id with the fixture’s status; the same fixture again changes nothing', async () => {
    const b = await newBuyer();
    const fixture = creativeFixture('campaign_hero', { status: 'pending_review', tags: ['q2'] });
    await succeeds(b, 'seed_creative', { creative_id: 'campaign_hero', fixture });
    const seeded = await creativeOf(b, 'campaign_hero');
    assert.deepEqual([seeded!.status, seeded!.name, seeded!.tags], ['pending_review', 'Banner campaign_hero', ['q2']]);
    const again = await succeeds(b, 'seed_creative', {
      creative_id: 'campaign_hero',
      fixture: structuredClone(fixture),
    });
    assert.match(again.message, /nothing changed/);
    const history = await creativeHistory(server.db, b.account.account_id, 'campaign_hero');
    assert.deepEqual(
      history.map((h) => [h.change, h.status, h.changed_by]),
      [['seeded', 'pending_review', 'test-controller']],
    );

    await succeeds(b, 'seed_creative', { creative_id: 'plain', fixture: creativeFixture('plain') });
    assert.equal(
      (await creativeOf(b, 'plain'))!.status,
      'approved',
      'a sandbox creative’s status when the fixture names none',
    );
    const buy = await b.call(
      'create_media_buy',
      createArgs(clock, b.account, b.domain, {
        packages: [
          {
            product_id: 'dh_news_display',
            pricing_option_id: 'cpm_fixed',
            budget: 5000,
            creative_assignments: [{ creative_id: 'plain' }],
          },
        ],
      }),
    );
    assert.equal(buy.status, 'pending_start', 'a seeded creative is a library creative like any other');
  });

  it('refuses another fixture for a seeded id, an id the library has, and a fixture the library would refuse', async () => {
    const b = await newBuyer();
    await succeeds(b, 'seed_creative', { creative_id: 'hero', fixture: creativeFixture('hero') });
    const changed = await refused(b, 'INVALID_PARAMS', 'seed_creative', {
      creative_id: 'hero',
      fixture: creativeFixture('hero', { name: 'Another name' }),
    });
    assert.match(changed.error_detail, /another fixture/);
    await sync(b, [banner(server, 'synced')]);
    assert.match(
      (
        await refused(b, 'INVALID_PARAMS', 'seed_creative', {
          creative_id: 'synced',
          fixture: creativeFixture('synced'),
        })
      ).error_detail,
      /already exists/,
    );
    const unknownFormat = await refused(b, 'INVALID_PARAMS', 'seed_creative', {
      creative_id: 'odd',
      fixture: { ...creativeFixture('odd'), format_id: { agent_url: `${server.url}/creative/mcp`, id: 'hologram' } },
    });
    assert.match(unknownFormat.error_detail, /VALIDATION_ERROR at fixture\.format_id/);
    const { banner_image: _image, ...assets } = creativeFixture('bare').assets as Json;
    assert.match(
      (
        await refused(b, 'INVALID_PARAMS', 'seed_creative', {
          creative_id: 'bare',
          fixture: { ...creativeFixture('bare'), assets },
        })
      ).error_detail,
      /fixture\.assets\.banner_image/,
    );
    assert.equal(await creativeOf(b, 'odd'), undefined, 'nothing stored');
    assert.equal((await creativeOf(b, 'hero'))!.name, 'Banner hero');
  });

  it('seeds a creative id per account: another buyer may use the same id', async () => {
    const b = await newBuyer();
    const other = await newBuyer({ org: true, sandbox: true });
    await succeeds(b, 'seed_creative', { creative_id: 'shared', fixture: creativeFixture('shared') });
    await succeeds(other, 'seed_creative', {
      creative_id: 'shared',
      fixture: creativeFixture('shared', { name: 'Theirs' }),
    });
    assert.equal((await creativeOf(other, 'shared'))!.name, 'Theirs');
  });

  it('seeds a media buy under the caller’s ids, booked as a create books it, its history naming the test controller', async () => {
    const b = await newBuyer();
    const id = `mb_seed_${randomUUID()}`;
    const pkg = `pkg_seed_${randomUUID()}`;
    const fixture = buyFixture({
      status: 'active',
      po_number: 'PO-9',
      end_time: inDays(clock, 20),
      packages: [{ package_id: pkg, product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 }],
    });
    await succeeds(b, 'seed_media_buy', { media_buy_id: id, fixture });
    const buy = (await buyOf(b, id))!;
    assert.deepEqual(
      [buy.status, buy.revision, buy.currency, buy.po_number, buy.valid_actions],
      ['active', 1, 'USD', 'PO-9', validActions('active')],
    );
    assert.deepEqual(buy.brand, { domain: b.domain }, 'the account’s brand');
    assert.equal(buy.end_time, inDays(clock, 20));
    assert.deepEqual(
      (buy.packages as Json[]).map((p) => [p.package_id, p.budget]),
      [[pkg, 5000]],
    );
    assert.deepEqual(
      (buy.history as Json[]).map((h) => [h.action, h.actor]),
      [['created', 'test-controller']],
    );

    assert.equal((await b.update(id, { paused: true })).status, 'paused', 'the buyer can use it');
    await succeeds(b, 'seed_media_buy', { media_buy_id: id, fixture: structuredClone(fixture) });
    assert.deepEqual(
      [(await buyOf(b, id))!.status, (await buyOf(b, id))!.revision],
      ['paused', 2],
      'the same fixture again changes nothing',
    );
    assert.match(
      (await refused(b, 'INVALID_PARAMS', 'seed_media_buy', { media_buy_id: id, fixture: buyFixture() })).error_detail,
      /another fixture/,
    );
    assert.equal(
      (await succeeds(b, 'force_media_buy_status', { media_buy_id: id, status: 'completed' })).previous_state,
      'paused',
    );
  });

  it('seeds with a new buy’s defaults, and a canceled buy as the seller’s cancellation', async () => {
    const b = await newBuyer();
    const id = `mb_seed_${randomUUID()}`;
    await succeeds(b, 'seed_media_buy', { media_buy_id: id, fixture: buyFixture() });
    const buy = (await buyOf(b, id))!;
    assert.deepEqual(
      [buy.status, buy.start_time, buy.end_time],
      ['pending_creatives', clock.now().toISOString(), inDays(clock, 30)],
    );
    assert.match((buy.packages as Json[])[0]!.package_id, /^pkg_[0-9a-f]{24}$/);
    const canceledId = `mb_seed_${randomUUID()}`;
    await succeeds(b, 'seed_media_buy', { media_buy_id: canceledId, fixture: buyFixture({ status: 'canceled' }) });
    const canceled = (await buyOf(b, canceledId))!;
    assert.deepEqual(
      [canceled.status, canceled.cancellation.canceled_by, canceled.valid_actions],
      ['canceled', 'seller', []],
    );
  });

  it('refuses a media buy fixture a create would refuse, and ids already taken, writing nothing', async () => {
    const b = await newBuyer();
    const other = await newBuyer({ org: true, sandbox: true });
    const id = `mb_seed_${randomUUID()}`;
    const pkg = `pkg_seed_${randomUUID()}`;
    const expect = async (fixture: Json, pattern: RegExp) => {
      const mediaBuyId = `mb_seed_${randomUUID()}`;
      assert.match(
        (await refused(b, 'INVALID_PARAMS', 'seed_media_buy', { media_buy_id: mediaBuyId, fixture })).error_detail,
        pattern,
      );
      assert.equal(await buyOf(b, mediaBuyId), undefined);
    };
    await expect(
      buyFixture({ packages: [{ product_id: 'no_such_product', pricing_option_id: 'x', budget: 10 }] }),
      /PRODUCT_NOT_FOUND at fixture\.packages\[0\]\.product_id/,
    );
    await expect(
      buyFixture({ packages: [{ product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 0 }] }),
      /fixture\.packages\[0\]\.budget/,
    );
    await expect(buyFixture({ status: 'sleeping' }), /fixture\.status/);
    await expect(buyFixture({ start_time: inDays(clock, -1) }), /in the past/);
    await expect(
      buyFixture({
        packages: [
          {
            product_id: 'dh_news_display',
            pricing_option_id: 'cpm_fixed',
            budget: 100,
            creative_assignments: [{ creative_id: 'c' }],
          },
        ],
      }),
      /UNSUPPORTED_FEATURE at fixture\.packages\[0\]\.creative_assignments/,
    );
    await expect(
      buyFixture({
        packages: [1, 2].map(() => ({
          package_id: 'twice',
          product_id: 'dh_news_display',
          pricing_option_id: 'cpm_fixed',
          budget: 100,
        })),
      }),
      /one package_id/,
    );

    await succeeds(b, 'seed_media_buy', {
      media_buy_id: id,
      fixture: buyFixture({
        packages: [{ package_id: pkg, product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 }],
      }),
    });
    assert.match(
      (await refused(other, 'INVALID_PARAMS', 'seed_media_buy', { media_buy_id: id, fixture: buyFixture() }))
        .error_detail,
      /already exists/,
    );
    const created = await b.create();
    assert.match(
      (
        await refused(b, 'INVALID_PARAMS', 'seed_media_buy', {
          media_buy_id: created.media_buy_id,
          fixture: buyFixture(),
        })
      ).error_detail,
      /already exists/,
    );
    await expect(
      buyFixture({
        packages: [{ package_id: pkg, product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 }],
      }),
      /already exists/,
    );
    assert.equal((await buyOf(b, created.media_buy_id))!.revision, 1);
  });
});
