import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startContractRegistry, type ContractRegistry } from '../support/contract.ts';
import { eachEngine } from '../support/engines.ts';
import type { Json } from '../support/http.ts';

/**
 * Publishers and operators as the protocol's registry client looks them up (its listPublishers,
 * lookupPublisher, lookupOperator and getRegistryStats methods), against the demo registry: each
 * request as the client sends it, and the fields it reads.
 */
const meridian = 'https://sales.meridian-sales.example/mcp';

eachEngine('the registry client’s publisher and operator lookups', (engine) => {
  let registry: ContractRegistry;
  before(async () => {
    registry = await startContractRegistry(engine);
  });
  after(() => registry.close());

  describe('listPublishers', () => {
    it('(): every demo publisher, discovered, with a valid adagents.json and its agent count, and the sources counted', async () => {
      const { status, body } = await registry.get('/api/registry/publishers');
      assert.equal(status, 200);
      const publishers = body['publishers'] as Json[];
      assert.deepEqual(
        publishers.map((p) => p['domain']),
        [
          'cityrecipes.example',
          'dailyharbor.example',
          'metroweekly.example',
          'pixelplay.example',
          'trailmag.example',
          'velvetstream.example',
        ],
      );
      assert.equal(body['count'], 6);
      assert.deepEqual(body['sources'], { registered: 0, discovered: 6 });
      for (const publisher of publishers) {
        assert.equal(publisher['source'], 'discovered');
        assert.equal(publisher['has_valid_adagents'], true);
        assert.match(publisher['discovered_at'], /^\d{4}-\d\d-\d\dT/);
      }
      assert.equal(publishers.find((p) => p['domain'] === 'dailyharbor.example')!['agent_count'], 3);
    });
  });

  describe('lookupPublisher', () => {
    it('(dailyharbor.example): adagents_valid, hosting, member, and its authorized agents by url with their source', async () => {
      const { status, body } = await registry.get('/api/registry/publisher?domain=dailyharbor.example');
      assert.equal(status, 200);
      assert.equal(body['domain'], 'dailyharbor.example');
      assert.equal(body['member'], null);
      assert.equal(body['adagents_valid'], true);
      assert.equal(body['manager_domain'], null);
      assert.deepEqual(body['hosting'], {
        mode: 'self',
        expected_url: 'https://dailyharbor.example/.well-known/adagents.json',
        resolved_url: body['adagents']['document_url'],
      });
      assert.deepEqual(
        (body['properties'] as Json[]).map((p) => [p['id'], p['type'], p['name'], p['source']]),
        [
          ['harbor_app', 'mobile_app', 'The Daily Harbor app', 'adagents_json'],
          ['harbor_tv', 'ctv_app', 'Harbor TV', 'adagents_json'],
          ['harbor_web', 'website', 'The Daily Harbor', 'adagents_json'],
        ],
      );
      const agents = body['authorized_agents'] as Json[];
      assert.deepEqual(
        agents.map((a) => a['url']),
        ['https://sales.bluefin-network.example/mcp', meridian, 'https://sales.streamline-ctv.example/mcp'],
      );
      const sales = agents.find((a) => a['url'] === meridian)!;
      assert.equal(sales['source'], 'adagents_json');
      assert.equal(sales['authorized_for'], 'Display and video on The Daily Harbor website and apps');
      assert.deepEqual([sales['properties_authorized'], sales['properties_total']], [2, 3]);
    });

    it('(an unknown domain): 404 not_found, which the client reads as null', async () => {
      const { status, body } = await registry.get('/api/registry/publisher?domain=nowhere.example');
      assert.equal(status, 404);
      assert.equal(body['error'], 'not_found');
    });
  });

  describe('lookupOperator', () => {
    it('(meridian-sales.example): the agent its brand.json lists, by url and type, with the publishers authorizing it', async () => {
      const { status, body } = await registry.get('/api/registry/operator?domain=meridian-sales.example');
      assert.equal(status, 200);
      assert.equal(body['domain'], 'meridian-sales.example');
      assert.equal(body['member'], undefined, 'no member enrolled an agent on it');
      const [agent] = body['agents'] as Json[];
      assert.deepEqual([agent!['url'], agent!['type']], [meridian, 'sales']);
      assert.deepEqual(agent!['authorized_by'], [
        {
          publisher_domain: 'cityrecipes.example',
          authorized_for: 'Premium display on cityrecipes.example',
          source: 'adagents_json',
        },
        {
          publisher_domain: 'dailyharbor.example',
          authorized_for: 'Display and video on The Daily Harbor website and apps',
          source: 'adagents_json',
        },
        {
          publisher_domain: 'metroweekly.example',
          authorized_for: 'Display on metroweekly.example',
          source: 'adagents_json',
        },
        {
          publisher_domain: 'trailmag.example',
          authorized_for: 'Premium display on trailmag.example',
          source: 'adagents_json',
        },
      ]);
    });

    it('(…, { scope }): narrows what the caller sees; a brand.json’s listing is public', async () => {
      for (const scope of ['public', 'member']) {
        const { status, body } = await registry.get(
          `/api/registry/operator?domain=meridian-sales.example&scope=${scope}`,
        );
        assert.equal(status, 200, scope);
        assert.deepEqual(
          (body['agents'] as Json[]).map((a) => a['url']),
          [meridian],
          scope,
        );
      }
      const { status, body } = await registry.get('/api/registry/operator?domain=meridian-sales.example&scope=private');
      assert.equal(status, 200);
      assert.deepEqual(body['agents'], []);
      assert.equal(
        (await registry.get('/api/registry/operator?domain=meridian-sales.example&scope=everyone')).status,
        400,
      );
    });

    it('(an unknown domain): 404 not_found, which the client reads as null', async () => {
      const { status, body } = await registry.get('/api/registry/operator?domain=nowhere.example');
      assert.equal(status, 404);
      assert.equal(body['error'], 'not_found');
    });
  });

  describe('getRegistryStats', () => {
    it('(): an object of counts (the client reads it as a record)', async () => {
      const { status, body } = await registry.get('/api/registry/stats');
      assert.equal(status, 200);
      assert.deepEqual(body['publishers'], { total: 6, active: 6, stale: 0 });
      assert.equal(typeof body['as_of'], 'string');
    });
  });
});
