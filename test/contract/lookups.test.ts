import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../support/clock.ts';
import { startContractRegistry, type ContractRegistry } from '../support/contract.ts';
import { eachEngine } from '../support/engines.ts';
import type { Json } from '../support/http.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../support/identity.ts';
import { postJson } from '../support/requests.ts';

/**
 * The registry client's authorization lookups against the demo registry: each test sends what the
 * method sends (its path, parameter names, body) and reads the fields its types name
 * (DomainLookupResult; the `{agent_url, domains, count}` of getAgentDomains; the
 * `{agent_url, identifier_type, identifier_value, authorized, checked_at}` of
 * validatePropertyAuthorization; the hosted registry's documented answers of lookupProperty,
 * validateProductAuthorization and expandProductIdentifiers). The demo world: dailyharbor.example
 * authorizes Meridian (harbor_web and harbor_app, delegated), Streamline (its CTV app, delegated)
 * and Bluefin (its news properties, ad_network); Streamline's operator declares the CTV app as
 * direct, so that check is refused. Meridian's sales agent is enrolled publicly here, by a member.
 */
const meridian = 'https://sales.meridian-sales.example/mcp';
const streamline = 'https://sales.streamline-ctv.example/mcp';
const bluefin = 'https://sales.bluefin-network.example/mcp';
const cobalt = 'https://sales.cobalt-direct.example/mcp';
const harbor = 'dailyharbor.example';
const isoTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const member = 'meridian-sales-desk';

eachEngine('the registry client’s authorization lookups', (engine) => {
  let registry: ContractRegistry;
  const clock = new ManualClock();
  clock.set(Date.parse('2026-11-24T09:30:00.000Z'));

  let asMember: Record<string, string>;

  before(async () => {
    registry = await startContractRegistry(engine, { deps: { clock } });
    // A member organization that runs meridian-sales.example enrolls its sales agent in the public catalog.
    await seedOrganization(registry.server.db, { slug: member });
    await proveOwnership(registry.server.db, member, 'meridian-sales.example', clock.now());
    asMember = bearer(await createApiKeyFor(registry.server.db, member));
    const res = await postJson(
      `${registry.server.url}/api/registry/agents`,
      { agent_url: meridian, type: 'sales', name: 'Meridian sales', visibility: 'public' },
      asMember,
    );
    assert.equal(res.status, 201, await res.text());
    await registry.server.app.agentSearch.reload(registry.server.db);
  });
  after(() => registry.close());

  describe('lookupPropertyByIdentifier', () => {
    it('lookupPropertyByIdentifier("domain", "dailyharbor.example") sends type and value and reads type, value, agents and count', async () => {
      const { status, body } = await registry.get(`/api/registry/lookup/property?type=domain&value=${harbor}`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body['type'], 'domain');
      assert.equal(body['value'], harbor);
      // harbor_web is the property named by the domain: Meridian (by id) and Bluefin (by the news tag) may sell it.
      assert.deepEqual(
        body['properties'].map((p: Json) => p['property_id']),
        ['harbor_web'],
      );
      assert.deepEqual(
        body['agents'].map((a: Json) => a['agent_url_canonical']),
        [bluefin, meridian],
      );
      assert.equal(body['count'], 2);
      // Our own names still answer the same.
      const ours = await registry.get(
        `/api/registry/lookup/property?identifier_type=domain&identifier_value=${harbor}`,
      );
      assert.deepEqual(ours.body, body);
    });

    it('refuses two different values for one parameter, and neither name (400 validation_failed)', async () => {
      for (const [query, field] of [
        [`type=domain&identifier_type=ios_bundle&value=${harbor}`, 'type'],
        ['type=domain', 'identifier_value'],
        [`value=${harbor}`, 'identifier_type'],
      ] as const) {
        const { status, body } = await registry.get(`/api/registry/lookup/property?${query}`);
        assert.equal(status, 400, query);
        assert.equal(body['error'], 'validation_failed');
        assert.equal(body['details'][0]['field'], field, query);
      }
    });
  });

  describe('validatePropertyAuthorization', () => {
    const path = (agentUrl: string, type: string, value: string) =>
      `/api/registry/validate/property-authorization?${new URLSearchParams({ agent_url: agentUrl, identifier_type: type, identifier_value: value })}`;

    it('validatePropertyAuthorization(meridian, "domain", "dailyharbor.example") reads authorized: true, the question as asked and checked_at', async () => {
      const { status, body } = await registry.get(path(meridian, 'domain', harbor));
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body['authorized'], true);
      assert.equal(body['agent_url'], meridian);
      assert.equal(body['identifier_type'], 'domain');
      assert.equal(body['identifier_value'], harbor);
      assert.equal(body['checked_at'], '2026-11-24T09:30:00.000Z');
      assert.equal(body['result']['status'], 'authorized', 'result.status stands beside authorized');
    });

    it('a refused check reads authorized: false (Streamline’s operator declares the CTV app direct; the publisher says delegated)', async () => {
      const { body } = await registry.get(path(streamline, 'roku_store_id', '612345'));
      assert.equal(body['authorized'], false);
      assert.equal(body['result']['status'], 'unauthorized');
      assert.equal(body['result']['violation']['code'], 'relationship_mismatch');
      assert.equal(body['identifier_type'], 'roku_store_id');
      assert.equal(body['identifier_value'], '612345');
    });

    it('an answer kept from an earlier ask still says when it is given', async () => {
      const first = await registry.get(path(bluefin, 'domain', harbor));
      clock.advance(1500);
      const second = await registry.get(path(bluefin, 'domain', harbor));
      assert.match(first.body['checked_at'], isoTime);
      assert.equal(Date.parse(second.body['checked_at']) - Date.parse(first.body['checked_at']), 1500);
      assert.deepEqual({ ...second.body, checked_at: undefined }, { ...first.body, checked_at: undefined });
    });
  });

  describe('lookupDomain', () => {
    it('lookupDomain("dailyharbor.example") reads authorized_agents and sales_agents_claiming, with the member that enrolled an agent', async () => {
      const { status, body } = await registry.get(`/api/registry/lookup/domain/${harbor}`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body['domain'], harbor);
      assert.deepEqual(body['authorized_agents'], [
        {
          url: bluefin,
          authorized_for: 'Run-of-network news package across Harbor Media Group titles',
          source: 'discovered',
        },
        {
          url: meridian,
          authorized_for: 'Display and video on The Daily Harbor website and apps',
          source: 'registered',
          member: { slug: member, display_name: member },
        },
        {
          url: streamline,
          authorized_for: 'Harbor TV streaming inventory, including Harbor Tonight',
          source: 'discovered',
        },
      ]);
      // Each of their operators' brand.json declares some of the domain's properties.
      assert.deepEqual(body['sales_agents_claiming'], [
        { url: bluefin, source: 'discovered' },
        { url: meridian, source: 'registered', member: { slug: member, display_name: member } },
        { url: streamline, source: 'discovered' },
      ]);
      assert.deepEqual(
        body['agents'].map((a: Json) => a['agent_url_canonical']),
        [bluefin, meridian, streamline],
        'our per-grant agents stand beside them',
      );
    });

    it('an agent the publisher authorizes whose operator claims nothing is authorized but not claiming (trailmag.example and Cobalt Direct)', async () => {
      const { body } = await registry.get('/api/registry/lookup/domain/trailmag.example');
      assert.deepEqual(
        body['authorized_agents'].map((a: Json) => a['url']),
        [cobalt, meridian],
      );
      assert.deepEqual(
        body['sales_agents_claiming'].map((a: Json) => a['url']),
        [meridian],
      );
    });

    it('an agent no longer listed publicly is discovered at once, though the graph did not change (the kept answer goes)', async () => {
      const sources = async () =>
        (await registry.get('/api/registry/lookup/domain/metroweekly.example')).body['authorized_agents'].map(
          (a: Json) => [a['url'], a['source'], a['member']?.['slug']],
        );
      assert.deepEqual(await sources(), [
        [bluefin, 'discovered', undefined],
        [meridian, 'registered', member],
      ]);
      const visibility = async (to: string) => {
        const res = await fetch(
          `${registry.server.url}/api/registry/agents?agent_url=${encodeURIComponent(meridian)}`,
          {
            method: 'PATCH',
            headers: { ...asMember, 'content-type': 'application/json' },
            body: JSON.stringify({ visibility: to }),
          },
        );
        assert.equal(res.status, 200, await res.text());
        await registry.server.app.agentSearch.reload(registry.server.db);
      };
      await visibility('members_only');
      try {
        assert.deepEqual(await sources(), [
          [bluefin, 'discovered', undefined],
          [meridian, 'discovered', undefined],
        ]);
      } finally {
        await visibility('public');
      }
      assert.deepEqual(await sources(), [
        [bluefin, 'discovered', undefined],
        [meridian, 'registered', member],
      ]);
    });

    it('a domain the registry does not know answers empty lists', async () => {
      const { status, body } = await registry.get('/api/registry/lookup/domain/nowhere.example');
      assert.equal(status, 200);
      assert.deepEqual([body['authorized_agents'], body['sales_agents_claiming']], [[], []]);
    });
  });

  describe('getAgentDomains', () => {
    it('getAgentDomains(meridian) reads agent_url, domains as strings and count', async () => {
      const { status, body } = await registry.get(`/api/registry/lookup/agent/${encodeURIComponent(meridian)}/domains`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body['agent_url'], meridian);
      assert.deepEqual(body['domains'], ['cityrecipes.example', harbor, 'metroweekly.example', 'trailmag.example']);
      assert.equal(body['count'], 4);
      assert.equal(body['total'], 4);
      // Our details, per publisher, under their own name.
      assert.deepEqual(
        body['publishers'].map((p: Json) => [p['domain'], p['property_count']]),
        [
          ['cityrecipes.example', 1],
          [harbor, 2],
          ['metroweekly.example', 1],
          ['trailmag.example', 1],
        ],
      );
    });
  });

  describe('validateProductAuthorization', () => {
    it('validateProductAuthorization(meridian, [{publisher_domain, property_ids}]) reads authorized, agent_url and checked_at', async () => {
      const { status, body } = await registry.post('/api/registry/validate/product-authorization', {
        agent_url: meridian,
        publisher_properties: [{ publisher_domain: harbor, property_ids: ['harbor_web', 'harbor_app'] }],
      });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body['authorized'], true);
      assert.equal(body['agent_url'], meridian);
      assert.match(body['checked_at'], isoTime);
      assert.equal(body['selectors'][0]['selection_type'], 'by_id');
    });

    it('with tags and property_types: Meridian may not sell the CTV app, and news on the web only is its own', async () => {
      const ctv = await registry.post('/api/registry/validate/product-authorization', {
        agent_url: meridian,
        publisher_properties: [{ publisher_domain: harbor, tags: ['ctv'] }],
      });
      assert.equal(ctv.body['authorized'], false);
      assert.deepEqual(ctv.body['selectors'][0]['counts'], { authorized: 0, unauthorized: 1, unknown: 0 });
      const web = await registry.post('/api/registry/validate/product-authorization', {
        agent_url: meridian,
        publisher_properties: [{ publisher_domain: harbor, tags: ['news'], property_types: ['website'] }],
      });
      assert.equal(web.body['authorized'], true);
      assert.deepEqual(
        web.body['selectors'][0]['properties'].map((p: Json) => p['property']['property_id']),
        ['harbor_web'],
      );
    });

    it('the published selector (core/publisher-property-selector, selection_type by_tag with property_tags) answers the same', async () => {
      const theirs = await registry.post('/api/registry/validate/product-authorization', {
        agent_url: bluefin,
        publisher_properties: [{ publisher_domain: harbor, tags: ['news'] }],
      });
      const published = await registry.post('/api/registry/validate/product-authorization', {
        agent_url: bluefin,
        publisher_properties: [{ publisher_domain: harbor, selection_type: 'by_tag', property_tags: ['news'] }],
      });
      assert.equal(theirs.body['authorized'], true);
      assert.deepEqual({ ...published.body, checked_at: undefined }, { ...theirs.body, checked_at: undefined });
    });
  });

  describe('expandProductIdentifiers', () => {
    it('expandProductIdentifiers(meridian, [{publisher_domain, tags}]) takes agent_url and reads identifiers, property_count, identifier_count and generated_at', async () => {
      const { status, body } = await registry.post('/api/registry/expand/product-identifiers', {
        agent_url: meridian,
        publisher_properties: [{ publisher_domain: harbor, tags: ['news'] }],
      });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body['agent_url'], meridian);
      assert.deepEqual(body['identifiers'], [
        { type: 'domain', value: harbor, property_id: 'harbor_web', publisher_domain: harbor },
        { type: 'ios_bundle', value: 'com.dailyharbor.news', property_id: 'harbor_app', publisher_domain: harbor },
        { type: 'apple_app_store_id', value: '1600123456', property_id: 'harbor_app', publisher_domain: harbor },
        { type: 'android_package', value: 'com.dailyharbor.news', property_id: 'harbor_app', publisher_domain: harbor },
      ]);
      assert.equal(body['property_count'], 2);
      assert.equal(body['identifier_count'], 4);
      assert.deepEqual(
        body['properties'].map((p: Json) => p['property_id']),
        ['harbor_web', 'harbor_app'],
      );
      assert.match(body['generated_at'], isoTime);
    });

    it('property_types alone selects the publisher’s properties of those types; property_ids alone, those ids', async () => {
      const types = await registry.post('/api/registry/expand/product-identifiers', {
        agent_url: streamline,
        publisher_properties: [{ publisher_domain: harbor, property_types: ['ctv_app'] }],
      });
      assert.deepEqual(
        types.body['identifiers'].map((i: Json) => [i['type'], i['value'], i['property_id']]),
        [
          ['roku_store_id', '612345', 'harbor_tv'],
          ['fire_tv_asin', 'B0DHARBRTV', 'harbor_tv'],
        ],
      );
      assert.equal(types.body['selectors'][0]['selection_type'], 'all');
      const ids = await registry.post('/api/registry/expand/product-identifiers', {
        agent_url: streamline,
        publisher_properties: [{ publisher_domain: harbor, property_ids: ['harbor_tv'] }],
      });
      assert.deepEqual(ids.body['identifiers'], types.body['identifiers']);
    });

    it('refuses a selector without publisher_domain, or with both property_ids and tags, naming it (400 validation_failed)', async () => {
      const { status, body } = await registry.post('/api/registry/expand/product-identifiers', {
        agent_url: meridian,
        publisher_properties: [
          { tags: ['news'] },
          { publisher_domain: harbor, property_ids: ['harbor_web'], tags: ['news'] },
          { publisher_domain: harbor, tags: ['news'], property_tags: ['news'] },
        ],
      });
      assert.equal(status, 400);
      assert.equal(body['error'], 'validation_failed');
      assert.deepEqual(
        body['details'].map((d: Json) => d['field']),
        ['publisher_properties.0.publisher_domain', 'publisher_properties.1.tags', 'publisher_properties.2.tags'],
      );
    });
  });

  describe('the OpenAPI document describes both spellings', () => {
    it('names type and identifier_type on the property lookup, tags and property_tags on selectors, and the fields the client reads', async () => {
      const res = await fetch(`${registry.server.url}/openapi/registry.yaml`);
      const yaml = await res.text();
      const section = (path: string) =>
        yaml.slice(yaml.indexOf(`  ${path}:`), yaml.indexOf('\n  /api/', yaml.indexOf(`  ${path}:`) + 1));
      const parameter = (text: string, name: string) => new RegExp(`\\n\\s+name: ${name}\\n`).test(text);
      const field = (text: string, name: string) => new RegExp(`\\n\\s+${name}:\\n`).test(text);
      const property = section('/api/registry/lookup/property');
      for (const name of ['type', 'value', 'identifier_type', 'identifier_value'])
        assert.ok(parameter(property, name), `lookup/property parameter ${name}`);
      for (const name of ['type', 'value', 'identifier', 'agents', 'count'])
        assert.ok(field(property, name), `lookup/property field ${name}`);
      const expand = section('/api/registry/expand/product-identifiers');
      for (const name of [
        'tags',
        'property_tags',
        'property_types',
        'selection_type',
        'agent_url',
        'identifiers',
        'property_count',
        'identifier_count',
        'generated_at',
      ])
        assert.ok(field(expand, name), `expand: ${name}`);
      const domain = section('/api/registry/lookup/domain/{domain}');
      for (const name of ['authorized_agents', 'sales_agents_claiming', 'member', 'source', 'agents'])
        assert.ok(field(domain, name), `lookup/domain: ${name}`);
      // The check's answer is a component, which its GET and POST both refer to.
      assert.match(
        section('/api/registry/validate/property-authorization'),
        /\$ref: "#\/components\/schemas\/PropertyAuthorizationCheck"/,
      );
      const component = yaml.slice(yaml.indexOf('\n    PropertyAuthorizationCheck:\n'));
      const check = component.slice(0, component.slice(1).search(/\n {4}[A-Za-z]/) + 1);
      for (const name of ['checked_at', 'authorized', 'agent_url', 'identifier_type', 'identifier_value', 'result'])
        assert.ok(field(check, name), `property-authorization: ${name}`);
    });
  });
});
