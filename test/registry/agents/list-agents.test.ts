import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { agents, buildWorld } from '../../support/authorization-world.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

/** GET /api/registry/agents: pages, the properties enrichment from the authorization graph, and the measurement filters' refusals. */
eachEngine('the agent list', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  let meridian: Record<string, string>;
  const many = Array.from({ length: 25 }, (_, i) => `https://agent-${String(i).padStart(2, '0')}.meridian.example/mcp`);

  before(async () => {
    server = await startTestServer(engine, { deps: { clock } });
    await seedOrganization(server.db, { slug: 'meridian' });
    meridian = bearer(await createApiKeyFor(server.db, 'meridian'));
    await proveOwnership(server.db, 'meridian', 'meridian.example', clock.now());
    for (const agent_url of [agents.meridian, ...many]) {
      const res = await postJson(
        `${server.url}/api/registry/agents`,
        { agent_url, type: 'sales', name: agent_url },
        meridian,
      );
      assert.equal(res.status, 201);
    }
    await buildWorld(server.db);
    const [last] = await server.db.query<{ id: string }>('select max(event_id::text) as id from registry_events');
    await server.app.authorizationIndex.reached(last!.id);
  });
  after(async () => {
    await server.close();
  });

  const list = async (query: string) => {
    const res = await fetch(`${server.url}/api/registry/agents${query}`);
    return { status: res.status, body: await json(res) };
  };

  it('pages through the catalog in URL order, never repeating or skipping an agent', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await list(`?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(status, 200);
      assert.ok(body.count <= 10);
      seen.push(...(body.agents as Json[]).map((a) => a.agent_url as string));
      cursor = body.cursor;
      assert.equal(body.has_more, cursor !== null);
    } while (cursor);
    assert.deepEqual(seen, [...many, agents.meridian].sort());
    assert.equal((await list('?cursor=not-a-cursor')).status, 400);
  });

  it('adds what the authorization graph says an agent may sell, as the agent-domains lookup does', async () => {
    const { body } = await list(`?properties=true&limit=1000`);
    const entry = (body.agents as Json[]).find((a) => a.agent_url === agents.meridian)!;
    const lookup = await json(
      await fetch(`${server.url}/api/registry/lookup/agent/${encodeURIComponent(agents.meridian)}/domains`),
    );
    assert.ok(lookup.total > 0, 'the world authorizes the Meridian agent');
    assert.equal(entry.properties.publisher_count, lookup.total);
    assert.equal(
      entry.properties.property_count,
      (lookup.publishers as Json[]).reduce((sum, d) => sum + d.property_count, 0),
    );
    assert.deepEqual(
      entry.properties.publishers.map((p: Json) => p.domain),
      lookup.domains,
    );
    const other = (body.agents as Json[]).find((a) => a.agent_url === many[0])!;
    assert.deepEqual(other.properties, { publisher_count: 0, property_count: 0, publishers: [] });
    assert.equal(entry.health, undefined, 'only the enrichments asked for');
  });

  it('refuses the measurement filters with another type, and wildcards or long text in q', async () => {
    for (const query of [
      '?type=sales&metric_id=viewability',
      '?type=creative&accreditation=MRC',
      '?type=signals&q=view',
      '?q=view%25',
      '?q=view_rate',
      `?q=${'x'.repeat(65)}`,
    ]) {
      const { status, body } = await list(query);
      assert.equal(status, 400, query);
      assert.ok(['invalid_request', 'validation_failed'].includes(body.error), query);
    }
    const { status, body } = await list('?type=measurement&metric_id=viewability&metric_id=attention');
    assert.equal(status, 200);
    assert.deepEqual(body.agents, [], 'no measurement agent is enrolled');
  });
});
