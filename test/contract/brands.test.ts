import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startContractRegistry, type ContractRegistry } from '../support/contract.ts';
import { eachEngine } from '../support/engines.ts';
import type { Json } from '../support/http.ts';

/**
 * Brand resolution and search as the protocol's registry client calls them, against the demo
 * world: each test names the client method, sends what it sends and asserts the fields it reads.
 */
eachEngine('contract: brand resolution and search', (engine) => {
  let registry: ContractRegistry;

  before(async () => {
    registry = await startContractRegistry(engine);
  });
  after(() => registry.close());

  const named = (items: Json[]) => items.map((b) => `${b.brand_name} ${b.domain}`);

  describe('lookupBrand: GET /api/brands/resolve?domain=', () => {
    it('answers ResolvedBrand: canonical_id, canonical_domain, brand_name, keller_type, house_domain, source', async () => {
      const { status, body } = await registry.get('/api/brands/resolve?domain=lumen-zero.example');
      assert.equal(status, 200);
      assert.deepEqual(
        [body.canonical_domain, body.brand_name, body.keller_type, body.house_domain, body.source],
        ['lumen-zero.example', 'Lumen Zero', 'sub_brand', 'lumen-beverages.example', 'brand_json'],
      );
      assert.equal(typeof body.canonical_id, 'string');
      assert.equal(
        (await registry.get('/api/brands/resolve?domain=unknown-brand.example')).status,
        404,
        'the client returns null',
      );
    });
  });

  describe('lookupBrands: POST /api/brands/resolve/bulk {domains}', () => {
    it('answers {results: {domain: ResolvedBrand | null}} keyed by each domain as sent', async () => {
      const { status, body } = await registry.post('/api/brands/resolve/bulk', {
        domains: ['lumen-drinks.example', 'Northwind.example', 'unknown-brand.example'],
      });
      assert.equal(status, 200);
      assert.deepEqual(Object.keys(body.results), [
        'lumen-drinks.example',
        'Northwind.example',
        'unknown-brand.example',
      ]);
      assert.deepEqual(
        [
          body.results['lumen-drinks.example'].brand_name,
          body.results['lumen-drinks.example'].canonical_domain,
          body.results['lumen-drinks.example'].source,
        ],
        ['Lumen', 'lumen-drinks.example', 'brand_json'],
      );
      assert.equal(body.results['Northwind.example'].house_domain, 'northwind-group.example');
      const resolved = (await registry.get('/api/brands/resolve?domain=northwind.example')).body;
      assert.deepEqual(body.results['Northwind.example'], resolved, 'each result is what resolve answers');
      assert.equal(body.results['unknown-brand.example'], null);
    });
  });

  describe('findCompany: GET /api/brands/find?q=&limit=', () => {
    it('answers FindCompanyResult: a company’s brands by name, best first', async () => {
      const { status, body } = await registry.get('/api/brands/find?q=Lumen%20Beverages');
      assert.equal(status, 200);
      assert.deepEqual(named(body.results), [
        'Lumen Beverages lumen-beverages.example',
        'Lumen lumen-drinks.example',
        'Fizzwell fizzwell.example',
        'Lumen Zero lumen-zero.example',
      ]);
      assert.deepEqual(
        body.results.map((r: Json) => r.match),
        ['exact', 'house', 'house', 'house'],
      );
      for (const result of body.results) {
        assert.equal(result.canonical_domain, result.domain);
        assert.equal(result.house_domain, 'lumen-beverages.example');
        assert.equal(result.source, 'brand_json');
        assert.ok(['master', 'sub_brand', 'endorsed', 'independent'].includes(result.keller_type), result.keller_type);
      }
      assert.deepEqual(
        body.results.map((r: Json) => r.keller_type),
        ['master', 'master', 'endorsed', 'sub_brand'],
      );
    });

    it('ranks exact names, then names starting with the search, then word matches; limit bounds the answer', async () => {
      const northwind = await registry.get('/api/brands/find?q=northwind');
      assert.deepEqual(named(northwind.body.results), [
        'Northwind northwind.example',
        'Northwind Kids northwind-kids.example',
        'Northwind Group northwind-group.example',
        'Northwind Outdoor northwind-outdoor.example',
        'Trailhead Coffee trailhead-coffee.example',
      ]);
      assert.deepEqual(
        northwind.body.results.map((r: Json) => r.match),
        ['exact', 'prefix', 'prefix', 'prefix', 'house'],
      );
      assert.deepEqual(named((await registry.get('/api/brands/find?q=northwind&limit=2')).body.results), [
        'Northwind northwind.example',
        'Northwind Kids northwind-kids.example',
      ]);
      const coffee = await registry.get('/api/brands/find?q=coffee');
      assert.deepEqual(
        [named(coffee.body.results), coffee.body.results[0].match],
        [['Trailhead Coffee trailhead-coffee.example'], 'words'],
      );
      assert.deepEqual(
        named((await registry.get('/api/brands/find?q=halcyon-ev.example')).body.results),
        ['Halcyon EV halcyon-ev.example'],
        'a domain finds its brand',
      );
      assert.deepEqual((await registry.get('/api/brands/find?q=nothing%20like%20it')).body.results, []);
    });

    it('refuses a search too short, without a letter or digit, or longer than 64 characters', async () => {
      for (const q of ['x', '%20x%20', '--', 'a'.repeat(65)]) {
        const { status, body } = await registry.get(`/api/brands/find?q=${q}`);
        assert.deepEqual([status, body.error, body.details[0].field], [400, 'validation_failed', 'q'], q);
      }
      assert.equal((await registry.get(`/api/brands/find?q=${'a'.repeat(64)}`)).status, 200);
    });
  });

  describe('listBrands: GET /api/brands/registry?search=&limit=&offset=&source=', () => {
    it('searches by search and pages by offset (the issue’s example), answering BrandRegistryItem and stats', async () => {
      const coffee = await registry.get('/api/brands/registry?search=coffee&limit=5');
      assert.equal(coffee.status, 200);
      assert.deepEqual(named(coffee.body.brands), ['Trailhead Coffee trailhead-coffee.example']);
      const item = coffee.body.brands[0];
      assert.deepEqual(
        [
          item.domain,
          item.brand_name,
          item.source,
          item.has_manifest,
          item.verified,
          item.house_domain,
          item.keller_type,
        ],
        [
          'trailhead-coffee.example',
          'Trailhead Coffee',
          'brand_json',
          true,
          true,
          'northwind-group.example',
          'independent',
        ],
      );
      assert.deepEqual(coffee.body.stats, {
        total: 1,
        hosted: 0,
        brand_json: 1,
        enriched: 0,
        community: 0,
        houses: 0,
        sub_brands: 0,
        with_manifest: 1,
      });

      const beyond = await registry.get('/api/brands/registry?search=coffee&limit=5&offset=5');
      assert.deepEqual([beyond.body.brands, beyond.body.stats.total], [[], 1], 'was every brand, first page');

      const all = await registry.get('/api/brands/registry?limit=5');
      assert.deepEqual(all.body.stats, {
        total: 19,
        hosted: 0,
        brand_json: 19,
        enriched: 0,
        community: 0,
        houses: 8,
        sub_brands: 5,
        with_manifest: 19,
      });
      const page2 = await registry.get('/api/brands/registry?limit=5&offset=5');
      const walked = await registry.get(`/api/brands/registry?limit=5&cursor=${encodeURIComponent(all.body.cursor)}`);
      assert.deepEqual(named(page2.body.brands), named(walked.body.brands), 'offset 5 is the page after the first');

      const hosted = await registry.get('/api/brands/registry?source=hosted');
      assert.deepEqual([hosted.status, hosted.body.brands], [200, []]);
      assert.deepEqual(named((await registry.get('/api/brands/registry?source=brand_json&search=orbit')).body.brands), [
        'Orbit orbit-appliances.example',
        'Orbit Home Holdings orbit-home.example',
        'Orbit Smart orbit-smart.example',
      ]);
    });
  });

  describe('getBrandJson: GET /api/brands/brand-json?domain=', () => {
    it('answers the file in data (beside brand_json), with domain and url', async () => {
      const { status, body } = await registry.get('/api/brands/brand-json?domain=lumen-beverages.example');
      assert.equal(status, 200);
      assert.equal(body.domain, 'lumen-beverages.example');
      assert.equal(body.url, 'https://lumen-beverages.example/.well-known/brand.json');
      assert.deepEqual(body.data.house, {
        name: 'Lumen Beverages',
        domain: 'lumen-beverages.example',
        architecture: 'house_of_brands',
      });
      assert.deepEqual(
        body.data.brands.map((b: Json) => b.id),
        ['lumen', 'lumen_zero', 'fizzwell'],
      );
      assert.deepEqual(body.brand_json, body.data);
    });
  });

  describe('getBrandHistory: GET /api/brands/history?domain=&limit=&offset=', () => {
    it('answers BrandActivity: domain, total and revisions newest first', async () => {
      const { status, body } = await registry.get('/api/brands/history?domain=northwind.example&limit=5&offset=0');
      assert.equal(status, 200);
      assert.deepEqual([body.domain, body.total], ['northwind.example', 1]);
      assert.deepEqual(body.revisions, [
        {
          ...body.revisions[0],
          revision_number: 1,
          editor_name: 'system',
          edit_summary: 'Projected from brand.json',
          source: 'brand_json',
          is_rollback: false,
        },
      ]);
      assert.match(body.revisions[0].created_at, /^\d{4}-\d\d-\d\dT/);
      assert.equal(
        (await registry.get('/api/brands/history?domain=unknown-brand.example')).status,
        404,
        'the client returns null',
      );
    });
  });

  describe('search: GET /api/search?q=', () => {
    it('answers {brands, publishers, properties}', async () => {
      const harbor = await registry.get('/api/search?q=harbor');
      assert.equal(harbor.status, 200);
      assert.deepEqual(harbor.body.brands, []);
      assert.deepEqual(
        harbor.body.publishers.map((p: Json) => p.domain),
        ['dailyharbor.example'],
      );
      assert.deepEqual(
        harbor.body.properties.map((p: Json) => `${p.publisher_domain} ${p.name}`),
        [
          'dailyharbor.example Harbor TV',
          'dailyharbor.example The Daily Harbor',
          'dailyharbor.example The Daily Harbor app',
        ],
      );
      const lumen = await registry.get('/api/search?q=lumen');
      assert.deepEqual(
        lumen.body.brands.map((b: Json) => b.domain),
        ['lumen-drinks.example', 'lumen-beverages.example', 'lumen-zero.example'],
      );
      assert.deepEqual([lumen.body.publishers, lumen.body.properties], [[], []]);
    });
  });
});
