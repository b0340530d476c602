import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadWorld } from '../../src/registry/demo/index.ts';
import { ADAGENTS_SCHEMA_ID, validateSchema } from '../../src/protocol/schemas.ts';
import { startContractRegistry, type ContractRegistry } from '../support/contract.ts';
import { startDemoWeb, type DemoWeb } from '../support/demo-web.ts';
import { eachEngine } from '../support/engines.ts';
import type { Json } from '../support/http.ts';

/**
 * The validation tools and the probes as the protocol's registry client calls them (its
 * createAdagents, validateAdagents, lookupManifestRef, discoverAgent, getAgentFormats,
 * getAgentProducts, validatePublisher): each request exactly as that method sends it, and the
 * fields it reads, against the demo world. The demo publishers serve their adagents.json on
 * loopback and the test deployment's agents answer discovery as their operator publishes them
 * (test/support/demo-web.ts); the client sends no agent credential.
 */
const world = loadWorld();
const harbor = world.publishers.find((p) => p.domain === 'dailyharbor.example')!.document as Json;
const enc = encodeURIComponent;

eachEngine('the registry client’s validation tools and probes', (engine) => {
  let registry: ContractRegistry;
  let web: DemoWeb;
  before(async () => {
    web = await startDemoWeb();
    registry = await startContractRegistry(engine, {
      env: { AGENTS: 'true', PUBLIC_URL: web.agentsOrigin },
      deps: { fetcher: web.fetcher },
    });
    web.pointAt(registry.server.url);
  });
  after(async () => {
    await registry.close();
    await web.close();
  });

  describe('adagents tooling', () => {
    it('createAdagents: POST /api/adagents/create with agents (authorized_for optional), properties and the two switches, no publisher_domain', async () => {
      const [meridian, streamline] = (harbor.authorized_agents as Json[]).map((a) => a.url as string);
      const body = {
        authorized_agents: [{ url: meridian }, { url: streamline, authorized_for: 'Connected TV on Harbor TV' }],
        include_schema: true,
        include_timestamp: true,
        properties: harbor.properties,
      };
      const { status, body: answer } = await registry.post('/api/adagents/create', body);
      assert.equal(status, 200, JSON.stringify(answer));
      assert.equal(answer.success, true);
      assert.ok(Date.parse(answer.timestamp) > 0);
      assert.equal(answer.data.success, true);
      const file = answer.data.adagents_json as Json;
      assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, file).errors, [], 'valid against the published schema');
      assert.equal(file.$schema, '/schemas/3.0.6/adagents.json');
      assert.equal(file.last_updated, answer.timestamp);
      assert.deepEqual(file.properties, harbor.properties);
      assert.deepEqual(
        (file.authorized_agents as Json[]).map((a) => [a.url, a.authorized_for, a.authorization_type, a.property_ids]),
        [
          [meridian, 'Every property in this file', 'property_ids', ['harbor_web', 'harbor_app', 'harbor_tv']],
          [streamline, 'Connected TV on Harbor TV', 'property_ids', ['harbor_web', 'harbor_app', 'harbor_tv']],
        ],
      );
      assert.deepEqual([answer.data.validation.valid, answer.data.validation.errors], [true, []]);
    });

    it('createAdagents without the switches: no $schema, no last_updated', async () => {
      const { status, body } = await registry.post('/api/adagents/create', {
        authorized_agents: [{ url: 'https://sales.meridian-sales.example/mcp' }],
        include_schema: false,
        include_timestamp: false,
        properties: harbor.properties,
      });
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual([body.data.adagents_json.$schema, body.data.adagents_json.last_updated], [undefined, undefined]);
      assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, body.data.adagents_json).errors, []);
    });

    it('validateAdagents: POST /api/adagents/validate {domain} reads {success, data: {domain, found, validation}, timestamp}', async () => {
      const { status, body } = await registry.post('/api/adagents/validate', { domain: 'dailyharbor.example' });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.success, true);
      assert.ok(Date.parse(body.timestamp) > 0);
      assert.equal(body.data.domain, 'dailyharbor.example');
      assert.equal(body.data.found, true);
      assert.equal(body.data.validation.valid, true, JSON.stringify(body.data.validation.errors));
      assert.equal(body.data.validation.url, 'https://dailyharbor.example/.well-known/adagents.json');
    });

    it('lookupManifestRef: GET /api/manifest-refs/lookup?domain=&type= reads {success, found, reference}', async () => {
      for (const path of [
        '/api/manifest-refs/lookup?domain=dailyharbor.example&type=adagents.json',
        '/api/manifest-refs/lookup?domain=dailyharbor.example',
      ]) {
        const { status, body } = await registry.get(path);
        assert.equal(status, 200, JSON.stringify(body));
        assert.deepEqual([body.success, body.found], [true, true], path);
        const { reference } = body;
        assert.equal(reference.reference_type, 'url');
        assert.equal(reference.manifest_url, 'https://dailyharbor.example/.well-known/adagents.json');
        assert.deepEqual([reference.agent_url, reference.agent_id], [null, null]);
        assert.equal(
          reference.verification_status,
          'pending',
          'the demo is seeded as crawled, and no crawl has fetched it since',
        );
      }
    });

    it('validatePublisher: GET /api/public/validate-publisher?domain= reads valid and the live file’s counts at the top', async () => {
      const { status, body } = await registry.get(
        `/api/public/validate-publisher?domain=${enc('dailyharbor.example')}`,
      );
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.valid, true, JSON.stringify(body.errors));
      assert.equal(body.domain, 'dailyharbor.example');
      assert.equal(body.url, 'https://dailyharbor.example/.well-known/adagents.json');
      assert.equal(body.discovery_method, 'direct');
      assert.equal(body.agent_count, 3);
      assert.equal(body.property_count, 3);
      assert.deepEqual(body.property_type_counts, { website: 1, mobile_app: 1, ctv_app: 1 });
      assert.equal(body.tag_count, 4, 'news, premium, apps, ctv');
      assert.deepEqual(body.errors, []);
      assert.ok((body.warnings as unknown[]).every((w) => typeof w === 'string'));
    });
  });

  describe('probing, without an agent credential', () => {
    it('discoverAgent: GET /api/public/discover-agent?url= reads {name, description, protocols, type, stats}', async () => {
      const { status, body } = await registry.get(`/api/public/discover-agent?url=${enc(web.agents.sales)}`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(typeof body.name, 'string');
      assert.ok(body.name.length > 0);
      assert.equal(typeof body.description, 'string');
      assert.deepEqual(body.protocols, ['mcp', 'a2a']);
      assert.equal(body.type, 'sales');
      assert.equal(typeof body.stats, 'object');
      assert.ok((body.tools as Json[]).some((t) => t.name === 'get_products'));
      assert.equal(body.tools_count, (body.tools as Json[]).length);
    });

    it('getAgentFormats: GET /api/public/agent-formats?url= reads {success, formats}', async () => {
      const { status, body } = await registry.get(`/api/public/agent-formats?url=${enc(web.agents.creative)}`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.success, true);
      assert.ok((body.formats as Json[]).length > 0);
      assert.ok((body.formats as Json[]).every((f) => typeof f.format_id.id === 'string'));
    });

    it('getAgentProducts: GET /api/public/agent-products?url= (no brief) reads {success, products}: the catalog, wholesale', async () => {
      const { status, body } = await registry.get(`/api/public/agent-products?url=${enc(web.agents.sales)}`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.success, true);
      assert.ok((body.products as Json[]).length > 0);
      assert.ok((body.products as Json[]).every((p) => typeof p.product_id === 'string'));
      assert.deepEqual(body.schema_issues, []);
    });
  });
});
