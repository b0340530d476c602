import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { saveAuthoritative } from '../../../src/registry/brands/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

/**
 * A house (globex.example) whose brand.json declares a sub-brand with domains of its own, and a
 * community brand saved through the API.
 */
async function seed(server: TestServer) {
  const { house, sport } = await server.db.transaction(async (tx) => ({
    house: await saveAuthoritative(tx, {
      domain: 'globex.example',
      brand_name: 'Globex',
      brand_key: 'globex',
      keller_type: 'master',
      house_domain: 'globex.example',
      manifest: { name: 'Globex' },
      aliases: ['globex.co.uk'],
    }),
    sport: await saveAuthoritative(tx, {
      domain: 'globexsport.example',
      brand_name: 'Globex Sport',
      brand_key: 'globex_sport',
      keller_type: 'sub_brand',
      house_domain: 'globex.example',
      manifest: { name: 'Globex Sport' },
      aliases: ['globexsport.de', 'sport.globex.example'],
    }),
  }));
  const saved = await postJson(`${server.url}/api/brands/save`, {
    domain: 'acme.example',
    brand_name: 'Acme',
    brand_manifest: { name: 'Acme' },
  });
  assert.equal(saved.status, 201);
  const acme = await json(saved);
  const unicode = await postJson(`${server.url}/api/brands/save`, { domain: 'bücher.example', brand_name: 'Bücher' });
  assert.equal(unicode.status, 201);
  return { houseId: house.row.id, sportId: sport.row.id, acmeId: acme.id as string };
}

eachEngine('brand resolution', (engine) => {
  let server: TestServer;
  let ids: Awaited<ReturnType<typeof seed>>;

  before(async () => {
    server = await startTestServer(engine);
    ids = await seed(server);
  });
  after(() => server.close());

  const resolve = (domain: string) => fetch(`${server.url}/api/brands/resolve?domain=${encodeURIComponent(domain)}`);
  const bulk = (body: unknown) => postJson(`${server.url}/api/brands/resolve/bulk`, body, {});

  const acme = () => ({
    canonical_id: ids.acmeId,
    canonical_domain: 'acme.example',
    brand_name: 'Acme',
    keller_type: 'master',
    house_domain: 'acme.example',
    source: 'community',
  });
  const globex = () => ({
    canonical_id: ids.houseId,
    canonical_domain: 'globex.example',
    brand_name: 'Globex',
    keller_type: 'master',
    house_domain: 'globex.example',
    source: 'brand_json',
  });
  const globexSport = () => ({
    canonical_id: ids.sportId,
    canonical_domain: 'globexsport.example',
    brand_name: 'Globex Sport',
    keller_type: 'sub_brand',
    house_domain: 'globex.example',
    source: 'brand_json',
  });

  describe('GET /api/brands/resolve', () => {
    it('answers a community brand with exactly the resolution record, as its own master house', async () => {
      const res = await resolve('acme.example');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await json(res), acme());
    });

    it('answers a brand from its house’s brand.json with source brand_json', async () => {
      assert.deepEqual(await json(await resolve('globex.example')), globex());
      assert.deepEqual(await json(await resolve('globexsport.example')), globexSport());
    });

    it('resolves a domain the house declares for a brand to that brand, naming the house', async () => {
      for (const domain of ['globexsport.de', 'sport.globex.example']) {
        const res = await resolve(domain);
        assert.equal(res.status, 200, domain);
        assert.deepEqual(await json(res), globexSport(), domain);
      }
      assert.deepEqual(await json(await resolve('globex.co.uk')), globex());
    });

    it('normalizes what people paste: protocol, case, surrounding spaces, trailing dot and slash', async () => {
      for (const input of [
        'https://acme.example',
        'HTTP://ACME.EXAMPLE',
        'Acme.Example.',
        'https://Acme.Example./',
        '  acme.example  ',
        'acme.example/',
      ]) {
        const res = await resolve(input);
        assert.equal(res.status, 200, input);
        assert.deepEqual(await json(res), acme(), input);
      }
      assert.deepEqual(await json(await resolve('HTTPS://GLOBEXSPORT.DE.')), globexSport());
    });

    it('stores and resolves internationalized names in their punycode form, whichever form is asked', async () => {
      for (const input of ['bücher.example', 'BÜCHER.example', 'xn--bcher-kva.example']) {
        const body = await json(await resolve(input));
        assert.equal(body.canonical_domain, 'xn--bcher-kva.example', input);
        assert.equal(body.brand_name, 'Bücher', input);
      }
    });

    it('answers 404 not_found naming the domain when nothing is registered', async () => {
      const res = await resolve('Unknown.Example');
      assert.equal(res.status, 404);
      const body = await json(res);
      assert.equal(body.error, 'not_found');
      assert.match(body.message, /unknown\.example/);
    });

    it('answers 400 invalid_domain for what is not a bare host name', async () => {
      for (const input of [
        'acme.example:8080',
        'https://acme.example:443/',
        'acme.example/about',
        'acme.example?x=1',
        'acme.example#top',
        '192.168.1.10',
        '10.0.0.1',
        '[::1]',
        '::1',
        'user:secret@acme.example',
        'https://user@acme.example',
        'localhost',
        'acme.123',
        'bad_label.example',
        '-dash.example',
      ]) {
        const res = await resolve(input);
        assert.equal(res.status, 400, input);
        const body = await json(res);
        assert.equal(body.error, 'invalid_domain', input);
        assert.match(body.message, /^Invalid domain/, input);
      }
    });

    it('answers 400 validation_failed when the domain is missing or empty', async () => {
      for (const url of [
        `${server.url}/api/brands/resolve`,
        `${server.url}/api/brands/resolve?domain=`,
        `${server.url}/api/brands/resolve?dommain=acme.example`,
      ]) {
        const res = await fetch(url);
        assert.equal(res.status, 400, url);
        const body = await json(res);
        assert.equal(body.error, 'validation_failed', url);
        assert.equal(body.details[0].in, 'querystring', url);
        assert.equal(body.details[0].field, 'domain', url);
      }
    });
  });

  describe('POST /api/brands/resolve/bulk', () => {
    it('keys each result by the domain exactly as sent, null when unknown', async () => {
      const sent = ['acme.example', 'HTTPS://ACME.EXAMPLE/', 'globexsport.de', 'globex.example', 'unknown.example'];
      const res = await bulk({ domains: sent });
      assert.equal(res.status, 200);
      const { results } = await json(res);
      assert.deepEqual(Object.keys(results).sort(), [...sent].sort());
      assert.deepEqual(results['acme.example'], acme());
      assert.deepEqual(results['HTTPS://ACME.EXAMPLE/'], acme());
      assert.deepEqual(results['globexsport.de'], globexSport());
      assert.deepEqual(results['globex.example'], globex());
      assert.equal(results['unknown.example'], null);
    });

    it('answers the same records as single resolution', async () => {
      const domains = ['acme.example', 'globex.co.uk', 'sport.globex.example', 'bücher.example'];
      const { results } = await json(await bulk({ domains }));
      for (const domain of domains) assert.deepEqual(results[domain], await json(await resolve(domain)), domain);
    });

    it('takes 100 domains and refuses 101 with 400, before resolving anything', async () => {
      const hundred = Array.from({ length: 100 }, (_, i) => `bulk${i}.example`);
      const ok = await bulk({ domains: hundred });
      assert.equal(ok.status, 200);
      const { results } = await json(ok);
      assert.equal(Object.keys(results).length, 100);
      assert.ok(Object.values(results).every((r) => r === null));

      const res = await bulk({ domains: [...hundred, 'acme.example'] });
      assert.equal(res.status, 400);
      const body = await json(res);
      assert.equal(body.error, 'validation_failed');
      assert.equal(body.details[0].field, 'domains');
    });

    it('refuses an empty list, a missing list, a bare string instead of a list and unknown fields with 400 validation_failed', async () => {
      for (const body of [
        { domains: [] },
        {},
        { domains: ['acme.example'], extra: true },
        { domains: [''] },
        { domains: [{ domain: 'acme.example' }] },
        { domains: 'acme.example' },
        { domains: [42] },
      ]) {
        const res = await bulk(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal((await json(res)).error, 'validation_failed', JSON.stringify(body));
      }
    });

    it('answers 400 invalid_domain naming the index of every invalid domain', async () => {
      const res = await bulk({ domains: ['acme.example', 'acme.example:8080', 'globex.example', '10.0.0.1'] });
      assert.equal(res.status, 400);
      const body: Json = await json(res);
      assert.equal(body.error, 'invalid_domain');
      assert.deepEqual(
        body.details.map((d: Json) => `${d.in} ${d.field}`),
        ['body domains.1', 'body domains.3'],
      );
      assert.match(body.details[0].message, /acme\.example:8080/);
      assert.match(body.message, /^2 of the domains are not valid/);
    });

    it('keeps the specific code when every bad domain fails for the same reason', async () => {
      const res = await bulk({ domains: ['acme.example', 'pаypal.com', 'gοogle.com'] });
      assert.equal(res.status, 400);
      const body: Json = await json(res);
      assert.equal(body.error, 'domain_mixed_script');
      assert.deepEqual(
        body.details.map((d: Json) => d.field),
        ['domains.1', 'domains.2'],
      );
      const mixed = await bulk({ domains: ['pаypal.com', 'acme.example:80'] });
      assert.equal((await json(mixed)).error, 'invalid_domain');
    });

    it('answers 415 when the body is not sent as JSON', async () => {
      const body = JSON.stringify({ domains: ['acme.example'] });
      for (const headers of [
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        {},
      ] as Record<string, string>[]) {
        const res = await fetch(`${server.url}/api/brands/resolve/bulk`, { method: 'POST', headers, body });
        assert.equal(res.status, 415, JSON.stringify(headers));
        assert.equal((await json(res)).error, 'unsupported_media_type');
      }
    });

    it('answers 400 invalid_json for a malformed body', async () => {
      const res = await fetch(`${server.url}/api/brands/resolve/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"domains": [',
      });
      assert.equal(res.status, 400);
      assert.equal((await json(res)).error, 'invalid_json');
    });
  });
});

eachEngine('brand bulk resolution limit', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  it('answers the 21st request in a minute from one IP with 429, retry_after and Retry-After', async () => {
    const bulk = () => postJson(`${server.url}/api/brands/resolve/bulk`, { domains: ['acme.example'] }, {});
    for (let i = 1; i <= 20; i++) {
      const res = await bulk();
      assert.equal(res.status, 200, `request ${i}`);
      await res.arrayBuffer();
    }
    const res = await bulk();
    assert.equal(res.status, 429);
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const body = await json(res);
    assert.equal(body.error, 'rate_limited');
    assert.equal(body.retry_after, retryAfter);
    assert.match(body.message, /20 requests per minute/);

    // Single resolution has no limit, and property bulk resolution has its own budget.
    assert.equal((await fetch(`${server.url}/api/brands/resolve?domain=acme.example`)).status, 404);
    assert.equal(
      (await postJson(`${server.url}/api/properties/resolve/bulk`, { domains: ['acme.example'] }, {})).status,
      200,
    );
  });
});
