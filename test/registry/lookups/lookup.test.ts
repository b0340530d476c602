import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agents, signingKey } from '../../support/authorization-world.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { assertRejected, startWorld, uuid } from './world.ts';

/** The property ids a lookup entry covers, by agent, in the answer's order. */
const coveredBy = (entries: Json[]) =>
  entries.map((e) => [e.agent_url_canonical, e.properties.map((p: Json) => p.property_id)]);

eachEngine('authorization lookups', (engine) => {
  let server: TestServer;
  const get = (path: string) => fetch(`${server.url}/api/registry/lookup/${path}`);
  const ok = async (path: string) => {
    const res = await get(path);
    assert.equal(res.status, 200, path);
    return json(res);
  };
  const agentDomains = (agentUrl: string, query = '') => get(`agent/${encodeURIComponent(agentUrl)}/domains${query}`);

  before(async () => {
    server = await startWorld(engine);
  });
  after(() => server.close());

  describe('by domain', () => {
    it('lists every grant reaching the domain’s properties, each with the properties it covers', async () => {
      const body = await ok('domain/dailyplanet.example');
      assert.equal(body.domain, 'dailyplanet.example');
      assert.deepEqual(body.publisher, { status: 'active', property_count: 3, collection_count: 0 });
      assert.deepEqual(coveredBy(body.agents), [
        [agents.direct, ['site', 'ios_app', 'ctv']],
        [agents.adnet, ['ios_app']],
        [agents.meridian, ['site', 'ios_app']],
      ]);
      for (const entry of body.agents) {
        assert.match(entry.authorization_id, uuid);
        assert.equal(entry.source_domain, 'dailyplanet.example');
        assert.ok(entry.properties.every((p: Json) => p.status === 'active' && uuid.test(p.property_rid)));
      }
      const [direct, adnet, meridian] = body.agents;
      assert.deepEqual(
        [direct.delegation_type, adnet.delegation_type, meridian.delegation_type],
        ['direct', 'ad_network', 'delegated'],
      );
      assert.deepEqual(
        [direct.authorized_for, adnet.authorized_for, meridian.authorized_for],
        ['All direct sales', 'App remnant', 'Display and app inventory'],
      );
      assert.deepEqual(meridian.signing_keys, [signingKey]);
      assert.equal('signing_keys' in direct, false);
    });

    it('normalizes the domain in the path', async () => {
      assert.deepEqual(await ok('domain/DailyPlanet.EXAMPLE.'), await ok('domain/dailyplanet.example'));
    });

    it('a domain without a known adagents.json: publisher status unknown and no agents', async () => {
      assert.deepEqual(await ok('domain/nowhere.example'), {
        domain: 'nowhere.example',
        publisher: { status: 'unknown', property_count: 0, collection_count: 0 },
        agents: [],
        authorized_agents: [],
        sales_agents_claiming: [],
      });
    });

    it('a stale publisher says so, with the reason, and its grants cover stale properties', async () => {
      const body = await ok('domain/stalenews.example');
      assert.deepEqual(body.publisher, {
        status: 'stale',
        reason: 'adagents.json answered HTTP 404',
        property_count: 1,
        collection_count: 0,
      });
      assert.deepEqual(coveredBy(body.agents), [[agents.meridian, ['site']]]);
      assert.equal(body.agents[0].properties[0].status, 'stale');
    });

    it('refuses a malformed domain in the path as invalid_domain, naming the path parameter', async () => {
      for (const domain of ['not_a_domain', '127.0.0.1', 'localhost', encodeURIComponent('dailyplanet.example:8080')]) {
        await assertRejected(await get(`domain/${domain}`), { error: 'invalid_domain', in: 'params', field: 'domain' });
      }
      await assertRejected(await get('domain/daily%00planet.example'), {
        error: 'validation_failed',
        in: 'params',
        field: 'domain',
      });
    });
  });

  describe('by property identifier', () => {
    it('finds the property an identifier names and every grant covering it', async () => {
      const body = await ok('property?identifier_type=ios_bundle&identifier_value=com.dailyplanet.app');
      assert.deepEqual(body.identifier, { type: 'ios_bundle', value: 'com.dailyplanet.app' });
      assert.equal(body.properties.length, 1);
      const [app] = body.properties;
      assert.equal(app.property_id, 'ios_app');
      assert.equal(app.publisher_domain, 'dailyplanet.example');
      assert.deepEqual(app.tags, ['news', 'app']);
      assert.equal(app.status, 'active');
      assert.deepEqual(
        body.agents.map((a: Json) => [a.agent_url_canonical, a.delegation_type, a.property_rids]),
        [
          [agents.direct, 'direct', [app.property_rid]],
          [agents.adnet, 'ad_network', [app.property_rid]],
          [agents.meridian, 'delegated', [app.property_rid]],
        ],
      );
    });

    it('compares domain identifiers case-insensitively and answers them normalized', async () => {
      const body = await ok('property?identifier_type=domain&identifier_value=DailyPlanet.Example');
      assert.deepEqual(body.identifier, { type: 'domain', value: 'dailyplanet.example' });
      assert.deepEqual(
        body.properties.map((p: Json) => p.property_id),
        ['site'],
      );
      assert.deepEqual(
        body.agents.map((a: Json) => a.agent_url_canonical),
        [agents.direct, agents.meridian],
      );
    });

    it('an identifier nobody declares: no properties, no agents', async () => {
      assert.deepEqual(await ok('property?identifier_type=ios_bundle&identifier_value=COM.DAILYPLANET.APP'), {
        identifier: { type: 'ios_bundle', value: 'COM.DAILYPLANET.APP' },
        type: 'ios_bundle',
        value: 'COM.DAILYPLANET.APP',
        properties: [],
        agents: [],
        count: 0,
      });
    });

    it('refuses a missing or malformed identifier', async () => {
      await assertRejected(await get('property?identifier_type=ios_bundle'), {
        error: 'validation_failed',
        in: 'querystring',
        field: 'identifier_value',
      });
      await assertRejected(await get('property?identifier_value=com.dailyplanet.app'), {
        error: 'validation_failed',
        in: 'querystring',
        field: 'identifier_type',
      });
      await assertRejected(await get('property?identifier_type=iOS%20bundle&identifier_value=x'), {
        error: 'validation_failed',
        in: 'querystring',
        field: 'identifier_type',
      });
      await assertRejected(await get('property?identifier_type=domain&identifier_value='), {
        error: 'validation_failed',
        in: 'querystring',
        field: 'identifier_value',
      });
      await assertRejected(await get('property?identifier_type=domain&identifier_value=a%00b'), {
        error: 'validation_failed',
        in: 'querystring',
        field: 'identifier_value',
      });
    });
  });

  describe('an agent’s domains', () => {
    it('lists the publisher domains an agent holds grants for, with how many properties each', async () => {
      const body = await json(await agentDomains(agents.meridian));
      assert.equal(body.agent_url, agents.meridian);
      assert.equal(body.agent_url_canonical, agents.meridian);
      assert.equal(body.total, 2);
      assert.equal(body.count, 2);
      assert.deepEqual(body.domains, ['dailyplanet.example', 'stalenews.example']);
      assert.equal(body.has_more, false);
      assert.equal(body.next_cursor, null);
      assert.deepEqual(
        body.publishers.map((d: Json) => [
          d.domain,
          d.status,
          d.property_count,
          d.authorizations.map((a: Json) => [a.source_domain, a.delegation_type, a.authorized_for]),
        ]),
        [
          ['dailyplanet.example', 'active', 2, [['dailyplanet.example', 'delegated', 'Display and app inventory']]],
          ['stalenews.example', 'stale', 1, [['stalenews.example', 'delegated', 'Display']]],
        ],
      );
    });

    it('pages with limit and next_cursor until has_more is false', async () => {
      const first = await json(await agentDomains(agents.meridian, '?limit=1'));
      assert.deepEqual(first.domains, ['dailyplanet.example']);
      assert.deepEqual(
        first.publishers.map((d: Json) => d.domain),
        ['dailyplanet.example'],
      );
      assert.equal(first.total, 2);
      assert.equal(first.count, 1);
      assert.equal(first.has_more, true);
      assert.equal(typeof first.next_cursor, 'string');
      const second = await json(
        await agentDomains(agents.meridian, `?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`),
      );
      assert.deepEqual(second.domains, ['stalenews.example']);
      assert.equal(second.has_more, false);
      assert.equal(second.next_cursor, null);
      const whole = await json(await agentDomains(agents.meridian));
      assert.deepEqual([...first.domains, ...second.domains], whole.domains);
      assert.deepEqual([...first.publishers, ...second.publishers], whole.publishers);
    });

    it('takes the agent URL URL-encoded in any canonical-equal form, and echoes it as given', async () => {
      const given = 'HTTPS://SALES.MERIDIAN.EXAMPLE:443/mcp';
      const body = await json(await agentDomains(given));
      assert.equal(body.agent_url, given);
      assert.equal(body.agent_url_canonical, agents.meridian);
      const canonical = await json(await agentDomains(agents.meridian));
      assert.deepEqual([body.domains, body.publishers], [canonical.domains, canonical.publishers]);
    });

    it('an agent without grants has no domains', async () => {
      const body = await json(await agentDomains('https://nobody.example/mcp'));
      assert.deepEqual(
        { ...body, agent_url: undefined },
        {
          agent_url: undefined,
          agent_url_canonical: 'https://nobody.example/mcp',
          total: 0,
          count: 0,
          domains: [],
          publishers: [],
          next_cursor: null,
          has_more: false,
        },
      );
    });

    it('refuses a path that is no URL, a malformed cursor and a limit outside 1..1000', async () => {
      await assertRejected(await get('agent/not%20a%20url/domains'), {
        error: 'validation_failed',
        in: 'params',
        field: 'agentUrl',
      });
      await assertRejected(await get('agent/sales.meridian.example/domains'), {
        error: 'validation_failed',
        in: 'params',
        field: 'agentUrl',
      });
      const forged = Buffer.from(JSON.stringify({ page: 2 })).toString('base64url');
      const nul = Buffer.from(JSON.stringify({ domain: 'a\u0000b' })).toString('base64url');
      for (const cursor of ['!!!', forged, nul, 'bm90IGpzb24']) {
        await assertRejected(await agentDomains(agents.meridian, `?cursor=${cursor}`), { error: 'invalid_cursor' });
      }
      for (const limit of ['0', '1001', 'many', '-1', '1.5']) {
        await assertRejected(await agentDomains(agents.meridian, `?limit=${limit}`), {
          error: 'validation_failed',
          in: 'querystring',
          field: 'limit',
        });
      }
    });
  });
});
