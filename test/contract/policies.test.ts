import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startContractRegistry, type ContractRegistry } from '../support/contract.ts';
import { eachEngine } from '../support/engines.ts';
import type { Json } from '../support/http.ts';

/**
 * The registry client's policy methods against the demo registry: each test sends what the method
 * sends (its path, parameter names in its order, its body) and reads the fields the method's types
 * name (PolicySummary, Policy, PolicyHistory, ListPoliciesResponse, ResolvePoliciesBulkResponse,
 * SavePolicyResponse). The demo publishes uk_hfss, us_coppa (1.0.0, then 1.1.0), eu_gdpr_advertising
 * and alcohol_advertising as the registry's own.
 */
const summaryFields = [
  'policy_id',
  'version',
  'name',
  'description',
  'category',
  'enforcement',
  'jurisdictions',
  'region_aliases',
  'policy_categories',
  'channels',
  'governance_domains',
  'effective_date',
  'sunset_date',
  'source_url',
  'source_name',
  'source_type',
  'review_status',
  'created_at',
  'updated_at',
];
const policyFields = [...summaryFields, 'policy', 'guidance', 'exemplars', 'ext'];
const isoTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function assertSummary(item: Json): void {
  for (const field of summaryFields) assert.ok(field in item, `${item['policy_id']} lacks ${field}`);
  assert.ok(['regulation', 'standard'].includes(item['category']));
  assert.ok(['must', 'should', 'may'].includes(item['enforcement']));
  assert.ok(
    Array.isArray(item['jurisdictions']) &&
      Array.isArray(item['policy_categories']) &&
      Array.isArray(item['governance_domains']),
  );
  assert.equal(typeof item['region_aliases'], 'object');
  assert.ok(['registry', 'community'].includes(item['source_type']));
  assert.ok(['pending', 'approved'].includes(item['review_status']));
  assert.match(item['created_at'], isoTime);
  assert.match(item['updated_at'], isoTime);
}

function assertPolicy(item: Json): void {
  assertSummary(item);
  for (const field of policyFields) assert.ok(field in item, `${item['policy_id']} lacks ${field}`);
  assert.equal(typeof item['policy'], 'string');
}

eachEngine('the registry client’s policy methods', (engine) => {
  let registry: ContractRegistry;
  before(async () => {
    registry = await startContractRegistry(engine);
  });
  after(() => registry.close());

  describe('listPolicies', () => {
    it('listPolicies() lists the demo’s policies with stats', async () => {
      const { status, body } = await registry.get('/api/policies/registry');
      assert.equal(status, 200);
      assert.deepEqual(
        body['policies'].map((p: Json) => p['policy_id']),
        ['alcohol_advertising', 'eu_gdpr_advertising', 'uk_hfss', 'us_coppa'],
      );
      for (const item of body['policies']) assertSummary(item);
      assert.deepEqual(body['stats'], { total: 4, regulation: 3, standard: 1 });
    });

    it('listPolicies({ category: "regulation" }) answers the regulations', async () => {
      const { body } = await registry.get('/api/policies/registry?category=regulation');
      assert.deepEqual(
        body['policies'].map((p: Json) => p['policy_id']),
        ['eu_gdpr_advertising', 'uk_hfss', 'us_coppa'],
      );
      assert.deepEqual(body['stats'], { total: 3, regulation: 3, standard: 0 });
    });

    it('listPolicies({ jurisdiction: "EU" }) matches region aliases, and DE through the EU alias’s members', async () => {
      const eu = (await registry.get('/api/policies/registry?jurisdiction=EU')).body;
      assert.deepEqual(
        eu['policies'].map((p: Json) => p['policy_id']),
        ['alcohol_advertising', 'eu_gdpr_advertising'],
      );
      const gdpr = eu['policies'].find((p: Json) => p['policy_id'] === 'eu_gdpr_advertising');
      assert.ok(gdpr['region_aliases']['EU'].includes('DE'));
      const de = (await registry.get('/api/policies/registry?jurisdiction=DE')).body;
      assert.deepEqual(
        de['policies'].map((p: Json) => p['policy_id']),
        ['alcohol_advertising', 'eu_gdpr_advertising'],
      );
    });

    it('listPolicies({ search, enforcement, policy_category, domain, limit, offset }) sends them in its order', async () => {
      const { status, body } = await registry.get(
        '/api/policies/registry?search=coppa&enforcement=must&policy_category=children_directed&domain=property&limit=5&offset=0',
      );
      assert.equal(status, 200);
      assert.deepEqual(
        body['policies'].map((p: Json) => [p['policy_id'], p['version'], p['jurisdictions']]),
        [['us_coppa', '1.1.0', ['US']]],
      );
      const paged = (await registry.get('/api/policies/registry?limit=2&offset=2')).body;
      assert.deepEqual(
        paged['policies'].map((p: Json) => p['policy_id']),
        ['uk_hfss', 'us_coppa'],
      );
    });
  });

  describe('resolvePolicy', () => {
    it('resolvePolicy({ policy_id: "uk_hfss" }) answers the policy text and exemplars', async () => {
      const { status, body } = await registry.get('/api/policies/resolve?policy_id=uk_hfss');
      assert.equal(status, 200);
      assertPolicy(body);
      assert.equal(body['name'], 'UK HFSS Advertising Restrictions');
      assert.equal(body['category'], 'regulation');
      assert.equal(body['enforcement'], 'must');
      assert.deepEqual(body['jurisdictions'], ['GB']);
      assert.equal(body['effective_date'], '2026-01-05');
      assert.equal(body['source_type'], 'registry');
      assert.equal(body['review_status'], 'approved');
      assert.ok(body['exemplars']['pass'].length > 0 && body['exemplars']['fail'].length > 0);
      assert.equal(body['ext'], null);
    });

    it('resolvePolicy({ policy_id: "us_coppa", version: "1.0.0" }) pins the earlier version', async () => {
      const current = (await registry.get('/api/policies/resolve?policy_id=us_coppa')).body;
      const pinned = (await registry.get('/api/policies/resolve?policy_id=us_coppa&version=1.0.0')).body;
      assert.equal(current['version'], '1.1.0');
      assert.equal(pinned['version'], '1.0.0');
      assertPolicy(pinned);
      assert.notEqual(pinned['policy'], current['policy']);
      assert.equal(pinned['effective_date'], null);
    });

    it('resolvePolicy({ policy_id: "no_such_policy" }) is a 404 the client maps to null, naming an entity not found', async () => {
      for (const path of [
        '/api/policies/resolve?policy_id=no_such_policy',
        '/api/policies/resolve?policy_id=us_coppa&version=9.0.0',
      ]) {
        const { status, body } = await registry.get(path);
        assert.equal(status, 404, path);
        assert.equal(body['error'], 'not_found', path);
      }
      // A path we do not serve is a 404 too, but says so: the client's null is for an unknown policy only.
      const { status, body } = await registry.get('/api/policies/resolved?policy_id=us_coppa');
      assert.deepEqual([status, body['error']], [404, 'route_not_found']);
    });
  });

  describe('resolvePoliciesBulk', () => {
    it('resolvePoliciesBulk({ policy_ids }) answers a map of policy_id to Policy or null', async () => {
      const { status, body } = await registry.post('/api/policies/resolve/bulk', {
        policy_ids: ['us_coppa', 'eu_gdpr_advertising', 'uk_hfss', 'no_such_policy'],
      });
      assert.equal(status, 200);
      assert.equal(body['results']['no_such_policy'], null);
      for (const id of ['us_coppa', 'eu_gdpr_advertising', 'uk_hfss']) {
        assertPolicy(body['results'][id]);
        assert.equal(body['results'][id]['policy_id'], id);
      }
    });
  });

  describe('getPolicyHistory', () => {
    it('getPolicyHistory({ policy_id: "us_coppa", limit: 10 }) answers its revisions newest first', async () => {
      const { status, body } = await registry.get('/api/policies/history?policy_id=us_coppa&limit=10');
      assert.equal(status, 200);
      assert.equal(body['policy_id'], 'us_coppa');
      assert.equal(body['total'], 2);
      assert.deepEqual(
        body['revisions'].map((r: Json) => [r['revision_number'], r['editor_name'], r['is_rollback']]),
        [
          [2, 'system', false],
          [1, 'system', false],
        ],
      );
      for (const r of body['revisions']) {
        assert.equal(typeof r['edit_summary'], 'string');
        assert.match(r['created_at'], isoTime);
        assert.equal('rolled_back_to' in r, false);
      }
    });

    it('getPolicyHistory({ policy_id: "no_such_policy" }) is a 404 the client maps to null', async () => {
      const { status, body } = await registry.get('/api/policies/history?policy_id=no_such_policy&limit=5&offset=0');
      assert.equal(status, 404);
      assert.equal(body['error'], 'not_found');
    });
  });

  describe('savePolicy', () => {
    const body = {
      policy_id: 'contract_brand_safety',
      version: '1.0.0',
      name: 'Contract Brand Safety',
      category: 'standard',
      enforcement: 'should',
      policy: 'Ads should not appear next to content depicting graphic violence.',
      description: 'Adjacency to violent content.',
      jurisdictions: ['US'],
      channels: ['display', 'olv'],
      governance_domains: ['content_standards'],
      exemplars: {
        fail: [{ scenario: 'A pre-roll before a video of a shooting.', explanation: 'Adjacent to graphic violence.' }],
      },
    };

    it('savePolicy(body) with an API key creates a community policy, then resolvePolicy finds it', async () => {
      const saved = await registry.post('/api/policies/save', body);
      assert.equal(saved.status, 201);
      assert.deepEqual(saved.body, {
        success: true,
        message: 'Policy contract_brand_safety created at version 1.0.0.',
        policy_id: 'contract_brand_safety',
        version: '1.0.0',
        revision_number: 1,
      });
      const resolved = (await registry.get('/api/policies/resolve?policy_id=contract_brand_safety')).body;
      assertPolicy(resolved);
      assert.equal(resolved['source_type'], 'community');
      assert.equal(resolved['review_status'], 'pending');
      assert.deepEqual(resolved['channels'], ['display', 'olv']);
      const updated = await registry.post('/api/policies/save', {
        ...body,
        version: '1.1.0',
        description: 'Adjacency to violent or gory content.',
      });
      assert.equal(updated.status, 200);
      assert.equal(updated.body['revision_number'], 2);
    });

    it('savePolicy on a registry policy is refused with 409, which the client raises', async () => {
      const { status, body: error } = await registry.post('/api/policies/save', {
        ...body,
        policy_id: 'uk_hfss',
        version: '2.0.0',
      });
      assert.equal(status, 409);
      assert.equal(error['error'], 'authoritative_entry');
    });

    it('savePolicy without a credential is a 401', async () => {
      const { status, body: error } = await registry.post(
        '/api/policies/save',
        { ...body, policy_id: 'contract_anonymous' },
        { anonymous: true },
      );
      assert.equal(status, 401);
      assert.equal(error['error'], 'unauthorized');
    });
  });
});
