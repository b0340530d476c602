import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { banner, buyer, list, startSales, sync, video, type Buyer } from './harness.ts';

eachEngine('sales agent: list_creatives', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  let b: Buyer;
  let other: Buyer;
  let pkg: string;
  let mediaBuyId: string;
  const ids = async (args: Record<string, unknown>) =>
    ((await list(b, { account: b.account, ...args })).creatives as Json[]).map((c) => c.creative_id as string);

  before(async () => {
    server = await startSales(engine, clock);
    b = await buyer(server, clock);
    other = await buyer(server, clock, { org: true });
    const buy = await b.create();
    mediaBuyId = buy.media_buy_id;
    pkg = buy.packages[0].package_id;
    // One a minute, so creation order is plain: a, b, c, d, e.
    for (const creative of [
      banner(server, 'a', { tags: ['q1', 'hero'] }),
      banner(server, 'b', { tags: ['q1'] }),
      video(server, 'c'),
      banner(server, 'd', { name: 'Summer Sale' }),
      banner(server, 'e'),
    ]) {
      await sync(b, [creative]);
      clock.advance(60_000);
    }
    await sync(b, [banner(server, 'b', { tags: ['q1'] })], {
      assignments: [
        { creative_id: 'b', package_id: pkg },
        { creative_id: 'd', package_id: pkg },
      ],
    });
    await sync(other, [banner(server, 'z')]);
  });
  after(async () => {
    await b.client.close();
    await other.client.close();
    await server.close();
  });

  it('lists the caller’s creatives newest first, with format, status, assets and assignments', async () => {
    const answer = await list(b, { account: b.account });
    assert.deepEqual(
      answer.creatives.map((c: Json) => c.creative_id),
      ['e', 'd', 'c', 'b', 'a'],
    );
    assert.deepEqual(answer.query_summary.sort_applied, { field: 'created_date', direction: 'desc' });
    assert.deepEqual(
      [answer.query_summary.total_matching, answer.query_summary.returned, answer.pagination.has_more],
      [5, 5, false],
    );
    const d = answer.creatives[1];
    assert.deepEqual(d.format_id, { agent_url: `${server.url}/creative/mcp`, id: 'display_300x250' });
    assert.equal(d.status, 'pending_review');
    assert.equal(d.assets.banner_image.width, 300);
    assert.deepEqual([d.assignments.assignment_count, d.assignments.assigned_packages[0].package_id], [1, pkg]);
    assert.equal(answer.creatives[0].assignments.assignment_count, 0);
    assert.deepEqual(
      await ids({ account: undefined }),
      ['e', 'd', 'c', 'b', 'a'],
      'all of the caller’s accounts when none is named',
    );
  });

  it('filters by tags, name, ids, format, dates and assignment', async () => {
    assert.deepEqual(await ids({ filters: { tags: ['q1', 'hero'] } }), ['a']);
    assert.deepEqual(await ids({ filters: { tags_any: ['hero', 'q1'] } }), ['b', 'a']);
    assert.deepEqual(await ids({ filters: { name_contains: 'summer' } }), ['d']);
    assert.deepEqual(await ids({ filters: { creative_ids: ['a', 'c', 'nope'] } }), ['c', 'a']);
    assert.deepEqual(
      await ids({ filters: { format_ids: [{ agent_url: `${server.url}/creative/mcp`, id: 'video_15s' }] } }),
      ['c'],
    );
    assert.deepEqual(await ids({ filters: { statuses: ['approved'] } }), []);
    assert.deepEqual(
      await ids({
        filters: {
          statuses: ['pending_review'],
          created_after: new Date(clock.now().getTime() - 150_000).toISOString(),
        },
      }),
      ['e', 'd'],
    );
    assert.deepEqual(await ids({ filters: { assigned_to_packages: [pkg] } }), ['d', 'b']);
    assert.deepEqual(await ids({ filters: { media_buy_ids: [mediaBuyId] } }), ['d', 'b']);
    assert.deepEqual(await ids({ filters: { unassigned: true } }), ['e', 'c', 'a']);
    assert.deepEqual(await ids({ filters: { unassigned: false } }), ['d', 'b']);
    assert.deepEqual(await ids({ filters: { has_served: true } }), [], 'nothing here has served');
  });

  it('sorts and pages with a cursor, every creative once', async () => {
    assert.deepEqual(await ids({ sort: { field: 'name', direction: 'asc' } }), ['a', 'b', 'e', 'd', 'c']);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(b, {
        account: b.account,
        sort: { field: 'created_date', direction: 'asc' },
        pagination: { max_results: 2, ...(cursor ? { cursor } : {}) },
      });
      seen.push(...page.creatives.map((c: Json) => c.creative_id));
      assert.equal(page.pagination.total_count, 5);
      cursor = page.pagination.has_more ? page.pagination.cursor : undefined;
    } while (cursor);
    assert.deepEqual(seen, ['a', 'b', 'c', 'd', 'e']);
    const bad = await b.fail('list_creatives', { pagination: { cursor: 'not-a-cursor' } });
    assert.deepEqual([bad.code, bad.field], ['INVALID_REQUEST', 'pagination.cursor']);
  });

  it('shows another caller nothing of these creatives', async () => {
    assert.deepEqual(
      ((await list(other, {})).creatives as Json[]).map((c) => c.creative_id),
      ['z'],
    );
    assert.deepEqual(((await list(other, { filters: { assigned_to_packages: [pkg] } })).creatives as Json[]).length, 0);
    const foreign = await other.fail('list_creatives', { filters: { accounts: [b.account] } });
    assert.equal(foreign.code, 'ACCOUNT_NOT_FOUND');
    assert.deepEqual(
      await ids({ account: undefined, filters: { accounts: [b.account], creative_ids: ['a'] } }),
      ['a'],
      'filters.accounts names the caller’s own',
    );
  });
});
