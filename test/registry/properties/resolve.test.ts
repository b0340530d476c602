import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { saveAuthoritative } from '../../../src/registry/properties/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const planetAgents = [{ url: 'https://sales.planet.example/ap', authorized_for: 'All inventory' }];

eachEngine('property resolution', (engine) => {
  let server: TestServer;
  let communityId: string;
  const resolve = (query: string) => fetch(`${server.url}/api/properties/resolve?${query}`);
  const bulk = (body: unknown, headers: Record<string, string> = {}) =>
    postJson(`${server.url}/api/properties/resolve/bulk`, body, headers);

  before(async () => {
    server = await startTestServer(engine, { env: { RATE_LIMIT_BULK_RESOLVE_PER_MINUTE: '1000' } });
    await server.db.transaction((tx) =>
      saveAuthoritative(tx, 'planet.example', {
        authorized_agents: planetAgents,
        inventory: [{ type: 'website', name: 'Daily Planet' }],
        contact: { name: 'Ad Ops' },
      }),
    );
    // A crawled contact as adagents.json allows it (and the crawler passes it): more fields than the entry's `name` and `email`.
    const crawledContact: Record<string, unknown> = {
      name: 'Harbor Ad Ops',
      email: 'adops@harbor.example',
      domain: 'harbor.example',
      seller_id: 'hmg-0042',
      privacy_policy_url: 'https://harbor.example/privacy',
    };
    await server.db.transaction((tx) =>
      saveAuthoritative(tx, 'harbor.example', {
        authorized_agents: planetAgents,
        inventory: [{ type: 'website', name: 'The Harbor' }],
        contact: crawledContact,
      }),
    );
    const res = await postJson(`${server.url}/api/properties/save`, {
      publisher_domain: 'community.example',
      authorized_agents: [{ url: 'https://agent.community.example/ap' }],
    });
    communityId = (await json(res)).id;
  });
  after(() => server.close());

  describe('GET /api/properties/resolve', () => {
    it('returns the entry of a publisher domain: agents, inventory, source and revision', async () => {
      const res = await resolve('domain=planet.example');
      assert.equal(res.status, 200);
      const entry = await json(res);
      assert.deepEqual(Object.keys(entry).sort(), [
        'authorized_agents',
        'contact',
        'id',
        'properties',
        'publisher_domain',
        'revision_number',
        'source',
        'status',
        'updated_at',
        'verified',
      ]);
      assert.equal(entry.publisher_domain, 'planet.example');
      assert.equal(entry.verified, true, 'from the publisher’s own adagents.json');
      assert.equal(entry.source, 'adagents_json');
      assert.equal(entry.status, 'active');
      assert.deepEqual(entry.authorized_agents, planetAgents);
      assert.deepEqual(entry.properties, [{ type: 'website', name: 'Daily Planet' }]);
      assert.deepEqual(entry.contact, { name: 'Ad Ops' });
      assert.equal(entry.revision_number, 1);
      assert.match(entry.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('returns a community entry without a contact it does not have', async () => {
      const entry = await json(await resolve('domain=community.example'));
      assert.equal(entry.id, communityId);
      assert.equal(entry.source, 'community');
      assert.equal('contact' in entry, false);
      assert.deepEqual(entry.properties, []);
    });

    it('normalizes the domain as saves do', async () => {
      for (const domain of ['PLANET.EXAMPLE', 'https://planet.example/', 'http://Planet.Example.']) {
        const res = await resolve(`domain=${encodeURIComponent(domain)}`);
        assert.equal(res.status, 200, domain);
        assert.equal((await json(res)).publisher_domain, 'planet.example');
      }
    });

    it('answers 404 for an unknown domain, 400 without one or for one that is not a host name', async () => {
      const missing = await resolve('domain=unknown.example');
      assert.equal(missing.status, 404);
      assert.equal((await json(missing)).error, 'not_found');
      const none = await resolve('');
      assert.equal(none.status, 400);
      assert.equal((await json(none)).error, 'validation_failed');
      for (const domain of ['planet.example:443', 'planet.example/ads', '10.0.0.1', 'localhost']) {
        const res = await resolve(`domain=${encodeURIComponent(domain)}`);
        assert.equal(res.status, 400, domain);
        assert.equal((await json(res)).error, 'invalid_domain', domain);
      }
    });

    it('is public and answers any origin', async () => {
      const res = await fetch(`${server.url}/api/properties/resolve?domain=planet.example`, {
        headers: { origin: 'https://buyer.example' },
      });
      assert.equal(res.status, 200);
      assert.ok(['*', 'https://buyer.example'].includes(res.headers.get('access-control-allow-origin') ?? ''));
    });
  });

  describe('POST /api/properties/resolve/bulk', () => {
    it('resolves each domain as sent, null when unknown, without a credential', async () => {
      const res = await bulk({ domains: ['planet.example', 'HTTPS://Community.Example/', 'unknown.example'] });
      assert.equal(res.status, 200);
      const { results } = await json(res);
      assert.deepEqual(Object.keys(results).sort(), [
        'HTTPS://Community.Example/',
        'planet.example',
        'unknown.example',
      ]);
      assert.equal(results['planet.example'].source, 'adagents_json');
      assert.deepEqual(results['planet.example'].authorized_agents, planetAgents);
      assert.equal(results['HTTPS://Community.Example/'].id, communityId);
      assert.equal(results['HTTPS://Community.Example/'].publisher_domain, 'community.example');
      assert.equal(results['unknown.example'], null);
      assert.deepEqual(results['planet.example'], await json(await resolve('domain=planet.example')));
    });

    it('resolves a crawled entry whose contact has fields the entry does not list, as the single resolve does', async () => {
      const res = await bulk({ domains: ['harbor.example', 'planet.example'] });
      assert.equal(res.status, 200);
      const { results } = await json(res);
      assert.deepEqual(results['harbor.example'].contact, { name: 'Harbor Ad Ops', email: 'adops@harbor.example' });
      assert.deepEqual(results['harbor.example'], await json(await resolve('domain=harbor.example')));
      assert.equal(results['planet.example'].source, 'adagents_json');
    });

    it('resolves two spellings of one domain to the same entry', async () => {
      const { results } = await json(await bulk({ domains: ['planet.example', 'Planet.Example'] }));
      assert.equal(results['planet.example'].id, results['Planet.Example'].id);
    });

    it('takes up to 100 domains and answers 400 beyond', async () => {
      const hundred = Array.from({ length: 100 }, (_, i) => `site${i}.example`);
      const ok = await bulk({ domains: hundred });
      assert.equal(ok.status, 200);
      assert.equal(Object.keys((await json(ok)).results).length, 100);
      const tooMany = await bulk({ domains: [...hundred, 'site100.example'] });
      assert.equal(tooMany.status, 400);
      const error = await json(tooMany);
      assert.equal(error.error, 'validation_failed');
      assert.equal(error.details[0].field, 'domains');
    });

    it('answers 400 for no domains, a missing list or an unknown field', async () => {
      for (const body of [{ domains: [] }, {}, { domains: ['planet.example'], extra: true }, { domains: [''] }]) {
        const res = await bulk(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal((await json(res)).error, 'validation_failed', JSON.stringify(body));
      }
    });

    it('answers 400 invalid_domain naming every bad domain', async () => {
      const res = await bulk({ domains: ['planet.example', 'bad.example:80', '192.168.0.1'] });
      assert.equal(res.status, 400);
      const error = await json(res);
      assert.equal(error.error, 'invalid_domain');
      assert.deepEqual(
        error.details.map((d: { field: string }) => d.field),
        ['domains.1', 'domains.2'],
      );
    });

    it('answers 415 for a body not sent as JSON', async () => {
      const res = await fetch(`${server.url}/api/properties/resolve/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"domains":["planet.example"]}',
      });
      assert.equal(res.status, 415);
      assert.equal((await json(res)).error, 'unsupported_media_type');
    });
  });
});

eachEngine('property bulk resolve limit', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  it('allows 20 requests a minute per IP, then 429 with retry_after and Retry-After', async () => {
    const send = () => postJson(`${server.url}/api/properties/resolve/bulk`, { domains: ['planet.example'] }, {});
    for (let i = 0; i < 20; i++) assert.equal((await send()).status, 200, `request ${i + 1}`);
    const res = await send();
    assert.equal(res.status, 429);
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const body = await json(res);
    assert.equal(body.error, 'rate_limited');
    assert.equal(body.retry_after, retryAfter);
    // The single-domain lookup has no limit, and brand bulk resolution keeps its own budget.
    assert.equal((await fetch(`${server.url}/api/properties/resolve?domain=planet.example`)).status, 404);
    assert.equal(
      (await postJson(`${server.url}/api/brands/resolve/bulk`, { domains: ['acme.example'] }, {})).status,
      200,
    );
  });
});
