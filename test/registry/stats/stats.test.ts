import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { recordCrawl } from '../../../src/registry/crawler/sql.ts';
import { firstEventIdAt } from '../../../src/registry/stats/sql.ts';
import { buildWorld, publishAdagents } from '../../support/authorization-world.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { settled } from '../lookups/world.ts';

const hour = 60 * 60 * 1000;

/** GET /api/registry/stats: the index's counts read from memory, the rest from a background summary that says when it was counted. */
eachEngine('registry statistics', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const stats = async (): Promise<Json> => {
    const res = await fetch(`${server.url}/api/registry/stats`);
    const body = await json(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  };

  before(async () => {
    server = await startTestServer(engine, { deps: { clock } });
    await seedOrganization(server.db, { slug: 'meridian' });
    const meridian = bearer(await createApiKeyFor(server.db, 'meridian'));
    await proveOwnership(server.db, 'meridian', 'meridian.example', clock.now());
    for (const [agent_url, type, visibility] of [
      ['https://sales.meridian.example/mcp', 'sales', 'public'],
      ['https://sales2.meridian.example/mcp', 'sales', 'private'],
      ['https://measure.meridian.example/mcp', 'measurement', 'members_only'],
    ]) {
      assert.equal(
        (
          await postJson(
            `${server.url}/api/registry/agents`,
            { agent_url, type, name: agent_url, visibility },
            meridian,
          )
        ).status,
        201,
      );
    }
    await buildWorld(server.db);
    const now = clock.now();
    await recordCrawl(server.db, {
      domain: 'dailyplanet.example',
      nextAt: new Date(now.getTime() + 24 * hour),
      failures: 0,
      outcome: 'found',
      error: null,
      crawledAt: now,
    });
    await recordCrawl(server.db, {
      domain: 'stalenews.example',
      nextAt: new Date(now.getTime() - hour),
      failures: 0,
      outcome: 'absent',
      error: 'HTTP 404',
      crawledAt: new Date(now.getTime() - 2 * hour),
    });
    await recordCrawl(server.db, {
      domain: 'flaky.example',
      nextAt: new Date(now.getTime() + hour),
      failures: 2,
      outcome: 'transient',
      error: 'timeout',
      crawledAt: new Date(now.getTime() - 30 * hour),
    });
    await settled(server);
    await server.app.registrySummary.refresh();
  });
  after(() => server.close());

  it('counts what the authorization index holds', async () => {
    const body = await stats();
    assert.deepEqual(body.publishers, { total: 2, active: 1, stale: 1 });
    assert.deepEqual(body.properties, { total: 4, active: 3, stale: 1 });
    assert.deepEqual(body.collections, { total: 0 });
    assert.deepEqual(body.authorizations, { total: 4, agents: 3 });
    assert.equal(body.index_cursor, server.app.authorizationIndex.cursor);
  });

  it('counts enrolled agents by type and visibility, brands by source, the feed’s last day and crawl health, as of the last refresh', async () => {
    const body = await stats();
    assert.equal(body.as_of, clock.now().toISOString());
    assert.deepEqual(body.agents, {
      total: 3,
      by_type: { brand: 0, rights: 0, measurement: 1, governance: 0, creative: 0, sales: 2, buying: 0, signals: 0 },
      by_visibility: { public: 1, members_only: 1, private: 1 },
    });
    const brands = await server.db.query<{ source: string; n: number }>(
      'select source, count(*) as n from brands group by source',
    );
    assert.ok(brands.length > 0, 'the world’s brand.json files made brands');
    assert.equal(
      body.brands.total,
      brands.reduce((sum, b) => sum + b.n, 0),
    );
    for (const { source, n } of brands) assert.equal(body.brands.by_source[source], n);
    const [events] = await server.db.query<{ n: number; latest: Date }>(
      'select count(*) as n, max(created_at) as latest from registry_events',
    );
    assert.ok(events!.n > 0);
    assert.deepEqual(body.feed, { events_last_day: events!.n, latest_event_at: events!.latest.toISOString() });
    assert.deepEqual(body.crawl, {
      domains: 3,
      due: 1,
      in_progress: 0,
      failing: 1,
      never_crawled: 0,
      oldest_due_at: new Date(clock.now().getTime() - hour).toISOString(),
      crawled_last_day: { total: 2, by_outcome: { found: 1, absent: 1, invalid: 0, transient: 0 } },
    });
  });

  it('answers memory between refreshes: index counts move with the feed, the summary with its refresh', async () => {
    const before = await stats();
    await publishAdagents(server.db, 'newcomer.example', {
      properties: [
        {
          property_id: 'site',
          property_type: 'website',
          name: 'Newcomer',
          identifiers: [{ type: 'domain', value: 'newcomer.example' }],
        },
      ],
      authorized_agents: [],
    });
    await settled(server);
    const moved = await stats();
    assert.deepEqual(moved.publishers, { total: 3, active: 2, stale: 1 });
    assert.equal(moved.feed.events_last_day, before.feed.events_last_day, 'the summary waits for its refresh');
    assert.equal(moved.as_of, before.as_of);

    // A day and more later, nothing happened in the last day.
    clock.advance(25 * hour);
    await server.app.registrySummary.refresh();
    const later = await stats();
    assert.equal(later.as_of, clock.now().toISOString());
    assert.equal(later.feed.events_last_day, 0);
    assert.ok(
      Date.parse(later.feed.latest_event_at) > Date.parse(before.feed.latest_event_at),
      'the newcomer’s events are the latest',
    );
    assert.equal(later.crawl.crawled_last_day.total, 0);
    assert.equal(later.crawl.due, 3);
  });
});

it('the feed window’s id bound is the smallest UUID v7 of its millisecond', () => {
  assert.equal(firstEventIdAt(new Date(0x0190a5b27c1e)), '0190a5b2-7c1e-0000-0000-000000000000');
  assert.ok('0190a5b2-7c1e-7000-8000-000000000000' > firstEventIdAt(new Date(0x0190a5b27c1e)));
  assert.ok('0190a5b2-7c1d-7fff-bfff-ffffffffffff' < firstEventIdAt(new Date(0x0190a5b27c1e)));
});
