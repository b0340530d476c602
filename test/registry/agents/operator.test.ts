import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agents, buildWorld } from '../../support/authorization-world.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

/**
 * GET /api/registry/operator: the agents a domain operates (enrolled on it or under it, listed by
 * its brand.json) as each caller's standing lets them see, and the publishers that trust them.
 */
eachEngine('the operator lookup', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const headers: Record<'owner' | 'member' | 'outsider' | 'planet' | 'lookalike', Record<string, string>> = {} as never;
  const meridianAgents = {
    sales: agents.meridian,
    apex: 'https://meridian.example/a2a',
    members: 'https://members.meridian.example/mcp',
    secret: 'https://secret.meridian.example/mcp',
  };

  before(async () => {
    server = await startTestServer(engine, { deps: { clock } });
    // The operator, an API-tier member, a member organization without the API tier, Daily Planet, and a look-alike domain's owner.
    for (const [who, slug, apiTier] of [
      ['owner', 'meridian', false],
      ['member', 'reader', true],
      ['outsider', 'outsider', false],
      ['planet', 'planet', false],
      ['lookalike', 'lookalike', false],
    ] as const) {
      await seedOrganization(server.db, { slug, apiTier });
      headers[who] = bearer(await createApiKeyFor(server.db, slug));
    }
    await proveOwnership(server.db, 'meridian', 'meridian.example', clock.now());
    await proveOwnership(server.db, 'planet', 'dailyplanet.example', clock.now());
    await proveOwnership(server.db, 'lookalike', 'notmeridian.example', clock.now());
    const enroll = async (who: keyof typeof headers, agent_url: string, visibility: string, type = 'sales') => {
      const res = await postJson(
        `${server.url}/api/registry/agents`,
        { agent_url, type, name: `${who} ${visibility}`, visibility },
        headers[who],
      );
      assert.equal(res.status, 201, await res.text());
    };
    await enroll('owner', meridianAgents.sales, 'public');
    await enroll('owner', meridianAgents.apex, 'public', 'buying');
    await enroll('owner', meridianAgents.members, 'members_only');
    await enroll('owner', meridianAgents.secret, 'private');
    await enroll('lookalike', 'https://sales.notmeridian.example/mcp', 'public');
    // Daily Planet's brand.json lists its direct agent; its enrollment is private.
    await enroll('planet', agents.direct, 'private');
    await buildWorld(server.db);
    const [last] = await server.db.query<{ id: string }>('select max(event_id::text) as id from registry_events');
    await server.app.authorizationIndex.reached(last!.id);
  });
  after(() => server.close());

  const operator = async (domain: string, as?: Record<string, string>) => {
    const res = await fetch(
      `${server.url}/api/registry/operator?domain=${encodeURIComponent(domain)}`,
      as ? { headers: as } : {},
    );
    return { status: res.status, body: await json(res) };
  };
  const urls = (body: Json) => (body.agents as Json[]).map((a) => a.agent_url as string);

  describe('visibility tiers', () => {
    it('shows anonymous callers, and members without the API tier, the public agents on the domain and under it, never a look-alike domain’s', async () => {
      for (const as of [undefined, headers.outsider]) {
        const { status, body } = await operator('meridian.example', as);
        assert.equal(status, 200);
        assert.equal(body.domain, 'meridian.example');
        assert.deepEqual(urls(body), [meridianAgents.apex, meridianAgents.sales]);
        assert.equal(body.count, 2);
      }
    });

    it('shows API-tier members also the members_only agents', async () => {
      const { body } = await operator('meridian.example', headers.member);
      assert.deepEqual(urls(body), [meridianAgents.members, meridianAgents.apex, meridianAgents.sales]);
    });

    it('shows the organization that enrolled them also its private agents, and a registry admin everything', async () => {
      for (const as of [headers.owner, asAdmin]) {
        const { body } = await operator('meridian.example', as);
        assert.deepEqual(urls(body), [
          meridianAgents.members,
          meridianAgents.apex,
          meridianAgents.sales,
          meridianAgents.secret,
        ]);
      }
      const { body } = await operator('meridian.example', headers.owner);
      const secret = (body.agents as Json[]).find((a) => a.agent_url === meridianAgents.secret)!;
      assert.equal(secret.visibility, 'private');
      assert.deepEqual(secret.operator, { slug: 'meridian', name: 'meridian' });
    });

    it('answers for a subdomain with the agents on it and under it alone', async () => {
      const { body } = await operator('sales.meridian.example');
      assert.deepEqual(urls(body), [meridianAgents.sales]);
    });

    it('shows an agent the domain’s brand.json lists although its enrollment is hidden, without the catalog’s fields; its organization sees both', async () => {
      const anonymous = await operator('dailyplanet.example');
      assert.equal(anonymous.status, 200);
      assert.deepEqual(
        anonymous.body.agents.map((a: Json) => ({
          url: a.agent_url,
          sources: a.sources,
          name: a.name,
          brand_json: a.brand_json,
        })),
        [
          {
            url: agents.direct,
            sources: ['brand_json'],
            name: undefined,
            brand_json: { agent_id: 'dp_direct', agent_type: 'sales' },
          },
        ],
      );
      const owner = await operator('dailyplanet.example', headers.planet);
      assert.deepEqual(owner.body.agents[0].sources, ['catalog', 'brand_json']);
      assert.equal(owner.body.agents[0].name, 'planet private');
      assert.equal(owner.body.agents[0].visibility, 'private');
    });
  });

  describe('the registry client’s scope, which narrows and never widens', () => {
    const scoped = async (domain: string, scope: string, as?: Record<string, string>) => {
      const res = await fetch(
        `${server.url}/api/registry/operator?domain=${encodeURIComponent(domain)}&scope=${scope}`,
        as ? { headers: as } : {},
      );
      return { status: res.status, body: await json(res) };
    };

    it('keeps one visibility bucket of what the organization that enrolled them may see', async () => {
      const expected: Record<string, string[]> = {
        public: [meridianAgents.apex, meridianAgents.sales],
        member: [meridianAgents.members, meridianAgents.apex, meridianAgents.sales],
        private: [meridianAgents.secret],
        all: [meridianAgents.members, meridianAgents.apex, meridianAgents.sales, meridianAgents.secret],
      };
      for (const [scope, urlsOf] of Object.entries(expected)) {
        const { status, body } = await scoped('meridian.example', scope, headers.owner);
        assert.equal(status, 200, scope);
        assert.deepEqual(urls(body), urlsOf, scope);
      }
    });

    it('gives others no more than their standing: members_only needs the API tier, private agents their organization', async () => {
      assert.deepEqual(
        urls((await scoped('meridian.example', 'member')).body),
        [meridianAgents.apex, meridianAgents.sales],
        'anonymous: public only',
      );
      assert.deepEqual(urls((await scoped('meridian.example', 'member', headers.member)).body), [
        meridianAgents.members,
        meridianAgents.apex,
        meridianAgents.sales,
      ]);
      const { status, body } = await scoped('meridian.example', 'private', headers.member);
      assert.equal(status, 200, 'an empty answer, not 404: the domain is known');
      assert.deepEqual(body.agents, []);
    });

    it('counts what a brand.json lists as public: shown in every scope but private, unless its private enrollment is yours', async () => {
      assert.deepEqual(urls((await scoped('dailyplanet.example', 'public')).body), [agents.direct]);
      assert.deepEqual(urls((await scoped('dailyplanet.example', 'private')).body), []);
      const owner = await scoped('dailyplanet.example', 'private', headers.planet);
      assert.deepEqual(urls(owner.body), [agents.direct]);
      assert.deepEqual(owner.body.agents[0].sources, ['catalog', 'brand_json']);
    });

    it('refuses a scope it does not know with 400, rather than answering more than asked', async () => {
      const { status, body } = await scoped('meridian.example', 'everything');
      assert.equal(status, 400);
      assert.equal(body.error, 'validation_failed');
    });
  });

  describe('as the registry client reads it', () => {
    it('names each agent by url, the publishers that trust it by authorized_by, and the member operating the domain', async () => {
      const { body } = await operator('meridian.example', headers.owner);
      assert.deepEqual(body.member, { slug: 'meridian', display_name: 'meridian' });
      for (const agent of body.agents as Json[]) {
        assert.equal(agent.url, agent.agent_url);
        assert.deepEqual(
          agent.authorized_by.map((a: Json) => [a.publisher_domain, a.source]),
          agent.publishers.map((p: Json) => [p.domain, 'adagents_json']),
        );
      }
      const sales = (body.agents as Json[]).find((a) => a.agent_url === meridianAgents.sales)!;
      assert.ok(
        sales.authorized_by.length > 0 && sales.authorized_by.every((a: Json) => typeof a.authorized_for === 'string'),
        JSON.stringify(sales.authorized_by),
      );
      // Daily Planet's agent, shown without its enrollment: typed by the brand.json that lists it; no member is shown operating it.
      const planet = await operator('dailyplanet.example');
      assert.deepEqual(
        [planet.body.agents[0].url, planet.body.agents[0].type, planet.body.member],
        [agents.direct, 'sales', undefined],
      );
    });
  });

  describe('publishers that trust each agent', () => {
    it('lists, for each agent, the publishers whose adagents.json authorizes it, as the agent-domains lookup does', async () => {
      const { body } = await operator('meridian.example');
      const sales = (body.agents as Json[]).find((a) => a.agent_url === meridianAgents.sales)!;
      assert.deepEqual(
        sales.sources,
        ['catalog', 'brand_json'],
        'enrolled, and listed by meridian.example’s brand.json',
      );
      assert.deepEqual(sales.brand_json, { agent_id: 'meridian_sales', agent_type: 'sales' });
      assert.equal(sales.name, 'owner public');
      assert.equal(sales.type, 'sales');
      const lookup = await json(
        await fetch(`${server.url}/api/registry/lookup/agent/${encodeURIComponent(agents.meridian)}/domains`),
      );
      assert.deepEqual(
        sales.publishers,
        (lookup.publishers as Json[]).map((d) => ({
          domain: d.domain,
          status: d.status,
          property_count: d.property_count,
        })),
      );
      // Daily Planet authorizes its site and iOS app; Stale News authorized its site, then its file went stale.
      assert.deepEqual(sales.publishers, [
        { domain: 'dailyplanet.example', status: 'active', property_count: 2 },
        { domain: 'stalenews.example', status: 'stale', property_count: 1 },
      ]);
      assert.equal(sales.publisher_count, 2);
      assert.equal(sales.property_count, 3);
      const apex = (body.agents as Json[]).find((a) => a.agent_url === meridianAgents.apex)!;
      assert.deepEqual(
        {
          sources: apex.sources,
          publishers: apex.publishers,
          publisher_count: apex.publisher_count,
          property_count: apex.property_count,
        },
        { sources: ['catalog'], publishers: [], publisher_count: 0, property_count: 0 },
      );
      assert.equal(body.publisher_count, 2);
    });

    it('counts Daily Planet’s own direct agent, authorized by its own file for what it tags news or ctv', async () => {
      const { body } = await operator('dailyplanet.example');
      assert.deepEqual(body.agents[0].publishers, [
        { domain: 'dailyplanet.example', status: 'active', property_count: 3 },
      ]);
      assert.equal(body.publisher_count, 1);
    });
  });

  describe('domains it cannot answer for', () => {
    it('answers 404 for a domain the registry knows nothing of, or of which the caller may see nothing', async () => {
      await seedOrganization(server.db, { slug: 'hidden' });
      const hidden = bearer(await createApiKeyFor(server.db, 'hidden'));
      await proveOwnership(server.db, 'hidden', 'hidden.example', clock.now());
      assert.equal(
        (
          await postJson(
            `${server.url}/api/registry/agents`,
            { agent_url: 'https://agent.hidden.example/mcp', type: 'signals', name: 'Hidden', visibility: 'private' },
            hidden,
          )
        ).status,
        201,
      );
      for (const [domain, as] of [
        ['nobody.example', undefined],
        ['hidden.example', undefined],
        ['hidden.example', headers.member],
      ] as const) {
        const { status, body } = await operator(domain, as);
        assert.equal(status, 404, domain);
        assert.equal(body.error, 'not_found');
      }
      assert.deepEqual(urls((await operator('hidden.example', hidden)).body), ['https://agent.hidden.example/mcp']);
    });

    it('answers a publisher the registry knows, operating no agent, with none', async () => {
      const { status, body } = await operator('STALENEWS.example');
      assert.equal(status, 200);
      assert.deepEqual(body, { domain: 'stalenews.example', agents: [], count: 0, publisher_count: 0 });
    });

    it('refuses what is not a domain with 400', async () => {
      for (const domain of ['not a domain', 'http://', '-bad-.example', '1.2.3.4.5..']) {
        const { status, body } = await operator(domain);
        assert.equal(status, 400, domain);
        assert.equal(body.error, 'invalid_domain', domain);
      }
      for (const query of ['', '?domain=']) {
        const res = await fetch(`${server.url}/api/registry/operator${query}`);
        assert.equal(res.status, 400, query);
      }
      // A parameter it does not know is ignored, as on every endpoint (test/contract/query-parameters.test.ts).
      assert.equal((await fetch(`${server.url}/api/registry/operator?domain=meridian.example&extra=1`)).status, 200);
    });

    it('refuses a credential it cannot verify with 401, rather than answering as for anyone', async () => {
      const { status } = await operator('meridian.example', bearer('not-a-key-of-anyone'));
      assert.equal(status, 401);
    });
  });
});
