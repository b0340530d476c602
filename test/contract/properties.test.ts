import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { worldDir } from '../../src/registry/demo/world.ts';
import { ManualClock } from '../support/clock.ts';
import { startContractRegistry, type ContractRegistry } from '../support/contract.ts';
import { eachEngine } from '../support/engines.ts';
import type { Json } from '../support/http.ts';
import { proveOwnership } from '../support/identity.ts';
import { startPublishers, type Publishers } from '../support/publishers.ts';

/**
 * Property resolution as the protocol's registry client calls it, against the demo world: each
 * test names the client method, sends what it sends and asserts the fields it reads.
 */
eachEngine('contract: property resolution', (engine) => {
  let registry: ContractRegistry;
  let publishers: Publishers;
  const clock = new ManualClock();
  const day = 24 * 60 * 60 * 1000;

  before(async () => {
    publishers = await startPublishers();
    // The demo's own Daily Harbor file, as a publisher the test serves on loopback would publish it.
    const harbor = JSON.parse(readFileSync(join(worldDir, 'adagents', 'dailyharbor.example.json'), 'utf8')) as Json;
    publishers.serve('harbor.ap.test', '/.well-known/adagents.json', { body: harbor });
    const [first, ...others] = harbor['authorized_agents'] as Json[];
    publishers.serve('broken.ap.test', '/.well-known/adagents.json', {
      body: { ...harbor, authorized_agents: [{ ...first, authorized_for: 7 }, ...others] },
    });
    registry = await startContractRegistry(engine, { deps: { fetcher: publishers.fetcher, clock } });
  });
  after(async () => {
    await registry.close();
    await publishers.fetcher.close();
    await publishers.close();
  });

  describe('lookupProperty: GET /api/properties/resolve?domain=', () => {
    it('answers ResolvedProperty: publisher_domain, source, authorized_agents, properties, contact and verified', async () => {
      const { status, body } = await registry.get('/api/properties/resolve?domain=dailyharbor.example');
      assert.equal(status, 200);
      assert.equal(body.publisher_domain, 'dailyharbor.example');
      assert.equal(body.source, 'adagents_json');
      assert.equal(body.verified, true);
      assert.deepEqual(
        body.authorized_agents.map((a: Json) => a.url),
        [
          'https://sales.meridian-sales.example/mcp',
          'https://sales.streamline-ctv.example/mcp',
          'https://sales.bluefin-network.example/mcp',
        ],
      );
      assert.deepEqual(
        body.properties.map((p: Json) => p.name),
        ['The Daily Harbor', 'The Daily Harbor app', 'Harbor TV'],
      );
      assert.deepEqual(body.contact, { name: 'Harbor Media Group Ad Operations', email: 'adops@dailyharbor.example' });
    });

    it('answers 404 for a domain without an entry (the client returns null)', async () => {
      const { status, body } = await registry.get('/api/properties/resolve?domain=unknown-pub.example');
      assert.equal(status, 404);
      assert.equal(body.error, 'not_found');
    });
  });

  describe('lookupProperties / domainsExist: POST /api/properties/resolve/bulk {domains}', () => {
    it('answers {results} keyed by each domain as sent, ResolvedProperty or null (a known domain was a 500)', async () => {
      const { status, body } = await registry.post('/api/properties/resolve/bulk', {
        domains: ['dailyharbor.example', 'pixelplay.example', 'unknown-pub.example'],
      });
      assert.equal(status, 200);
      assert.deepEqual(Object.keys(body.results), ['dailyharbor.example', 'pixelplay.example', 'unknown-pub.example']);
      assert.equal(body.results['dailyharbor.example'].publisher_domain, 'dailyharbor.example');
      assert.equal(body.results['dailyharbor.example'].verified, true);
      assert.equal(body.results['pixelplay.example'].source, 'adagents_json');
      assert.equal(body.results['unknown-pub.example'], null);
    });
  });

  describe('listProperties: GET /api/properties/registry?search=&limit=&offset=', () => {
    it('searches by search and pages by offset, answering PropertyRegistryItem and stats', async () => {
      const all = await registry.get('/api/properties/registry');
      assert.equal(all.status, 200);
      assert.deepEqual(
        all.body.properties.map((p: Json) => p.domain),
        [
          'cityrecipes.example',
          'dailyharbor.example',
          'metroweekly.example',
          'pixelplay.example',
          'trailmag.example',
          'velvetstream.example',
        ],
      );
      assert.deepEqual(all.body.stats, { total: 6, adagents_json: 6, community: 0, stale: 0 });

      const harbor = await registry.get('/api/properties/registry?search=harbor&limit=5');
      const item: Json = harbor.body.properties[0];
      assert.deepEqual(harbor.body.properties, [
        {
          ...(await registry.get('/api/properties/resolve?domain=dailyharbor.example')).body,
          domain: 'dailyharbor.example',
          property_count: 3,
          agent_count: 3,
        },
      ]);
      assert.deepEqual(
        [item.domain, item.source, item.property_count, item.agent_count, item.verified],
        ['dailyharbor.example', 'adagents_json', 3, 3, true],
      );
      assert.equal(harbor.body.stats.total, 1);

      const second = await registry.get('/api/properties/registry?limit=2&offset=2');
      assert.deepEqual(
        second.body.properties.map((p: Json) => p.domain),
        ['metroweekly.example', 'pixelplay.example'],
      );
      const beyond = await registry.get('/api/properties/registry?search=harbor&limit=5&offset=5');
      assert.deepEqual(
        [beyond.body.properties, beyond.body.stats.total],
        [[], 1],
        'the issue’s example: the search and the offset both count',
      );
    });
  });

  describe('saveProperty: POST /api/properties/save', () => {
    it('takes the client’s body (authorized_agents: [], properties named by property_type, with identifiers and tags) and resolves it back', async () => {
      const body = {
        publisher_domain: 'community-radio.example',
        authorized_agents: [],
        properties: [
          {
            property_type: 'website',
            name: 'Community Radio',
            identifiers: [{ type: 'domain', value: 'community-radio.example' }],
            tags: ['local', 'news'],
          },
          { type: 'podcast', name: 'Morning Show' },
        ],
      };
      // Saving needs the domain's ownership proved first (spec section 5), which the client does elsewhere.
      await proveOwnership(registry.server.db, registry.organization, 'community-radio.example', clock.now());
      const saved = await registry.post('/api/properties/save', body);
      assert.equal(saved.status, 201, JSON.stringify(saved.body));
      assert.equal(saved.body['success'], true);
      const { status, body: resolved } = await registry.get('/api/properties/resolve?domain=community-radio.example');
      assert.equal(status, 200);
      assert.deepEqual(resolved['properties'], [
        {
          type: 'website',
          name: 'Community Radio',
          identifiers: [{ type: 'domain', value: 'community-radio.example' }],
          tags: ['local', 'news'],
        },
        { type: 'podcast', name: 'Morning Show' },
      ]);
      // A property with no type under either name is refused, naming the field.
      const untyped = await registry.post('/api/properties/save', { ...body, properties: [{ name: 'Nameless type' }] });
      assert.equal(untyped.status, 400);
      assert.equal(untyped.body['error'], 'validation_failed');
    });
  });

  describe('validateProperty: GET /api/properties/validate?domain=', () => {
    it('answers ValidationResult: valid, domain, url, and errors and warnings as strings', async () => {
      const good = await registry.get('/api/properties/validate?domain=harbor.ap.test');
      assert.equal(good.status, 200);
      assert.equal(good.body.valid, true);
      assert.equal(good.body.domain, 'harbor.ap.test');
      assert.equal(good.body.url, 'https://harbor.ap.test/.well-known/adagents.json');
      assert.equal(good.body.status_code, 200);
      assert.deepEqual(good.body.errors, []);
      for (const warning of good.body.warnings) assert.equal(typeof warning, 'string');

      const broken = await registry.get('/api/properties/validate?domain=broken.ap.test');
      assert.equal(broken.body.valid, false);
      assert.deepEqual(broken.body.errors, ['$.authorized_agents[0].authorized_for: must be string']);

      const missing = await registry.get('/api/properties/validate?domain=missing.ap.test');
      assert.equal(missing.body.valid, false);
      assert.equal(missing.body.status_code, 404);
      assert.match(missing.body.errors[0], /^\$: .*HTTP 404/);
    });
  });

  describe('getPropertyHistory: GET /api/properties/history?domain=&limit=&offset=', () => {
    it('answers PropertyActivity: domain, total and revisions newest first', async () => {
      const { status, body } = await registry.get(
        '/api/properties/history?domain=metroweekly.example&limit=10&offset=0',
      );
      assert.equal(status, 200);
      assert.equal(body.domain, 'metroweekly.example');
      assert.equal(body.total, 2, 'the earlier file, then the current one');
      assert.deepEqual(
        body.revisions.map((r: Json) => r.revision_number),
        [2, 1],
      );
      for (const revision of body.revisions) {
        assert.deepEqual(
          [revision.editor_name, revision.source, revision.is_rollback],
          ['system', 'adagents_json', false],
        );
        assert.equal(typeof revision.edit_summary, 'string');
        assert.match(revision.created_at, /^\d{4}-\d\d-\d\dT/);
      }
      assert.equal(
        (await registry.get('/api/properties/history?domain=unknown-pub.example')).status,
        404,
        'the client returns null',
      );
    });
  });

  describe('checkPropertyList: POST /api/properties/check {domains}; getPropertyCheckReport: GET /api/properties/check/{reportId}', () => {
    const sent = [
      'www.dailyharbor.example',
      'dailyharbor.example',
      'googlesyndication.com',
      'securepubads.g.doubleclick.net',
      'pixelplay.example',
      'HTTPS://M.TrailMag.example/',
      'unknown-pub.example',
    ];

    it('sorts the list into remove, modify, assess and ok, with a summary and a report_id', async () => {
      const { status, body } = await registry.post('/api/properties/check', { domains: sent });
      assert.equal(status, 200);
      assert.deepEqual(body.summary, { total: 7, remove: 3, modify: 2, assess: 1, ok: 1 });
      assert.deepEqual(body.remove, [
        { input: 'dailyharbor.example', canonical: 'dailyharbor.example', reason: 'duplicate' },
        {
          input: 'googlesyndication.com',
          canonical: 'googlesyndication.com',
          reason: 'blocked',
          domain_type: 'ad_server',
          blocked_reason: 'ad serving and ad-tag delivery, not a publisher',
        },
        {
          input: 'securepubads.g.doubleclick.net',
          canonical: 'securepubads.g.doubleclick.net',
          reason: 'blocked',
          domain_type: 'ad_server',
          blocked_reason: 'ad serving and ad-tag delivery, not a publisher',
        },
      ]);
      assert.deepEqual(
        body.modify.map((m: Json) => [m.input, m.canonical, m.known, m.agent_count]),
        [
          ['www.dailyharbor.example', 'dailyharbor.example', true, 3],
          ['HTTPS://M.TrailMag.example/', 'trailmag.example', true, 2],
        ],
      );
      assert.equal(body.modify[0].reason, 'removed the www. prefix');
      assert.match(body.modify[1].reason, /removed the m\. prefix/);
      assert.deepEqual(body.assess, [{ domain: 'unknown-pub.example' }]);
      assert.deepEqual(body.ok, [
        { domain: 'pixelplay.example', source: 'adagents_json', status: 'active', agent_count: 1, verified: true },
      ]);
      assert.match(body.report_id, /^[0-9a-f]{8}-[0-9a-f]{4}-/);

      const report = await registry.get(`/api/properties/check/${body.report_id}`);
      assert.equal(report.status, 200);
      assert.deepEqual(report.body.summary, body.summary);
      assert.equal(report.body.report_id, body.report_id);
    });

    it('keeps a report 7 days, then answers 404 not_found', async () => {
      const { body } = await registry.post('/api/properties/check', { domains: ['pixelplay.example'] });
      clock.advance(7 * day - 60_000);
      assert.equal((await registry.get(`/api/properties/check/${body.report_id}`)).status, 200);
      clock.advance(60_000);
      const gone = await registry.get(`/api/properties/check/${body.report_id}`);
      assert.deepEqual([gone.status, gone.body.error], [404, 'not_found']);
      // A later check drops what expired.
      await registry.post('/api/properties/check', { domains: ['pixelplay.example'] });
      const left = await registry.server.db.query<{ n: number }>(
        'select count(*)::int as n from property_check_reports where id = $1',
        [body.report_id],
      );
      assert.equal(left[0]?.n, 0);
    });

    it('needs no credential', async () => {
      const { status, body } = await registry.post(
        '/api/properties/check',
        { domains: ['dailyharbor.example'] },
        { anonymous: true },
      );
      assert.equal(status, 200);
      assert.deepEqual(
        body.ok.map((o: Json) => o.domain),
        ['dailyharbor.example'],
      );
      assert.equal((await registry.get(`/api/properties/check/${body.report_id}`, { anonymous: true })).status, 200);
    });

    it('takes 10,000 domains, and refuses 10,001 or a list with a non-domain, storing nothing', async () => {
      const many = Array.from({ length: 10_000 }, (_, i) => `site${i}.example`);
      const { status, body } = await registry.post('/api/properties/check', { domains: many });
      assert.equal(status, 200);
      assert.deepEqual(body.summary, { total: 10_000, remove: 0, modify: 0, assess: 10_000, ok: 0 });

      const count = async () =>
        (await registry.server.db.query<{ n: number }>('select count(*)::int as n from property_check_reports'))[0]!.n;
      const before = await count();
      const tooMany = await registry.post('/api/properties/check', { domains: [...many, 'one-more.example'] });
      assert.deepEqual([tooMany.status, tooMany.body.error], [400, 'validation_failed']);
      const bad = await registry.post('/api/properties/check', {
        domains: ['pixelplay.example', '10.0.0.1', 'a.example/path'],
      });
      assert.deepEqual([bad.status, bad.body.error], [400, 'invalid_domain']);
      assert.deepEqual(
        bad.body.details.map((d: Json) => d.field),
        ['domains.1', 'domains.2'],
      );
      assert.equal((await registry.post('/api/properties/check', { domains: [] })).status, 400);
      assert.equal((await registry.get('/api/properties/check/not-a-report')).status, 400);
      assert.equal(await count(), before);
    });
  });
});
