import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { entryOf, publishRegistryPolicy } from '../../../src/registry/policies/index.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

/** A policy-entry with the registry's required metadata, and `overrides`. */
function entry(policy_id: string, overrides: Record<string, unknown> = {}) {
  return {
    policy_id,
    version: '1.0.0',
    name: `Policy ${policy_id}`,
    category: 'regulation',
    enforcement: 'must',
    policy: `The text of ${policy_id}.`,
    ...overrides,
  };
}

eachEngine('reading the policy registry', (engine) => {
  let server: TestServer;
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`);
    return { status: res.status, body: await json(res) };
  };
  const ids = (body: Json) => (body.policies as Json[]).map((p) => p.policy_id);

  before(async () => {
    server = await startTestServer(engine);
    const publish = (fields: Record<string, unknown>) =>
      server.db.transaction((tx) => publishRegistryPolicy(tx, entryOf(fields), 'test:publisher'));
    await publish(
      entry('uk_hfss', {
        jurisdictions: ['GB'],
        policy_categories: ['health_wellness'],
        governance_domains: ['campaign', 'creative'],
        description: 'Less healthy food ads.',
      }),
    );
    await publish(
      entry('us_coppa', {
        version: '1.0.0',
        jurisdictions: ['US'],
        policy_categories: ['children_directed'],
        governance_domains: ['campaign', 'property'],
      }),
    );
    await publish(
      entry('us_coppa', {
        version: '1.1.0',
        jurisdictions: ['US'],
        policy_categories: ['children_directed'],
        governance_domains: ['campaign', 'property'],
        policy: 'The amended text.',
        effective_date: '2025-06-23',
      }),
    );
    await publish(
      entry('eu_gdpr_advertising', {
        jurisdictions: ['EU'],
        region_aliases: { EU: ['DE', 'FR', 'IT'] },
        policy_categories: ['privacy_data_protection'],
        governance_domains: ['campaign'],
      }),
    );
    await publish(
      entry('alcohol_advertising', {
        category: 'standard',
        enforcement: 'should',
        jurisdictions: [],
        policy_categories: ['age_restricted'],
        governance_domains: ['creative'],
        name: 'Responsible Alcohol Advertising',
      }),
    );
    await publish(
      entry('garm:brand_safety:violence', {
        category: 'standard',
        enforcement: 'should',
        jurisdictions: ['US', 'GB'],
        name: 'Violence 100% of the time_',
      }),
    );
  });
  after(() => server.close());

  describe('GET /api/policies/registry', () => {
    it('lists every policy in policy_id order with counts by category', async () => {
      const { status, body } = await get('/api/policies/registry');
      assert.equal(status, 200);
      assert.deepEqual(ids(body), [
        'alcohol_advertising',
        'eu_gdpr_advertising',
        'garm:brand_safety:violence',
        'uk_hfss',
        'us_coppa',
      ]);
      assert.deepEqual(body.stats, { total: 5, regulation: 3, standard: 2 });
      assert.equal(body.has_more, false);
      const coppa = (body.policies as Json[]).find((p) => p.policy_id === 'us_coppa')!;
      assert.equal(coppa.version, '1.1.0');
      assert.equal(coppa.revision_number, 2);
      assert.equal(coppa.policy, undefined, 'the listing leaves the policy text out');
      assert.equal(coppa.exemplars, undefined);
      assert.equal(coppa.channels, null);
      assert.equal(coppa.description, null);
    });

    it('filters by category, enforcement, policy_category and governance domain, counting what matches', async () => {
      const standards = (await get('/api/policies/registry?category=standard')).body;
      assert.deepEqual(ids(standards), ['alcohol_advertising', 'garm:brand_safety:violence']);
      assert.deepEqual(standards.stats, { total: 2, regulation: 0, standard: 2 });
      assert.deepEqual(ids((await get('/api/policies/registry?enforcement=must')).body), [
        'eu_gdpr_advertising',
        'uk_hfss',
        'us_coppa',
      ]);
      assert.deepEqual(ids((await get('/api/policies/registry?policy_category=children_directed')).body), ['us_coppa']);
      assert.deepEqual(ids((await get('/api/policies/registry?domain=creative')).body), [
        'alcohol_advertising',
        'uk_hfss',
      ]);
      assert.deepEqual(ids((await get('/api/policies/registry?domain=property&category=regulation')).body), [
        'us_coppa',
      ]);
    });

    it('finds the policies that apply in a jurisdiction: named, through a region alias (key or member), or global; case-insensitively', async () => {
      assert.deepEqual(ids((await get('/api/policies/registry?jurisdiction=GB')).body), [
        'alcohol_advertising',
        'garm:brand_safety:violence',
        'uk_hfss',
      ]);
      assert.deepEqual(ids((await get('/api/policies/registry?jurisdiction=de')).body), [
        'alcohol_advertising',
        'eu_gdpr_advertising',
      ]);
      assert.deepEqual(ids((await get('/api/policies/registry?jurisdiction=EU')).body), [
        'alcohol_advertising',
        'eu_gdpr_advertising',
      ]);
      assert.deepEqual(ids((await get('/api/policies/registry?jurisdiction=JP')).body), ['alcohol_advertising']);
    });

    it('searches the id, name and description with search or q, taking % and _ literally', async () => {
      assert.deepEqual(ids((await get('/api/policies/registry?search=healthy')).body), ['uk_hfss']);
      assert.deepEqual(ids((await get('/api/policies/registry?q=ALCOHOL')).body), ['alcohol_advertising']);
      assert.deepEqual(ids((await get('/api/policies/registry?search=coppa&q=alcohol')).body), ['us_coppa']);
      assert.deepEqual(ids((await get('/api/policies/registry?search=100%25')).body), ['garm:brand_safety:violence']);
      assert.deepEqual(ids((await get('/api/policies/registry?search=time_')).body), ['garm:brand_safety:violence']);
      assert.deepEqual(ids((await get('/api/policies/registry?search=nothing-like-this')).body), []);
    });

    it('pages with limit and offset, saying when more follow', async () => {
      const first = (await get('/api/policies/registry?limit=2')).body;
      assert.deepEqual(ids(first), ['alcohol_advertising', 'eu_gdpr_advertising']);
      assert.equal(first.has_more, true);
      assert.equal(first.stats.total, 5);
      const last = (await get('/api/policies/registry?limit=2&offset=4')).body;
      assert.deepEqual(ids(last), ['us_coppa']);
      assert.equal(last.has_more, false);
      assert.deepEqual(ids((await get('/api/policies/registry?offset=99')).body), []);
    });

    it('400 validation_failed for out-of-bound or unknown values; unknown parameters are ignored', async () => {
      for (const query of [
        'limit=0',
        'limit=1001',
        'offset=-1',
        'offset=100001',
        'category=law',
        'enforcement=never',
        'domain=billing',
        'jurisdiction=G',
        `jurisdiction=${'A'.repeat(33)}`,
        'jurisdiction=G%20B',
        'policy_category=Age',
        `search=${'x'.repeat(201)}`,
        'limit=1e999',
      ]) {
        const { status, body } = await get(`/api/policies/registry?${query}`);
        assert.equal(status, 400, query);
        assert.equal(body.error, 'validation_failed', query);
      }
      assert.equal((await get('/api/policies/registry?sort=name')).status, 200);
    });
  });

  describe('GET /api/policies/resolve', () => {
    it('answers the current policy with every field the client reads', async () => {
      const { status, body } = await get('/api/policies/resolve?policy_id=us_coppa');
      assert.equal(status, 200);
      assert.deepEqual(Object.keys(body).sort(), [
        'category',
        'channels',
        'created_at',
        'description',
        'effective_date',
        'enforcement',
        'exemplars',
        'ext',
        'governance_domains',
        'guidance',
        'jurisdictions',
        'name',
        'policy',
        'policy_categories',
        'policy_id',
        'region_aliases',
        'requires_human_review',
        'review_status',
        'revision_number',
        'source_name',
        'source_type',
        'source_url',
        'sunset_date',
        'updated_at',
        'version',
      ]);
      assert.equal(body.version, '1.1.0');
      assert.equal(body.policy, 'The amended text.');
      assert.equal(body.effective_date, '2025-06-23');
      assert.equal(body.source_type, 'registry');
      assert.equal(body.review_status, 'approved');
      assert.equal(body.requires_human_review, false);
    });

    it('pins a version: the newest revision that carried it', async () => {
      const { status, body } = await get('/api/policies/resolve?policy_id=us_coppa&version=1.0.0');
      assert.equal(status, 200);
      assert.equal(body.version, '1.0.0');
      assert.equal(body.revision_number, 1);
      assert.equal(body.policy, 'The text of us_coppa.');
      assert.equal(body.effective_date, null);
      assert.equal((await get('/api/policies/resolve?policy_id=us_coppa&version=1.1.0')).body.revision_number, 2);
    });

    it('resolves a registry id with colons', async () => {
      assert.equal(
        (await get('/api/policies/resolve?policy_id=garm:brand_safety:violence')).body.name,
        'Violence 100% of the time_',
      );
    });

    it('404 not_found for an unknown policy or a version it never had; 400 for a malformed id or version', async () => {
      for (const query of ['policy_id=nope', 'policy_id=us_coppa&version=9.9.9']) {
        const { status, body } = await get(`/api/policies/resolve?${query}`);
        assert.equal(status, 404, query);
        assert.equal(body.error, 'not_found', query);
      }
      for (const query of [
        '',
        'policy_id=',
        'policy_id=US_COPPA',
        `policy_id=${'a'.repeat(129)}`,
        'policy_id=a/b',
        'policy_id=us_coppa&version=latest',
      ]) {
        const { status, body } = await get(`/api/policies/resolve?${query}`);
        assert.equal(status, 400, query);
        assert.equal(body.error, 'validation_failed', query);
      }
    });
  });

  describe('POST /api/policies/resolve/bulk', () => {
    const bulk = async (body: unknown) => {
      const res = await postJson(`${server.url}/api/policies/resolve/bulk`, body, {});
      return { status: res.status, body: await json(res) };
    };

    it('answers each policy keyed as sent, null for an unknown one', async () => {
      const { status, body } = await bulk({ policy_ids: ['uk_hfss', 'nope', 'us_coppa', 'uk_hfss'] });
      assert.equal(status, 200);
      assert.deepEqual(Object.keys(body.results).sort(), ['nope', 'uk_hfss', 'us_coppa']);
      assert.equal(body.results.nope, null);
      assert.equal(body.results.us_coppa.version, '1.1.0');
      assert.deepEqual(body.results.uk_hfss, (await get('/api/policies/resolve?policy_id=uk_hfss')).body);
    });

    it('400 for no ids, over 100, a malformed one or another member', async () => {
      for (const body of [
        {},
        { policy_ids: [] },
        { policy_ids: Array.from({ length: 101 }, (_, i) => `p${i}`) },
        { policy_ids: ['Bad Id'] },
        { policy_ids: 'uk_hfss' },
        { policy_ids: ['uk_hfss'], version: '1.0.0' },
      ]) {
        const res = await bulk(body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
        assert.equal(res.body.error, 'validation_failed');
      }
    });
  });

  describe('GET /api/policies/history', () => {
    it('answers the revisions newest first, paged', async () => {
      const { status, body } = await get('/api/policies/history?policy_id=us_coppa');
      assert.equal(status, 200);
      assert.equal(body.policy_id, 'us_coppa');
      assert.equal(body.total, 2);
      assert.deepEqual(
        body.revisions.map((r: Json) => [
          r.revision_number,
          r.version,
          r.editor_name,
          r.edit_summary,
          r.source_type,
          r.is_rollback,
        ]),
        [
          [2, '1.1.0', 'system', 'Published version 1.1.0', 'registry', false],
          [1, '1.0.0', 'system', 'Published', 'registry', false],
        ],
      );
      assert.match(body.revisions[0].created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const page = (await get('/api/policies/history?policy_id=us_coppa&limit=1&offset=1')).body;
      assert.deepEqual(
        page.revisions.map((r: Json) => r.revision_number),
        [1],
      );
      assert.equal(page.total, 2);
    });

    it('404 for an unknown policy, 400 for a missing id or a limit over 100', async () => {
      assert.equal((await get('/api/policies/history?policy_id=nope')).body.error, 'not_found');
      assert.equal((await get('/api/policies/history')).status, 400);
      assert.equal((await get('/api/policies/history?policy_id=us_coppa&limit=101')).status, 400);
    });
  });

  describe('the snapshot', () => {
    it('holds every policy as resolve answers it, keyed by policy_id, after the other sections', async () => {
      const items: Json[] = [];
      let token: string | undefined;
      do {
        const res = await fetch(`${server.url}/api/registry/snapshot?limit=2${token ? `&page_token=${token}` : ''}`, {
          headers: asAdmin,
        });
        const page = await json(res);
        assert.equal(res.status, 200);
        items.push(...page.items);
        token = page.next_page_token ?? undefined;
      } while (token);
      const policies = items.filter((i) => i.entity_type === 'policy');
      assert.deepEqual(
        policies.map((p) => p.entity_id),
        ['alcohol_advertising', 'eu_gdpr_advertising', 'garm:brand_safety:violence', 'uk_hfss', 'us_coppa'],
      );
      assert.deepEqual(
        policies.find((p) => p.entity_id === 'us_coppa')!.data,
        (await get('/api/policies/resolve?policy_id=us_coppa')).body,
      );
    });
  });
});
