import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agents, buildWorld, publishAdagents } from '../../support/authorization-world.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';

const bulk = (n: number) => `https://seller-${String(n).padStart(4, '0')}.bulk.example/mcp`;

/**
 * GET /api/registry/agents/search (issue 19, section 4): inventory profiles from the
 * authorization graph, filters (AND across dimensions, OR within), the ranking formula, paging
 * that never skips or repeats an agent while scores tie and data changes, and who sees what.
 */
eachEngine('agent search', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  let owner: Record<string, string>;
  let other: Record<string, string>;

  const lastEvent = async () =>
    (await server.db.query<{ id: string }>('select max(event_id::text) as id from registry_events'))[0]!.id;
  const caughtUp = async () => {
    await server.app.authorizationIndex.reached(await lastEvent());
    await server.app.agentSearch.reload(server.db);
  };
  const search = async (query: string, as = owner) => {
    const res = await fetch(`${server.url}/api/registry/agents/search${query}`, { headers: as });
    return { status: res.status, body: await json(res) };
  };
  const urls = (body: Json) => (body.results as Json[]).map((r) => r.agent_url as string);
  /** Every result of a search, page after page. */
  const everyone = async (query = '', as = owner): Promise<Json[]> => {
    const all: Json[] = [];
    let cursor: string | undefined;
    do {
      const { body } = await search(`?limit=200${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, as);
      all.push(...(body.results as Json[]));
      cursor = body.has_more ? body.cursor : undefined;
    } while (cursor);
    return all;
  };

  before(async () => {
    server = await startTestServer(engine, { deps: { clock } });
    await seedOrganization(server.db, { slug: 'owner' });
    await seedOrganization(server.db, { slug: 'other' });
    owner = bearer(await createApiKeyFor(server.db, 'owner'));
    other = bearer(await createApiKeyFor(server.db, 'other'));
    await buildWorld(server.db);
    // A thousand agents selling the same one property: their scores tie.
    await publishAdagents(server.db, 'bulk.example', {
      properties: [
        {
          property_id: 'home',
          property_type: 'website',
          name: 'Bulk',
          identifiers: [{ type: 'domain', value: 'bulk.example' }],
          tags: ['bulk'],
        },
      ],
      authorized_agents: Array.from({ length: 1000 }, (_, i) => ({
        url: bulk(i),
        authorized_for: 'Everything',
        authorization_type: 'property_ids',
        property_ids: ['home'],
        countries: ['US'],
      })),
    });
    await caughtUp();
  });
  after(async () => {
    await server.close();
  });

  it('needs a credential', async () => {
    assert.equal((await fetch(`${server.url}/api/registry/agents/search`)).status, 401);
  });

  it('shows each agent’s inventory profile from the graph, valid against the published result shape', async () => {
    const { status, body } = await search('?tags=news&limit=200');
    assert.equal(status, 200);
    const meridian = (body.results as Json[]).find((r) => r.agent_url === agents.meridian)!;
    assert.ok(meridian, JSON.stringify(urls(body)));
    // Meridian may sell the Daily Planet site and iOS app (property ids), and what stalenews.example authorized.
    assert.deepEqual(meridian.property_types, ['mobile_app', 'website']);
    assert.deepEqual(meridian.channels, ['display']);
    assert.ok(meridian.tags.includes('news'));
    const domains = await json(
      await fetch(`${server.url}/api/registry/lookup/agent/${encodeURIComponent(agents.meridian)}/domains`),
    );
    assert.equal(meridian.publisher_count, (domains.publishers as Json[]).filter((d) => d.property_count > 0).length);
    assert.equal(
      meridian.property_count,
      (domains.publishers as Json[]).reduce((sum, d) => sum + d.property_count, 0),
    );
    for (const result of body.results as Json[]) {
      const { relevance_score: _s, matched_filters: _m, ...profile } = result;
      assert.deepEqual(
        validateSchema('/schemas/3.1.19/core/registry-event.json', {
          event_id: '0190a000-0000-7000-8000-000000000000',
          event_type: 'agent.profile_updated',
          entity_type: 'agent',
          entity_id: result.agent_url,
          actor: 'test',
          created_at: '2026-11-24T00:00:00.000Z',
          payload: profile,
        }).errors,
        [],
      );
    }
  });

  it('combines filters with AND across dimensions and OR within one, and ranks by the formula', async () => {
    const ctv = await search('?property_types=ctv_app&limit=200');
    assert.deepEqual(urls(ctv.body), [agents.direct], 'only the direct agent sells the CTV app');
    const either = await search('?property_types=ctv_app,mobile_app&limit=200');
    assert.deepEqual(new Set(urls(either.body)), new Set([agents.direct, agents.meridian, agents.adnet]));
    const both = await search('?property_types=ctv_app,mobile_app&tags=app&limit=200');
    assert.ok(urls(both.body).every((u) => [agents.direct, agents.meridian, agents.adnet].includes(u)));
    for (const result of either.body.results as Json[]) {
      const breadth =
        (result.property_types as string[]).filter((t) => ['ctv_app', 'mobile_app'].includes(t)).length / 2;
      const expected = breadth + 0.1 * Math.log(result.property_count + 1) + (result.has_tmp ? 0.05 : 0);
      assert.ok(
        Math.abs(result.relevance_score - expected) < 1e-6,
        `${result.agent_url}: ${result.relevance_score} vs ${expected}`,
      );
      assert.deepEqual(result.matched_filters, ['property_types']);
    }
    const scores = (either.body.results as Json[]).map((r) => r.relevance_score as number);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      'best first',
    );
    assert.deepEqual(
      urls((await search('?markets=us&min_properties=1&limit=5')).body).length,
      5,
      'country codes in any case',
    );
    const atLeastThree = (await search('?min_properties=3&limit=200')).body.results as Json[];
    assert.ok(atLeastThree.length > 0 && atLeastThree.every((r) => r.property_count >= 3));
    assert.deepEqual(
      atLeastThree.map((r) => r.agent_url).sort(),
      (await everyone())
        .filter((r) => r.property_count >= 3)
        .map((r) => r.agent_url)
        .sort(),
    );
    assert.deepEqual(urls((await search('?has_tmp=true')).body), [], 'no agent declares TMP');
  });

  describe('paging', () => {
    it('pages through a thousand tied agents without skipping or repeating one, while agents come and go between pages', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const { status, body } = await search(
          `?tags=bulk&limit=137${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        assert.equal(status, 200, JSON.stringify(body));
        seen.push(...urls(body));
        cursor = body.has_more ? body.cursor : undefined;
        if (++pages === 2) {
          // Between pages: a new agent appears in the graph, and one of the thousand loses its grant.
          await publishAdagents(server.db, 'bulk.example', {
            properties: [
              {
                property_id: 'home',
                property_type: 'website',
                name: 'Bulk',
                identifiers: [{ type: 'domain', value: 'bulk.example' }],
                tags: ['bulk'],
              },
            ],
            authorized_agents: [
              ...Array.from({ length: 999 }, (_, i) => ({
                url: bulk(i + 1),
                authorized_for: 'Everything',
                authorization_type: 'property_ids',
                property_ids: ['home'],
              })),
              {
                url: 'https://aaa-newcomer.bulk.example/mcp',
                authorized_for: 'Everything',
                authorization_type: 'property_ids',
                property_ids: ['home'],
              },
            ],
          });
          await caughtUp();
        }
      } while (cursor);
      assert.equal(seen.length, 1000);
      assert.equal(new Set(seen).size, 1000, 'no agent twice');
      assert.deepEqual(
        seen,
        Array.from({ length: 1000 }, (_, i) => bulk(i)),
        'ties in agent URL order, as ranked at the first page',
      );
      const fresh = await search('?tags=bulk&limit=200');
      assert.equal(urls(fresh.body)[0], 'https://aaa-newcomer.bulk.example/mcp', 'a new search sees the change');
    });

    it('refuses bad limits, long CSVs and bad cursors, and answers 410 once a ranking has expired', async () => {
      assert.equal((await search('?limit=0')).status, 400);
      assert.equal((await search('?limit=201')).status, 400);
      assert.equal((await search(`?tags=${Array.from({ length: 101 }, (_, i) => `t${i}`).join(',')}`)).status, 400);
      assert.equal((await search('?cursor=garbage')).status, 400);
      const first = await search('?tags=bulk&limit=10');
      clock.advance(11 * 60_000);
      const late = await search(`?cursor=${encodeURIComponent(first.body.cursor)}`);
      assert.equal(late.status, 410);
      assert.equal(late.body.error, 'cursor_expired');
    });
  });

  it('shows an enrolled private sales agent to its organization only', async () => {
    await proveOwnership(server.db, 'owner', 'owner.example', clock.now());
    const res = await postJson(
      `${server.url}/api/registry/agents`,
      { agent_url: 'https://sales.owner.example/mcp', type: 'sales', name: 'Owner sales', visibility: 'private' },
      owner,
    );
    assert.equal(res.status, 201);
    await caughtUp();
    const mine = (await everyone('', owner)).find((r) => r.agent_url === 'https://sales.owner.example/mcp');
    assert.deepEqual(
      [mine?.property_count, mine?.publisher_count],
      [0, 0],
      'an enrolled sales agent no publisher has authorized yet',
    );
    const seenByOther = (await everyone('', other)).map((r) => r.agent_url);
    assert.ok(!seenByOther.includes('https://sales.owner.example/mcp'));
  });
});
