import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agents, dailyPlanet, publishAdagents, signingKey } from '../../support/authorization-world.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { assertRejected, settled, startWorld, uuid } from '../lookups/world.ts';

/** A managed network's file: an inline property, a publisher_properties grant over Daily Planet's news, constraints and a signals grant. */
const network = {
  properties: [
    {
      property_id: 'portal',
      property_type: 'website',
      name: 'Network Portal',
      identifiers: [{ type: 'domain', value: 'portal.network.example' }],
      tags: ['portal'],
    },
  ],
  authorized_agents: [
    {
      url: agents.adnet,
      authorized_for: 'Network news',
      authorization_type: 'publisher_properties',
      publisher_properties: [
        { publisher_domain: 'dailyplanet.example', selection_type: 'by_tag', property_tags: ['news'] },
      ],
      delegation_type: 'ad_network',
      placement_ids: ['top_banner'],
      effective_until: '2030-01-01T00:00:00Z',
    },
    {
      url: agents.adnet,
      authorized_for: 'Inline',
      authorization_type: 'inline_properties',
      properties: [
        {
          property_type: 'website',
          name: 'Network Blog',
          identifiers: [{ type: 'domain', value: 'blog.network.example' }],
        },
      ],
    },
    {
      url: 'https://signals.network.example/mcp',
      authorized_for: 'Audiences',
      authorization_type: 'signal_ids',
      signal_ids: ['sports_fans'],
    },
  ],
};

/** GET /api/registry/publisher: a publisher's inventory and the agents its adagents.json authorizes, from the index. */
eachEngine('the publisher view', (engine) => {
  let server: TestServer;
  const get = (domain: string) => fetch(`${server.url}/api/registry/publisher?domain=${encodeURIComponent(domain)}`);
  const ok = async (domain: string) => {
    const res = await get(domain);
    assert.equal(res.status, 200, domain);
    return json(res);
  };

  before(async () => {
    server = await startWorld(engine);
    await publishAdagents(server.db, 'network.example', network);
    await settled(server);
  });
  after(() => server.close());

  describe('a known publisher', () => {
    it('answers its file’s state, its properties and each authorized_agents[] entry with what it covers', async () => {
      const body = await ok('dailyplanet.example');
      assert.equal(body.domain, 'dailyplanet.example');
      assert.equal(body.adagents.status, 'active');
      assert.equal(body.adagents.stale_reason, null);
      assert.equal(body.adagents.document_url, 'https://dailyplanet.example/.well-known/adagents.json');
      assert.equal(body.adagents.manager_domain, null);
      assert.ok(!Number.isNaN(Date.parse(body.adagents.discovered_at)), body.adagents.discovered_at);
      assert.deepEqual(body.counts, {
        property_count: 3,
        stale_property_count: 0,
        collection_count: 0,
        agent_count: 3,
        authorization_count: 3,
      });
      assert.deepEqual(
        body.properties.map((p: Json) => [p.property_id, p.property_type, p.status]),
        [
          ['ctv', 'ctv_app', 'active'],
          ['ios_app', 'mobile_app', 'active'],
          ['site', 'website', 'active'],
        ],
      );
      assert.deepEqual(body.properties[2].identifiers, [{ type: 'domain', value: 'dailyplanet.example' }]);
      assert.ok(
        body.properties.every((p: Json) => uuid.test(p.property_rid) && p.publisher_domain === 'dailyplanet.example'),
      );
      assert.deepEqual(body.collections, []);

      const entries = body.authorized_agents as Json[];
      assert.deepEqual(
        entries.map((e) => e.agent_url_canonical),
        [agents.direct, agents.adnet, agents.meridian],
      );
      const [direct, adnet, meridian] = entries;
      assert.deepEqual(
        [direct!.authorized_for, direct!.delegation_type, direct!.authorization_type],
        ['All direct sales', 'direct', 'property_tags'],
      );
      assert.deepEqual(direct!.property_tags, ['ctv', 'news'], 'sorted');
      assert.deepEqual(
        direct!.properties.map((p: Json) => p.property_id),
        ['ctv', 'ios_app', 'site'],
      );
      assert.deepEqual(
        adnet!.properties.map((p: Json) => p.property_id),
        ['ios_app'],
      );
      assert.deepEqual(meridian!.property_ids, ['ios_app', 'site']);
      assert.deepEqual(
        meridian!.properties.map((p: Json) => p.property_id),
        ['ios_app', 'site'],
      );
      assert.deepEqual(meridian!.signing_keys, [signingKey]);
      for (const entry of entries) {
        assert.match(entry.authorization_id, uuid);
        assert.equal(entry.source_domain, 'dailyplanet.example');
        assert.ok(
          entry.properties.every((p: Json) => p.publisher_domain === 'dailyplanet.example' && p.status === 'active'),
        );
      }
    });

    it('shows publisher_properties selectors, inline properties, signals and constraints as the file declares them', async () => {
      const body = await ok('network.example');
      assert.deepEqual(body.counts, {
        property_count: 2,
        stale_property_count: 0,
        collection_count: 0,
        agent_count: 2,
        authorization_count: 3,
      });
      const byFor = new Map((body.authorized_agents as Json[]).map((e) => [e.authorized_for, e]));
      const news = byFor.get('Network news')!;
      assert.deepEqual(news.publisher_properties, [
        { publisher_domain: 'dailyplanet.example', selection_type: 'by_tag', property_tags: ['news'] },
      ]);
      assert.deepEqual(news.placement_ids, ['top_banner']);
      assert.equal(news.effective_until, '2030-01-01T00:00:00Z');
      assert.deepEqual(
        news.properties.map((p: Json) => [p.publisher_domain, p.property_id]),
        [
          ['dailyplanet.example', 'ios_app'],
          ['dailyplanet.example', 'site'],
        ],
      );
      const inline = byFor.get('Inline')!;
      const blog = (body.properties as Json[]).find((p) => p.name === 'Network Blog')!;
      assert.deepEqual(inline.property_rids, [blog.property_rid]);
      assert.deepEqual(
        inline.properties.map((p: Json) => p.name),
        ['Network Blog'],
      );
      const signals = byFor.get('Audiences')!;
      assert.deepEqual(signals.signal_ids, ['sports_fans']);
      assert.deepEqual(signals.properties, []);
      // The manager's grant reaches Daily Planet's properties but is the network's, not Daily Planet's, entry.
      assert.equal((await ok('dailyplanet.example')).counts.authorization_count, 3);
    });

    it('normalizes the domain as every ?domain= endpoint does', async () => {
      const canonical = await ok('dailyplanet.example');
      assert.deepEqual(await ok('DailyPlanet.EXAMPLE.'), canonical);
      assert.deepEqual(await ok('https://dailyplanet.example/'), canonical);
    });

    it('a stale publisher says so, keeps where its file was read, and counts its stale properties', async () => {
      const body = await ok('stalenews.example');
      assert.deepEqual(
        { ...body.adagents, discovered_at: typeof body.adagents.discovered_at },
        {
          status: 'stale',
          stale_reason: 'adagents.json answered HTTP 404',
          document_url: 'https://stalenews.example/.well-known/adagents.json',
          manager_domain: null,
          discovered_at: 'string',
        },
      );
      assert.deepEqual(body.counts, {
        property_count: 1,
        stale_property_count: 1,
        collection_count: 0,
        agent_count: 1,
        authorization_count: 1,
      });
      assert.deepEqual(
        body.properties.map((p: Json) => p.status),
        ['stale'],
      );
      assert.deepEqual(
        body.authorized_agents.map((e: Json) => [e.agent_url_canonical, e.properties.map((p: Json) => p.status)]),
        [[agents.meridian, ['stale']]],
      );
    });

    it('follows the feed: an agent dropped from the file leaves the answer, and comes back with it', async () => {
      try {
        await publishAdagents(server.db, 'dailyplanet.example', dailyPlanet({ withMeridian: false }));
        await settled(server);
        const without = await ok('dailyplanet.example');
        assert.deepEqual(
          without.authorized_agents.map((e: Json) => e.agent_url_canonical),
          [agents.direct, agents.adnet],
        );
        assert.equal(without.counts.agent_count, 2);
      } finally {
        await publishAdagents(server.db, 'dailyplanet.example', dailyPlanet());
        await settled(server);
      }
      assert.equal((await ok('dailyplanet.example')).authorized_agents.length, 3);
    });
  });

  describe('refusals', () => {
    it('404 for a domain whose adagents.json the registry does not hold (an operator’s brand.json is not one)', async () => {
      await assertRejected(await get('nowhere.example'), { status: 404, error: 'not_found' });
      await assertRejected(await get('meridian.example'), { status: 404, error: 'not_found' });
    });

    it('400 for what is not a domain, naming the field', async () => {
      for (const bad of ['not a domain', '127.0.0.1', 'example.com/path', 'localhost', 'a..example']) {
        await assertRejected(await get(bad), { error: 'invalid_domain', in: 'querystring', field: 'domain' });
      }
      await assertRejected(await fetch(`${server.url}/api/registry/publisher`), { error: 'validation_failed' });
    });
  });
});
