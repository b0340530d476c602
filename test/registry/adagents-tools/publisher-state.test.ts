import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { startFleet, type Fleet } from '../../support/publisher-fleet.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';
import { adagents, agent } from '../crawler/documents.ts';

const REFS = '/api/manifest-refs/lookup';
const REPORT = '/api/public/validate-publisher';
const TOOLS_LIMIT = 4;
const REPORT_LIMIT = 3;
const wellKnown = (domain: string, file = 'adagents') => `https://${domain}/.well-known/${file}.json`;

/** An operator's brand.json declaring the publisher's site as delegated to its sales agent. */
function operatorBrand(operator: string, publisher: string) {
  return {
    $schema: '/schemas/3.0.6/brand.json',
    house: {
      domain: operator,
      name: 'Operator House',
      architecture: 'branded_house',
      agents: [{ type: 'sales', id: 'op_sales', url: 'https://agent.ap.test/mcp' }],
    },
    brands: [
      {
        id: 'op',
        names: [{ en: 'Operator' }],
        keller_type: 'master',
        url: `https://${operator}`,
        properties: [{ type: 'website', identifier: publisher, relationship: 'delegated' }],
      },
    ],
  };
}

eachEngine('GET /api/manifest-refs/lookup and /api/public/validate-publisher', (engine) => {
  let fleet: Fleet;
  let server: TestServer;
  const clock = new ManualClock();
  const get = (path: string, domain: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}?domain=${encodeURIComponent(domain)}`, { headers });

  before(async () => {
    fleet = await startFleet(['pub', 'op', 'net', 'flaky', 'live', 'agent']);
    fleet.serve('pub.ap.test', '/.well-known/adagents.json', {
      body: { authoritative_location: 'https://net.ap.test/pub.json' },
    });
    fleet.serve('net.ap.test', '/pub.json', {
      body: adagents('pub.ap.test', { agents: [agent('https://agent.ap.test/mcp', ['main'])] }),
    });
    // The publisher's brand.json points at its house, the operator, whose file declares the publisher's site.
    fleet.serve('pub.ap.test', '/.well-known/brand.json', {
      body: { $schema: '/schemas/3.0.6/brand.json', house: 'op.ap.test' },
    });
    fleet.serve('op.ap.test', '/.well-known/brand.json', { body: operatorBrand('op.ap.test', 'pub.ap.test') });
    fleet.serve('flaky.ap.test', '/.well-known/adagents.json', { status: 503, body: 'try later' });
    fleet.serve('live.ap.test', '/.well-known/adagents.json', { body: adagents('live.ap.test') });
    server = await startTestServer(engine, {
      env: {
        RATE_LIMIT_ADAGENTS_TOOLS_PER_MINUTE: String(TOOLS_LIMIT),
        RATE_LIMIT_VALIDATE_PUBLISHER_PER_MINUTE: String(REPORT_LIMIT),
        CRAWL_HOST_DELAY_MS: '0',
      },
      deps: {
        clock,
        fetcher: fleet.fetcher({
          names: { 'intranet.example': ['10.1.2.3'], 'metadata.example': ['169.254.169.254'] },
        }),
      },
    });
    await server.app.crawler.crawl('pub.ap.test');
    await server.app.crawler.crawl('flaky.ap.test');
    // The operator side reaches the index through the feed.
    await server.app.authorizationIndex.until(
      (f) => f.index.propertiesOfPublisher('pub.ap.test')[0]?.declarations.length === 1,
    );
  });
  after(async () => {
    await server.close();
    await fleet.close();
  });
  beforeEach(() => clock.advance(61_000));

  it('manifest refs: each document’s fetch, the pointers followed, and the crawl schedule', async () => {
    const res = await get(REFS, 'PUB.ap.test');
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.equal(body.domain, 'pub.ap.test');
    const { adagents_json: adagentsRef, brand_json: brandRef } = body;
    assert.deepEqual(
      { ...adagentsRef, fetched_at: undefined, stored_at: undefined },
      {
        well_known_url: wellKnown('pub.ap.test'),
        status: 'found',
        reason: null,
        url: 'https://net.ap.test/pub.json',
        hops: ['https://net.ap.test/pub.json'],
        fetched_at: undefined,
        stored_at: undefined,
      },
    );
    assert.ok(Date.parse(adagentsRef.fetched_at) > 0 && Date.parse(adagentsRef.stored_at) > 0);
    assert.equal(brandRef.status, 'found');
    assert.equal(brandRef.well_known_url, wellKnown('pub.ap.test', 'brand'));
    assert.deepEqual(brandRef.hops, [wellKnown('op.ap.test', 'brand')]);
    assert.equal(brandRef.url, wellKnown('op.ap.test', 'brand'));
    assert.deepEqual(body.publisher, { status: 'active', stale_reason: null, manager_domain: 'net.ap.test' });
    assert.ok(Date.parse(body.next_crawl_at) > Date.parse(body.last_crawled_at));
    // The one manifest the protocol's registry client asks for: the first found, or the type named.
    assert.deepEqual([body.success, body.found], [true, true]);
    assert.deepEqual(body.reference, {
      manifest_type: 'adagents_json',
      reference_type: 'url',
      manifest_url: 'https://net.ap.test/pub.json',
      agent_url: null,
      agent_id: null,
      verification_status: 'valid',
    });
    const brand = await json(await fetch(`${server.url}${REFS}?domain=pub.ap.test&type=brand.json`));
    assert.deepEqual(
      [brand.found, brand.reference.manifest_type, brand.reference.manifest_url],
      [true, 'brand_json', wellKnown('op.ap.test', 'brand')],
    );
  });

  it('manifest refs: transient and absent fetches as the crawler recorded them; a document held without a crawl is not_fetched', async () => {
    const flaky = await json(await get(REFS, 'flaky.ap.test'));
    assert.equal(flaky.adagents_json.status, 'transient');
    assert.match(flaky.adagents_json.reason, /503/);
    assert.deepEqual(flaky.adagents_json.hops, []);
    assert.equal(flaky.brand_json.status, 'absent');
    assert.equal(flaky.publisher, null);
    assert.deepEqual(
      [flaky.success, flaky.found, flaky.reference],
      [false, false, undefined],
      'neither manifest found',
    );
    await server.db.query(
      `insert into fetched_documents (domain, kind, url, document) values ('held.example', 'brand_json', 'https://held.example/.well-known/brand.json', '{}')`,
    );
    const held = await json(await get(REFS, 'held.example'));
    assert.deepEqual(
      [held.brand_json.status, held.brand_json.url, held.adagents_json.status, held.adagents_json.url],
      ['not_fetched', 'https://held.example/.well-known/brand.json', 'not_fetched', null],
    );
    assert.equal(held.last_crawled_at, null);
    assert.deepEqual(held.reference, {
      manifest_type: 'brand_json',
      reference_type: 'url',
      manifest_url: 'https://held.example/.well-known/brand.json',
      agent_url: null,
      agent_id: null,
      verification_status: 'pending',
    });
    const adagentsOnly = await json(await fetch(`${server.url}${REFS}?domain=held.example&type=adagents`));
    assert.deepEqual([adagentsOnly.success, adagentsOnly.found, adagentsOnly.reference], [false, false, undefined]);
    const badType = await fetch(`${server.url}${REFS}?domain=held.example&type=ads.txt`);
    assert.equal(badType.status, 400);
    assert.equal((await json(badType)).error, 'validation_failed');
  });

  it('manifest refs: nothing found, never fetched, for a domain the registry knows nothing of (the client reads that, not a 404); 400 for one that is not a domain', async () => {
    const unknown = await get(REFS, 'never-seen.example');
    assert.equal(unknown.status, 200);
    const body = await json(unknown);
    assert.deepEqual(
      [body.success, body.found, body.reference, body.adagents_json.status, body.brand_json.status, body.publisher],
      [false, false, undefined, 'not_fetched', 'not_fetched', null],
    );
    for (const domain of ['not a domain', 'http://pub.ap.test/path', '']) {
      const res = await get(REFS, domain);
      assert.equal(res.status, 400, domain);
      const body = await json(res);
      assert.ok(['invalid_domain', 'validation_failed'].includes(body.error), JSON.stringify(body));
      assert.equal(body.details?.[0]?.field, 'domain');
    }
  });

  it(`manifest refs: 429 with retry_after after ${TOOLS_LIMIT} a minute from one IP`, async () => {
    for (let i = 0; i < TOOLS_LIMIT; i++) assert.equal((await get(REFS, 'pub.ap.test')).status, 200);
    const refused = await get(REFS, 'pub.ap.test');
    assert.equal(refused.status, 429);
    const body = await json(refused);
    assert.equal(body.error, 'rate_limited');
    assert.ok(Number.isInteger(body.retry_after) && body.retry_after > 0);
  });

  it('publisher report: the live file judged, the operators declaring its properties, the registry’s state', async () => {
    const res = await get(REPORT, 'pub.ap.test');
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.equal(body.checked_at, clock.now().toISOString());
    assert.deepEqual(body.adagents, {
      valid: true,
      errors: [],
      warnings: [],
      url: 'https://net.ap.test/pub.json',
      chain: [wellKnown('pub.ap.test'), 'https://net.ap.test/pub.json'],
    });
    assert.deepEqual(body.brand_relationships, [
      {
        operator_domain: 'op.ap.test',
        brand_id: 'op',
        relationship: 'delegated',
        agents: ['https://agent.ap.test/mcp'],
        property_ids: ['main'],
      },
    ]);
    const { last_crawled_at: crawledAt, ...registry } = body.registry as Json;
    assert.deepEqual(registry, {
      known: true,
      status: 'active',
      stale_reason: null,
      document_url: 'https://net.ap.test/pub.json',
      property_count: 1,
      stale_property_count: 0,
      agent_count: 1,
      authorization_count: 1,
      last_outcome: 'found',
    });
    assert.ok(Date.parse(crawledAt) > 0);
    // The live file at the top, as the protocol's registry client reads it.
    assert.deepEqual(
      {
        valid: body.valid,
        url: body.url,
        discovery_method: body.discovery_method,
        errors: body.errors,
        warnings: body.warnings,
      },
      {
        valid: true,
        url: 'https://net.ap.test/pub.json',
        discovery_method: 'authoritative_location',
        errors: [],
        warnings: [],
      },
    );
    assert.deepEqual(
      [body.agent_count, body.property_count, body.property_type_counts, body.tag_count],
      [1, 1, { website: 1 }, 1],
    );
  });

  it('publisher report: kept a minute per domain, then fetched again; a domain the registry does not know is reported too', async () => {
    const first = await json(await get(REPORT, 'live.ap.test'));
    assert.equal(first.adagents.valid, true);
    assert.equal(first.registry.known, false);
    assert.equal(first.registry.property_count, 0);
    fleet.serve('live.ap.test', '/.well-known/adagents.json', { body: { authorized_agents: 'none' } });
    const seen = fleet.requests('live.ap.test').length;
    clock.advance(30_000);
    assert.deepEqual(
      await json(await get(REPORT, 'Live.AP.test')),
      first,
      'the same report within the minute, whatever the spelling',
    );
    assert.equal(fleet.requests('live.ap.test').length, seen);
    clock.advance(31_000);
    const again = await json(await get(REPORT, 'live.ap.test'));
    assert.equal(again.adagents.valid, false);
    assert.equal(again.adagents.errors[0].code, 'schema_violation');
    assert.equal(again.valid, false);
    assert.equal(again.discovery_method, 'direct');
    assert.equal(
      again.errors[0],
      `${again.adagents.errors[0].path}: ${again.adagents.errors[0].message}`,
      'errors as text at the top',
    );
    assert.deepEqual([again.agent_count, again.property_count, again.property_type_counts], [0, 0, {}]);
  });

  it('publisher report: refuses a domain resolving to a private or reserved address, or to nothing, and bad domains', async () => {
    for (const [domain, code] of [
      ['intranet.example', 'domain_not_public'],
      ['metadata.example', 'domain_not_public'],
      ['nowhere.example', 'domain_unresolvable'],
      ['not a domain', 'invalid_domain'],
    ] as const) {
      const res = await get(REPORT, domain);
      assert.equal(res.status, 400, domain);
      const body = await json(res);
      assert.equal(body.error, code, domain);
      assert.equal(body.details?.[0]?.field, 'domain');
      clock.advance(61_000);
    }
  });

  it(`publisher report: ${REPORT_LIMIT} a minute per IP without a credential, and as many per user with one (429 with retry_after)`, async () => {
    for (let i = 0; i < REPORT_LIMIT; i++) assert.equal((await get(REPORT, 'pub.ap.test')).status, 200);
    const refused = await get(REPORT, 'pub.ap.test');
    assert.equal(refused.status, 429);
    const body = await json(refused);
    assert.equal(body.error, 'rate_limited');
    assert.ok(Number.isInteger(body.retry_after) && body.retry_after > 0);
    for (let i = 0; i < REPORT_LIMIT; i++)
      assert.equal((await get(REPORT, 'pub.ap.test', asAdmin)).status, 200, 'the user’s own budget');
    assert.equal((await get(REPORT, 'pub.ap.test', asAdmin)).status, 429);
  });
});
