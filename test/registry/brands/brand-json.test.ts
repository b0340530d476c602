import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { staticResolver, type Resolver } from '../../../src/net/resolver.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { eachEngine } from '../../support/engines.ts';
import { json } from '../../support/http.ts';
import { startPublishers, type Publishers } from '../../support/publishers.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const houseDocument = {
  $schema: '/schemas/3.0.6/brand.json',
  version: '1.0',
  house: { domain: 'house.ap.test', name: 'House Holdings', architecture: 'hybrid' },
  brands: [
    {
      id: 'house',
      names: [{ en: 'House' }],
      keller_type: 'master',
      logos: [{ url: 'https://house.ap.test/logo.svg', variant: 'primary' }],
      colors: { primary: '#0a0b0c', accent: ['#ffffff', '#000000'] },
      properties: [{ type: 'website', identifier: 'house.ap.test', primary: true }],
    },
    {
      id: 'house_kids',
      names: [{ en: 'House Kids' }],
      keller_type: 'sub_brand',
      parent_brand: 'house',
      properties: [{ type: 'website', identifier: 'kids.ap.test' }],
    },
  ],
  last_updated: '2026-02-01T10:00:00Z',
};

const isoTimestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

eachEngine('brand.json lookup', (engine) => {
  let publishers: Publishers;
  let server: TestServer;

  before(async () => {
    publishers = await startPublishers();
    server = await startTestServer(engine, { deps: { fetcher: publishers.fetcher } });
    publishers.serve('house.ap.test', '/.well-known/brand.json', { body: houseDocument });
    publishers.serve('gone.ap.test', '/.well-known/brand.json', { status: 410, body: { error: 'gone' } });
    publishers.serve('html.ap.test', '/.well-known/brand.json', { body: '<html><body>Not JSON</body></html>' });
    publishers.serve('failing.ap.test', '/.well-known/brand.json', { status: 500, body: { error: 'internal' } });
    publishers.serve('list.ap.test', '/.well-known/brand.json', { body: [{ house: 'list.ap.test' }] });
  });
  after(async () => {
    await server.close();
    await publishers.fetcher.close();
    await publishers.close();
  });

  const brandJson = (domain: string) =>
    fetch(`${server.url}/api/brands/brand-json?domain=${encodeURIComponent(domain)}`);
  const requestsFor = (host: string) =>
    publishers.seen.filter((line) => line === `${host} /.well-known/brand.json`).length;

  describe('a domain that publishes one', () => {
    it('fetches it live the first time and answers the document exactly as published', async () => {
      const res = await brandJson('house.ap.test');
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.deepEqual(Object.keys(body).sort(), ['brand_json', 'data', 'domain', 'fetched_at', 'url']);
      assert.equal(body.domain, 'house.ap.test');
      assert.equal(body.url, 'https://house.ap.test/.well-known/brand.json');
      assert.match(body.fetched_at, isoTimestamp);
      assert.ok(Math.abs(Date.parse(body.fetched_at) - Date.now()) < 60_000);
      assert.deepEqual(body.brand_json, houseDocument);
      assert.deepEqual(body.data, houseDocument, 'the same document where the protocol’s registry client reads it');
      assert.equal(requestsFor('house.ap.test'), 1);
    });

    it('answers later requests from the store, however the domain is written', async () => {
      const first = await json(await brandJson('house.ap.test'));
      const second = await json(await brandJson('HTTPS://House.AP.test./'));
      assert.deepEqual(second, first);
      assert.deepEqual(first.brand_json, houseDocument);
      // Three API calls so far, one request to the publisher.
      assert.equal(requestsFor('house.ap.test'), 1);
    });
  });

  describe('a domain without one', () => {
    it('answers 404 not_found when the domain answers 404 or 410', async () => {
      for (const domain of ['missing.ap.test', 'gone.ap.test']) {
        const res = await brandJson(domain);
        assert.equal(res.status, 404, domain);
        const body = await json(res);
        assert.equal(body.error, 'not_found', domain);
        assert.match(body.message, /brand\.json/, domain);
        assert.ok(body.message.includes(domain), body.message);
      }
    });

    it('does not remember a miss: once the domain publishes, the next request finds it', async () => {
      publishers.serve('missing.ap.test', '/.well-known/brand.json', { body: { house: 'house.ap.test' } });
      const res = await brandJson('missing.ap.test');
      assert.equal(res.status, 200);
      assert.deepEqual((await json(res)).brand_json, { house: 'house.ap.test' });
      assert.equal(requestsFor('missing.ap.test'), 2);
    });

    it('answers 502 upstream_unavailable when the domain answers something that is not a JSON object', async () => {
      for (const [domain, reason] of [
        ['html.ap.test', /not valid JSON/],
        ['failing.ap.test', /HTTP 500/],
        ['list.ap.test', /not a JSON object/],
      ] as const) {
        const res = await brandJson(domain);
        assert.equal(res.status, 502, domain);
        const body = await json(res);
        assert.equal(body.error, 'upstream_unavailable', domain);
        assert.match(body.message, reason, domain);
        assert.ok(body.message.includes(domain), body.message);
      }
    });

    it('does not keep a failure: the next request asks the domain again', async () => {
      const before = requestsFor('failing.ap.test');
      assert.equal((await brandJson('failing.ap.test')).status, 502);
      assert.equal(requestsFor('failing.ap.test'), before + 1);
      const stored = await server.db.query<{ domain: string }>(
        `select domain from fetched_documents where kind = 'brand_json' order by domain`,
      );
      assert.deepEqual(
        stored.map((r) => r.domain),
        ['house.ap.test', 'missing.ap.test'],
      );
    });

    it('answers 400 for an invalid or missing domain without fetching', async () => {
      const before = publishers.seen.length;
      for (const domain of [
        'house.ap.test:8443',
        'house.ap.test/.well-known/brand.json',
        '127.0.0.1',
        'https://user:pw@house.ap.test',
      ]) {
        const res = await brandJson(domain);
        assert.equal(res.status, 400, domain);
        assert.equal((await json(res)).error, 'invalid_domain', domain);
      }
      const missing = await fetch(`${server.url}/api/brands/brand-json`);
      assert.equal(missing.status, 400);
      assert.equal((await json(missing)).error, 'validation_failed');
      assert.equal(publishers.seen.length, before);
    });
  });
});

eachEngine('brand.json lookup with the production fetch client', (engine) => {
  let server: TestServer;
  let fetcher: SafeFetch;
  const looked: string[] = [];

  before(async () => {
    // The production client (public addresses only, no allow list); only the resolver is a table,
    // so the answer is known and nothing leaves the machine.
    const table = staticResolver({
      'internal.example': ['10.0.0.5'],
      'twofaced.example': ['93.184.215.14', '127.0.0.1'],
      'meta.example': ['169.254.169.254'],
    });
    const resolver: Resolver = (host) => {
      looked.push(host);
      return table(host);
    };
    fetcher = new SafeFetch({ resolver });
    server = await startTestServer(engine, { deps: { fetcher } });
  });
  after(async () => {
    await server.close();
    await fetcher.close();
  });

  const brandJson = (domain: string) => fetch(`${server.url}/api/brands/brand-json?domain=${domain}`);

  it('answers 502 saying why when the domain resolves to a private address, and connects nowhere', async () => {
    const res = await brandJson('internal.example');
    assert.equal(res.status, 502);
    const body = await json(res);
    assert.equal(body.error, 'upstream_unavailable');
    assert.match(body.message, /^Could not fetch \/\.well-known\/brand\.json for internal\.example: /);
    assert.match(
      body.message,
      /internal\.example resolves to 10\.0\.0\.5, which is private; fetches may only reach public addresses/,
    );
    assert.deepEqual(looked, ['internal.example']);
  });

  it('refuses a name when any of its addresses is not public, and link-local metadata addresses', async () => {
    for (const [domain, address] of [
      ['twofaced.example', '127.0.0.1'],
      ['meta.example', '169.254.169.254'],
    ] as const) {
      const res = await brandJson(domain);
      assert.equal(res.status, 502, domain);
      const body = await json(res);
      assert.equal(body.error, 'upstream_unavailable');
      assert.ok(body.message.includes(`resolves to ${address}`), body.message);
    }
  });

  it('answers 502 when the name does not resolve, and stores nothing for any of them', async () => {
    const res = await brandJson('nowhere.example');
    assert.equal(res.status, 502);
    const body = await json(res);
    assert.equal(body.error, 'upstream_unavailable');
    assert.match(body.message, /nowhere\.example could not be resolved/);
    const stored = await server.db.query<{ n: number }>('select count(*)::int as n from fetched_documents');
    assert.equal(stored[0]!.n, 0);
  });
});

eachEngine('brand.json lookup with the fetch client the server builds', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  it('answers 502 upstream_unavailable with the reason for a domain that cannot be reached', async () => {
    // `.invalid` never resolves (RFC 6761), so this needs no network either way.
    const res = await fetch(`${server.url}/api/brands/brand-json?domain=brand.nothing-here.invalid`);
    assert.equal(res.status, 502);
    const body = await json(res);
    assert.equal(body.error, 'upstream_unavailable');
    assert.match(body.message, /brand\.nothing-here\.invalid could not be resolved/);
  });
});
