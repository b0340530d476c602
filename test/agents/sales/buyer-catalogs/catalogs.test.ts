import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { buyerPool, startSales, type Buyer } from '../media-buys/harness.ts';

const SYNC_RESPONSE = '/schemas/3.0.6/media-buy/sync-catalogs-response.json';
const PRODUCTS_RESPONSE = '/schemas/3.0.6/media-buy/get-products-response.json';

const groceries = {
  catalog_id: 'grocery-feed',
  name: 'Pantry staples',
  type: 'product',
  items: [
    {
      item_id: 'sku-olive-oil',
      title: 'Extra virgin olive oil',
      category: 'pantry/oils',
      gtin: '00012345678905',
      tags: ['italian'],
    },
    { item_id: 'sku-pasta', title: 'Bronze-cut rigatoni', category: 'pantry/pasta', tags: ['italian'] },
    { item_id: 'sku-rice', title: 'Jasmine rice', category: 'pantry/grains' },
  ],
};
const venues = {
  catalog_id: 'venues',
  type: 'store',
  items: [{ store_id: 'downtown', name: 'Downtown Jazz Club', location: { lat: 40.71, lng: -74.0 } }],
};

/**
 * sales-catalog-driven as a buyer runs it: sync_catalogs keeps the account's catalogs (upsert by
 * catalog_id, item review, discovery, delete_missing, dry_run), and get_products with a catalog
 * answers only the products that take its type, with catalog_match and catalog_applied.
 */
eachEngine('sales agent: catalogs', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock);

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  const sync = async (b: Buyer, args: Record<string, unknown>): Promise<Json> => {
    const answer = await b.call('sync_catalogs', { idempotency_key: randomUUID(), account: b.account, ...args });
    assert.deepEqual(validateSchema(SYNC_RESPONSE, answer).errors, [], 'sync_catalogs answers its published schema');
    return answer;
  };
  const products = async (b: Buyer, args: Record<string, unknown>): Promise<Json> => {
    const answer = await b.call('get_products', args);
    assert.deepEqual(validateSchema(PRODUCTS_RESPONSE, answer).errors, []);
    return answer;
  };
  const outcomes = (answer: Json) => (answer.catalogs as Json[]).map((c) => [c.catalog_id, c.action, c.item_count]);

  it('syncs catalogs per account, says created, unchanged or updated (with the changed fields), and lists them', async () => {
    const b = await buyers.add();
    assert.deepEqual(outcomes(await sync(b, { catalogs: [groceries, venues] })), [
      ['grocery-feed', 'created', 3],
      ['venues', 'created', 1],
    ]);
    assert.deepEqual(outcomes(await sync(b, { catalogs: [groceries] })), [['grocery-feed', 'unchanged', 3]]);
    const renamed = await sync(b, { catalogs: [{ ...groceries, name: 'Pantry' }] });
    assert.deepEqual(outcomes(renamed), [['grocery-feed', 'updated', 3]]);
    assert.deepEqual((renamed.catalogs as Json[])[0]!.changes, ['name']);
    assert.deepEqual(
      outcomes(await sync(b, {})),
      [
        ['grocery-feed', 'unchanged', 3],
        ['venues', 'unchanged', 1],
      ],
      'without catalogs: discovery',
    );

    const other = await buyers.add();
    assert.deepEqual(outcomes(await sync(other, {})), [], 'another account sees none of them');
  });

  it('matches a synced catalog against the products that take its type, answering catalog_match', async () => {
    const b = await buyers.add();
    await sync(b, { catalogs: [groceries] });
    const answer = await products(b, {
      buying_mode: 'wholesale',
      brand: { domain: b.domain },
      account: b.account,
      catalog: { catalog_id: 'grocery-feed', type: 'product' },
    });
    assert.equal(answer.catalog_applied, true);
    assert.deepEqual(
      (answer.products as Json[]).map((p) => p.product_id),
      ['cr_recipe_native'],
    );
    const [match] = (answer.products as Json[]).map((p) => p.catalog_match as Json);
    assert.deepEqual(match!.matched_ids, ['sku-olive-oil', 'sku-pasta', 'sku-rice']);
    assert.deepEqual(match!.matched_gtins, ['00012345678905']);
    assert.deepEqual([match!.matched_count, match!.submitted_count], [3, 3]);

    const italian = await products(b, {
      brief: 'recipes',
      brand: { domain: b.domain },
      account: b.account,
      catalog: { catalog_id: 'grocery-feed', type: 'product', tags: ['italian'] },
    });
    assert.deepEqual(
      (italian.products as Json[]).map((p) => (p.catalog_match as Json).matched_ids),
      [['sku-olive-oil', 'sku-pasta']],
      'selectors narrow the items',
    );

    const inline = await products(b, { buying_mode: 'wholesale', brand: { domain: b.domain }, catalog: venues });
    assert.deepEqual(
      (inline.products as Json[]).map((p) => p.product_id),
      ['mw_whats_on_native'],
      'inline items need no account',
    );
  });

  it('answers REFERENCE_NOT_FOUND for a catalog_id not synced to the account', async () => {
    const b = await buyers.add();
    const error = await b.fail('get_products', {
      buying_mode: 'wholesale',
      brand: { domain: b.domain },
      account: b.account,
      catalog: { catalog_id: 'nope', type: 'product' },
    });
    assert.deepEqual([error.code, error.field], ['REFERENCE_NOT_FOUND', 'catalog.catalog_id']);
  });

  it('rejects bad items: the whole sync in strict mode, only those items in lenient mode', async () => {
    const b = await buyers.add();
    const bad = { ...venues, items: [...venues.items, { store_id: 'nowhere', name: 'No location' }] };
    const strict = await b.fail('sync_catalogs', {
      idempotency_key: randomUUID(),
      account: b.account,
      catalogs: [bad],
    });
    assert.deepEqual([strict.code, strict.field], ['VALIDATION_ERROR', 'catalogs[0].items[1]']);
    assert.deepEqual(outcomes(await sync(b, {})), [], 'nothing synced');

    const lenient = await sync(b, {
      catalogs: [
        bad,
        {
          catalog_id: 'feed',
          type: 'product',
          url: 'https://feeds.example/p.xml',
          feed_format: 'google_merchant_center',
        },
      ],
      validation_mode: 'lenient',
    });
    const [venuesOutcome, feed] = lenient.catalogs as Json[];
    assert.deepEqual(
      [venuesOutcome!.action, venuesOutcome!.item_count, venuesOutcome!.items_rejected],
      ['created', 1, 1],
    );
    assert.deepEqual(
      (venuesOutcome!.item_issues as Json[]).map((i) => [i.item_id, i.status]),
      [['nowhere', 'rejected']],
    );
    assert.deepEqual([feed!.action, (feed!.errors as Json[])[0]!.code], ['failed', 'UNSUPPORTED_FEATURE']);
  });

  it('previews with dry_run, and deletes the catalogs not sent with delete_missing', async () => {
    const b = await buyers.add();
    await sync(b, { catalogs: [groceries, venues] });
    const preview = await sync(b, { catalogs: [venues], delete_missing: true, dry_run: true });
    assert.equal(preview.dry_run, true);
    assert.deepEqual(outcomes(preview), [
      ['venues', 'unchanged', 1],
      ['grocery-feed', 'deleted', undefined],
    ]);
    assert.equal((await sync(b, {})).catalogs.length, 2, 'a dry run writes nothing');
    await sync(b, { catalogs: [venues], delete_missing: true });
    assert.deepEqual(outcomes(await sync(b, {})), [['venues', 'unchanged', 1]]);
  });
});
