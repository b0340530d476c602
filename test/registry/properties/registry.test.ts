import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { markEntryStale, saveAuthoritative } from '../../../src/registry/properties/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const authoritative: [string, string][] = [
  ['alphanews.example', 'Alpha News'],
  ['betasports.example', 'Beta Sports'],
  ['gammanews.example', 'Gamma'],
];
const community: [string, string][] = [
  ['newsdaily.example', 'The Daily'],
  ['sale.example', '50% off deals'],
  ['hub.example', 'deals_hub'],
  ['backslash.example', 'back\\slash'],
];
const fillers = Array.from({ length: 25 }, (_, i) => `filler${String(i).padStart(2, '0')}.example`);

eachEngine('property registry listing', (engine) => {
  let server: TestServer;
  const list = (query = '') => fetch(`${server.url}/api/properties/registry${query ? `?${query}` : ''}`);
  const domainsOf = (page: Json): string[] => page.properties.map((p: Json) => p.publisher_domain);
  const save = (domain: string, name?: string) =>
    postJson(`${server.url}/api/properties/save`, {
      publisher_domain: domain,
      authorized_agents: [],
      ...(name ? { properties: [{ type: 'website', name }] } : {}),
    });
  /** Every domain in the database's own order, which the listing follows. */
  const stored = async () =>
    (
      await server.db.query<{ d: string }>('select publisher_domain as d from properties order by publisher_domain')
    ).map((r) => r.d);

  /** Follows the cursor from the first page to the last; `between` runs after each page. */
  const walk = async (query: string, between?: (page: number) => Promise<void>) => {
    const seen: string[] = [];
    const pages: Json[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(res.status, 200);
      const page = await json(res);
      pages.push(page);
      seen.push(...domainsOf(page));
      assert.equal(page.has_more, page.cursor !== null);
      cursor = page.cursor;
      await between?.(pages.length);
      assert.ok(pages.length < 50, 'the walk ends');
    } while (cursor);
    return { seen, pages };
  };

  before(async () => {
    server = await startTestServer(engine, {
      env: { RATE_LIMIT_SAVES_PER_HOUR: '1000', RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '1000' },
    });
    for (const [domain, name] of authoritative) {
      await server.db.transaction((tx) =>
        saveAuthoritative(tx, domain, { authorized_agents: [], inventory: [{ type: 'website', name }], contact: null }),
      );
    }
    for (const [domain, name] of community) assert.equal((await save(domain, name)).status, 201);
    for (const domain of fillers) assert.equal((await save(domain)).status, 201);
  });
  after(() => server.close());

  describe('listing', () => {
    it('lists every entry in publisher-domain order, 50 to a page by default, with totals by source', async () => {
      const res = await list();
      assert.equal(res.status, 200);
      const page = await json(res);
      assert.deepEqual(domainsOf(page), await stored());
      assert.equal(page.properties.length, 32);
      assert.equal(page.total, 32);
      assert.deepEqual(page.counts, { adagents_json: 3, community: 29 });
      assert.equal(page.has_more, false);
      assert.equal(page.cursor, null);
    });

    it('shows each entry as resolve does, with the summary the protocol’s registry client reads', async () => {
      const page = await json(await list('q=alphanews'));
      assert.equal(page.properties.length, 1);
      const { domain, property_count, agent_count, ...entry } = page.properties[0];
      assert.deepEqual(entry, await json(await fetch(`${server.url}/api/properties/resolve?domain=alphanews.example`)));
      assert.deepEqual(
        { domain, property_count, agent_count, verified: entry.verified },
        { domain: 'alphanews.example', property_count: 1, agent_count: 0, verified: true },
      );
    });

    it('answers 400 for a limit outside 1..200 and an unknown source', async () => {
      for (const query of ['limit=0', 'limit=201', 'limit=many', 'source=enriched']) {
        const res = await list(query);
        assert.equal(res.status, 400, query);
        assert.equal((await json(res)).error, 'validation_failed', query);
      }
    });
  });

  describe('keyset pagination', () => {
    it('walks every page once: no duplicates, no gaps, the same totals on every page', async () => {
      const { seen, pages } = await walk('limit=7');
      assert.deepEqual(seen, await stored());
      assert.equal(new Set(seen).size, seen.length);
      assert.deepEqual(
        pages.map((p) => p.properties.length),
        [7, 7, 7, 7, 4],
      );
      for (const page of pages) {
        assert.equal(page.total, 32);
        assert.deepEqual(page.counts, { adagents_json: 3, community: 29 });
      }
    });

    it('ends without an empty page when the last page is exactly full', async () => {
      const { pages } = await walk('limit=8');
      assert.deepEqual(
        pages.map((p) => p.properties.length),
        [8, 8, 8, 8],
      );
    });

    it('walks a filtered listing the same way', async () => {
      const { seen } = await walk('limit=4&q=filler');
      assert.deepEqual(seen, fillers);
      const bySource = await walk('limit=2&source=adagents_json');
      assert.deepEqual(
        bySource.seen,
        authoritative.map(([d]) => d),
      );
    });

    it('stays stable while entries are added during the walk', async () => {
      const before = await stored();
      const { seen } = await walk('limit=5', async (page) => {
        if (page !== 2) return;
        // One entry sorting before the position already passed, one after it.
        assert.equal((await save('aaaa.example')).status, 201);
        assert.equal((await save('zzzz.example')).status, 201);
      });
      assert.equal(new Set(seen).size, seen.length, 'no entry twice');
      assert.deepEqual(
        seen,
        (await stored()).filter((d) => d !== 'aaaa.example'),
      );
      assert.equal(seen.length, before.length + 1);
      assert.ok(seen.includes('zzzz.example'), 'an entry added ahead of the cursor is reached');
      assert.ok(!seen.includes('aaaa.example'), 'an entry added behind the cursor does not shift the pages');
    });

    it('answers 400 invalid_cursor for a cursor it did not issue', async () => {
      const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      for (const cursor of [
        'not a cursor',
        '%%%',
        forged({ id: 'x' }),
        forged({ domain: 5 }),
        forged('filler01.example'),
        forged(null),
      ]) {
        const res = await list(`cursor=${encodeURIComponent(cursor)}`);
        assert.equal(res.status, 400, cursor);
        assert.equal((await json(res)).error, 'invalid_cursor', cursor);
      }
      const tooLong = await list(`cursor=${'a'.repeat(513)}`);
      assert.equal(tooLong.status, 400);
    });
  });

  describe('search and filters', () => {
    it('q matches a case-insensitive substring of the publisher domain or a property name', async () => {
      const page = await json(await list('q=NEWS'));
      assert.deepEqual(domainsOf(page).sort(), ['alphanews.example', 'gammanews.example', 'newsdaily.example']);
      assert.equal(page.total, 3);
      assert.deepEqual(page.counts, { adagents_json: 2, community: 1 });
      assert.deepEqual(domainsOf(await json(await list('q=daily'))), ['newsdaily.example']);
      assert.deepEqual(domainsOf(await json(await list('q=beta%20SPORTS'))), ['betasports.example']);
      const none = await json(await list('q=nothing-matches-this'));
      assert.deepEqual(none.properties, []);
      assert.equal(none.total, 0);
      assert.deepEqual(none.counts, { adagents_json: 0, community: 0 });
    });

    it('source filters the entries and total, while counts cover both sources', async () => {
      const communityPage = await json(await list('source=community&q=news'));
      assert.deepEqual(domainsOf(communityPage), ['newsdaily.example']);
      assert.equal(communityPage.total, 1);
      assert.deepEqual(communityPage.counts, { adagents_json: 2, community: 1 });
      const owned = await json(await list('source=adagents_json'));
      assert.deepEqual(
        domainsOf(owned),
        authoritative.map(([d]) => d),
      );
      assert.ok(owned.properties.every((p: Json) => p.source === 'adagents_json'));
      assert.equal(owned.total, 3);
    });

    it('takes % and _ in q literally, not as wildcards', async () => {
      assert.deepEqual(domainsOf(await json(await list('q=%25'))), ['sale.example']);
      assert.deepEqual(domainsOf(await json(await list('q=50%25%20off'))), ['sale.example']);
      assert.deepEqual(domainsOf(await json(await list('q=_'))), ['hub.example']);
      assert.deepEqual(domainsOf(await json(await list('q=s_le'))), [], '_ is not any character');
      assert.deepEqual(domainsOf(await json(await list('q=50%25deals'))), [], '% is not any run of characters');
      assert.deepEqual(
        domainsOf(await json(await list('q=k%5Cs'))),
        ['backslash.example'],
        'a backslash is literal too',
      );
      const counted = await json(await list('q=%25'));
      assert.equal(counted.total, 1);
      assert.deepEqual(counted.counts, { adagents_json: 0, community: 1 });
    });

    it('an empty q lists everything', async () => {
      assert.equal((await json(await list('q='))).total, (await stored()).length);
    });
  });

  describe('the protocol’s registry client’s parameters and stats', () => {
    it('takes search as q and pages by offset', async () => {
      const bySearch = await json(await list('search=news&limit=2&offset=1'));
      const all = domainsOf(await json(await list('q=news')));
      assert.deepEqual(domainsOf(bySearch), all.slice(1, 3));
      assert.equal(bySearch.total, all.length);
    });

    it('counts stale entries in stats, beside the counts by source', async () => {
      const before = await json(await list());
      assert.deepEqual(before.stats, { total: before.total, ...before.counts, stale: 0 });
      await server.db.transaction((tx) => markEntryStale(tx, 'betasports.example'));
      const page = await json(await list('q=betasports'));
      assert.deepEqual(page.stats, { total: 1, adagents_json: 1, community: 0, stale: 1 });
      assert.equal(page.properties[0].verified, false, 'its publisher’s file is gone: not verified now');
    });
  });
});
