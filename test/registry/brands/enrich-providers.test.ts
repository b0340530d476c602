import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { staticResolver } from '../../../src/net/resolver.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { ApError } from '../../../src/protocol/errors.ts';
import { brandDataApiProvider, readBrand } from '../../../src/registry/brands/enrichment/brand-data-api.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { startPublishers, type Publishers } from '../../support/publishers.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const KEY = 'test-brand-data-key-0123456789';
/** The fake brand-data API is one more `*.ap.test` host of the simulated web, on loopback. */
const provider = {
  BRAND_DATA_PROVIDER_URL: 'https://brands.ap.test/v1/',
  BRAND_DATA_PROVIDER_KEY: KEY,
  BRAND_DATA_PROVIDER_TIMEOUT_MS: '300',
};
/** Names outside the simulated web, pointed at private addresses: the SSRF-safe client must refuse them. */
const resolver = staticResolver({ 'intranet.example': ['10.0.0.7'], 'metadata.example': ['169.254.169.254'] });

const acmeRecord = {
  domain: 'acme.ap.test',
  name: '  Acme   Widgets ',
  description: 'Widgets for every home.',
  logos: [
    { url: 'https://cdn.brand-data.example/acme/logo.svg', type: 'logo', theme: 'light', tags: ['primary'] },
    { url: 'javascript:alert(1)', type: 'icon' },
    { type: 'symbol' },
  ],
  colors: [{ hex: '#0055AA', type: 'brand' }, { hex: 'blue', type: 'accent' }, { hex: '#fff' }],
  industries: ['retail'],
};

eachEngine('brand enrichment through a brand-data provider', (engine) => {
  let publishers: Publishers;
  let server: TestServer;
  let release: () => void;

  before(async () => {
    publishers = await startPublishers({ resolver });
    server = await startTestServer(engine, { env: provider, deps: { fetcher: publishers.fetcher } });
    const held = new Promise<void>((resolve) => (release = resolve));
    publishers.serve('brands.ap.test', '/v1/brands/acme.ap.test', { body: acmeRecord });
    publishers.serve('brands.ap.test', '/v1/brands/xn--bcher-kva.ap.test', { body: { name: 'Bücher' } });
    publishers.serve('brands.ap.test', '/v1/brands/failing.ap.test', { status: 500, body: { error: 'internal' } });
    publishers.serve('brands.ap.test', '/v1/brands/garbage.ap.test', {
      body: '<html>not json</html>',
      contentType: 'application/json',
    });
    publishers.serve('brands.ap.test', '/v1/brands/nameless.ap.test', {
      body: { domain: 'nameless.ap.test', colors: [{ hex: '#000000' }] },
    });
    publishers.serve('brands.ap.test', '/v1/brands/slow.ap.test', { body: { name: 'Too Late' }, heldUntil: held });
    publishers.serve('brands.ap.test', '/v1/brands/huge.ap.test', {
      body: { name: 'Huge', description: 'x'.repeat(300 * 1024) },
    });
    publishers.serve('brands.ap.test', '/v1/brands/moved.ap.test', {
      status: 302,
      body: '',
      headers: { location: 'https://elsewhere.ap.test/brands/moved.ap.test' },
    });
    publishers.serve('brands.ap.test', '/v1/brands/unauthorized.ap.test', { status: 401, body: { error: 'bad key' } });
    // Domains the provider does not know (404) but whose own site says something.
    publishers.serve('smallshop.ap.test', '/', { body: '<title>Small Shop</title>' });
    // Every failing domain's own site would answer: a fallback on failure would show.
    for (const domain of ['failing', 'garbage', 'nameless', 'slow', 'huge', 'moved', 'unauthorized'])
      publishers.serve(`${domain}.ap.test`, '/', { body: '<title>Fallback</title>' });
  });
  after(async () => {
    release();
    await server.close();
    await publishers.fetcher.close();
    await publishers.close();
  });

  const enrich = (domain: string) => fetch(`${server.url}/api/brands/enrich?domain=${encodeURIComponent(domain)}`);
  const seenFor = (host: string) => publishers.seen.filter((line) => line.startsWith(`${host} `));
  const resolveStatus = async (domain: string) =>
    (await fetch(`${server.url}/api/brands/resolve?domain=${domain}`)).status;

  it('asks the provider first, with its key, and stores its answer as an enriched revision by system', async () => {
    const res = await enrich('acme.ap.test');
    assert.equal(res.status, 200);
    assert.deepEqual(await json(res), {
      domain: 'acme.ap.test',
      brand_name: 'Acme Widgets',
      brand_manifest: {
        name: 'Acme Widgets',
        description: 'Widgets for every home.',
        logos: [{ url: 'https://cdn.brand-data.example/acme/logo.svg', tags: ['logo', 'light', 'primary'] }],
        colors: [{ hex: '#0055aa', type: 'brand' }, { hex: '#fff' }],
      },
      provider: 'brand-data-api',
      source: 'enriched',
      stored: true,
      revision_number: 1,
    });
    const asked = publishers.seen.indexOf('brands.ap.test /v1/brands/acme.ap.test');
    assert.ok(asked >= 0, 'the provider was asked at {url}/brands/{domain}');
    assert.equal(publishers.authorizations[asked], `Bearer ${KEY}`);
    assert.deepEqual(seenFor('acme.ap.test'), [], 'the site itself is not fetched');

    const history = await json(await fetch(`${server.url}/api/brands/history?domain=acme.ap.test`));
    assert.equal(history.revisions[0].editor_name, 'system');
    assert.equal(history.revisions[0].source, 'enriched');
    assert.match(history.revisions[0].edit_summary, /brand-data-api/);
    const resolved = await json(await fetch(`${server.url}/api/brands/resolve?domain=acme.ap.test`));
    assert.equal(resolved.source, 'enriched');
    assert.equal(resolved.brand_name, 'Acme Widgets');
  });

  it('asks about the normalized domain (IDNA 2008)', async () => {
    const res = await enrich('HTTPS://Bücher.AP.test/');
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.equal(body.domain, 'xn--bcher-kva.ap.test');
    assert.equal(body.brand_name, 'Bücher');
    assert.deepEqual(seenFor('brands.ap.test').at(-1), 'brands.ap.test /v1/brands/xn--bcher-kva.ap.test');
  });

  it('falls back to the site’s own metadata for a domain the provider does not know', async () => {
    const res = await enrich('smallshop.ap.test');
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.equal(body.provider, 'site-metadata');
    assert.equal(body.brand_name, 'Small Shop');
    assert.equal(body.stored, true);
    assert.deepEqual(publishers.seen.slice(-3), [
      'brands.ap.test /v1/brands/smallshop.ap.test',
      'smallshop.ap.test /.well-known/brand.json',
      'smallshop.ap.test /',
    ]);
    const history = await json(await fetch(`${server.url}/api/brands/history?domain=smallshop.ap.test`));
    assert.match(history.revisions[0].edit_summary, /site-metadata/);
  });

  it('answers 404 when neither the provider nor the site knows the domain', async () => {
    const res = await enrich('nobody.ap.test');
    assert.equal(res.status, 404);
    const body = await json(res);
    assert.equal(body.error, 'not_found');
    assert.match(body.message, /brand-data-api, then site-metadata/);
  });

  it('answers 502 brand_data_provider_failed when the provider fails or answers garbage, storing nothing and not falling back', async () => {
    const cases: Array<[string, RegExp]> = [
      ['failing.ap.test', /HTTP 500/],
      ['unauthorized.ap.test', /HTTP 401/],
      ['garbage.ap.test', /not JSON/],
      ['nameless.ap.test', /names no brand/],
      ['slow.ap.test', /in time/],
      ['huge.ap.test', /too large/],
      ['moved.ap.test', /redirected/],
    ];
    for (const [domain, why] of cases) {
      const res = await enrich(domain);
      const body = await json(res);
      assert.equal(res.status, 502, `${domain}: ${JSON.stringify(body)}`);
      assert.equal(body.error, 'brand_data_provider_failed', domain);
      assert.match(body.message, why, domain);
      assert.ok(
        !body.message.includes('brands.ap.test') && !body.message.includes(KEY),
        `${domain}: the provider's address and key stay private`,
      );
      assert.equal(await resolveStatus(domain), 404, `${domain}: nothing stored`);
      assert.deepEqual(seenFor(domain), [], `${domain}: no fallback to the site`);
    }
    assert.deepEqual(seenFor('elsewhere.ap.test'), [], 'the redirect was not followed');
  });

  it('refuses a domain that resolves to a private address, fetching nothing from it', async () => {
    for (const domain of ['intranet.example', 'metadata.example']) {
      const res = await enrich(domain);
      const body = await json(res);
      assert.equal(res.status, 400, `${domain}: ${JSON.stringify(body)}`);
      assert.equal(body.error, 'domain_not_public', domain);
      assert.match(body.message, new RegExp(domain.replace('.', '\\.')));
      assert.equal(await resolveStatus(domain), 404, domain);
    }
  });

  it('answers 400 invalid_domain without asking the provider', async () => {
    const before = publishers.seen.length;
    for (const domain of ['10.0.0.7', 'acme.ap.test/../../admin', 'bad domain']) {
      const res = await enrich(domain);
      assert.equal(res.status, 400, domain);
      const body: Json = await json(res);
      assert.equal(body.error, 'invalid_domain', domain);
      assert.equal(typeof body.message, 'string');
    }
    assert.equal(publishers.seen.length, before);
  });
});

eachEngine('brand enrichment limits', (engine) => {
  let publishers: Publishers;
  let server: TestServer;

  before(async () => {
    publishers = await startPublishers();
    server = await startTestServer(engine, {
      env: { ...provider, RATE_LIMIT_ENRICH_PER_MINUTE: '2' },
      deps: { fetcher: publishers.fetcher },
    });
    publishers.serve('brands.ap.test', '/v1/brands/limited.ap.test', { body: { name: 'Limited' } });
  });
  after(async () => {
    await server.close();
    await publishers.fetcher.close();
    await publishers.close();
  });

  it('answers 429 with retry_after past the per-IP limit, asking no provider', async () => {
    for (let i = 0; i < 2; i++)
      assert.equal((await fetch(`${server.url}/api/brands/enrich?domain=limited.ap.test`)).status, 200);
    const asked = publishers.seen.length;
    const res = await fetch(`${server.url}/api/brands/enrich?domain=limited.ap.test`);
    assert.equal(res.status, 429);
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const body = await json(res);
    assert.equal(body.error, 'rate_limited');
    assert.equal(body.retry_after, retryAfter);
    assert.equal(publishers.seen.length, asked);
  });
});

describe('the brand-data API adapter', () => {
  it('refuses a provider whose name resolves to a private address unless the allow list names it', async () => {
    const fetcher = new SafeFetch({
      resolver: staticResolver({ 'brands.internal.example': ['10.1.2.3'] }),
      timeoutMs: 1000,
    });
    try {
      const adapter = brandDataApiProvider(fetcher, {
        url: 'https://brands.internal.example/v1',
        key: KEY,
        timeoutMs: 1000,
      });
      await assert.rejects(adapter.enrich('acme.example'), (err: unknown) => {
        assert.ok(err instanceof ApError);
        assert.equal(err.code, 'brand_data_provider_failed');
        assert.match(err.message, /address is not public/);
        return true;
      });
    } finally {
      await fetcher.close();
    }
  });

  it('reads a record into the registry’s manifest, within the save’s limits', () => {
    const many = Array.from({ length: 60 }, (_, i) => ({
      url: `https://cdn.example/${i}.png`,
      tags: Array.from({ length: 30 }, (_, t) => `t${t}`),
    }));
    const read = readBrand({
      name: 'N'.repeat(400),
      description: 'D'.repeat(6000),
      logos: many,
      colors: Array.from({ length: 60 }, () => ({ hex: '#ABCDEF', type: 'x'.repeat(80) })),
    });
    assert.ok(read);
    assert.equal(read.brand_name.length, 300);
    assert.equal(read.manifest.description?.length, 5000);
    assert.equal(read.manifest.logos?.length, 50);
    assert.equal(read.manifest.logos?.[0]?.tags?.length, 20);
    assert.equal(read.manifest.colors?.length, 50);
    assert.deepEqual(read.manifest.colors?.[0], { hex: '#abcdef', type: 'x'.repeat(50) });
    for (const garbage of [null, [], 'Acme', { name: '' }, { name: 42 }, { title: 'Acme' }])
      assert.equal(readBrand(garbage), null, JSON.stringify(garbage));
  });
});
