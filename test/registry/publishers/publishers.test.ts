import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { markStale } from '../../../src/registry/graph/index.ts';
import { publishAdagents } from '../../support/authorization-world.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { assertRejected, settled } from '../lookups/world.ts';

const agent = 'https://sales.example/mcp';
const file = (domain: string) => ({
  properties: [
    { property_id: 'site', property_type: 'website', name: domain, identifiers: [{ type: 'domain', value: domain }] },
  ],
  authorized_agents: [
    {
      url: agent,
      authorized_for: 'All',
      authorization_type: 'property_ids',
      property_ids: ['site'],
      delegation_type: 'direct',
    },
  ],
});
const numbered = (i: number) => `pub-${String(i).padStart(2, '0')}.example`;

/** GET /api/registry/publishers: keyset pages that never skip or repeat, and a search people can use. */
eachEngine('the publisher listing', (engine) => {
  let server: TestServer;
  const list = async (query: string) => {
    const res = await fetch(`${server.url}/api/registry/publishers${query}`);
    const body = await json(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  };
  const publish = async (...domains: string[]) => {
    for (const domain of domains) await publishAdagents(server.db, domain, file(domain));
    await settled(server);
  };
  const named = [
    'planet.example',
    'dailyplanet.example',
    'news.planet.example',
    'planetary.example',
    'xn--mnchen-3ya.example',
  ];

  before(async () => {
    server = await startTestServer(engine);
    await publish(...Array.from({ length: 20 }, (_, i) => numbered(i * 2)), ...named);
    await server.db.transaction((tx) =>
      markStale(tx, 'planetary.example', 'adagents.json answered HTTP 404', new Date()),
    );
    await settled(server);
  });
  after(() => server.close());

  describe('pages', () => {
    it('in domain order, each with its counts', async () => {
      const body = await list('?limit=3');
      assert.deepEqual(
        body.publishers.map((p: Json) => p.domain),
        ['dailyplanet.example', 'news.planet.example', 'planet.example'],
      );
      // With, beside ours, what the protocol's registry client reads of a publisher (test/contract/publishers.test.ts).
      assert.match(body.publishers[0].discovered_at, /^\d{4}-\d\d-\d\dT/);
      assert.deepEqual(body.publishers[0], {
        domain: 'dailyplanet.example',
        status: 'active',
        stale_reason: null,
        manager_domain: null,
        property_count: 1,
        stale_property_count: 0,
        collection_count: 0,
        agent_count: 1,
        authorization_count: 1,
        source: 'discovered',
        has_valid_adagents: true,
        discovered_at: body.publishers[0].discovered_at,
      });
      assert.equal(body.count, 3);
      assert.equal(body.total, 25);
      assert.equal(body.has_more, true);
      assert.equal(typeof body.cursor, 'string');
    });

    it('never skip or repeat a publisher while others are added between pages', async () => {
      const before = (await list('?limit=500')).publishers.map((p: Json) => p.domain as string);
      const seen: string[] = [];
      let cursor: string | null = null;
      let added = 0;
      do {
        const body: Json = await list(`?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...body.publishers.map((p: Json) => p.domain));
        cursor = body.cursor;
        assert.equal(body.has_more, cursor !== null);
        // Between pages: one publisher sorting before where we are, one after.
        if (cursor && added < 5) {
          await publish(numbered(added * 2 + 1), numbered(39 - added * 2));
          added++;
        }
      } while (cursor);
      assert.equal(new Set(seen).size, seen.length, `no repeats: ${seen.join(' ')}`);
      assert.deepEqual([...seen].sort(), seen, 'in order');
      for (const domain of before) assert.ok(seen.includes(domain), `${domain} was not skipped`);
      // Those added after the cursor show up in a later page; those added before it do not come back.
      for (let i = 0; i < added; i++) assert.ok(seen.includes(numbered(39 - i * 2)), numbered(39 - i * 2));
      assert.equal((await list('?limit=1')).total, 25 + added * 2);
    });

    it('filter by the file’s state', async () => {
      const stale = await list('?status=stale');
      assert.deepEqual(
        stale.publishers.map((p: Json) => [p.domain, p.status, p.stale_reason, p.stale_property_count]),
        [['planetary.example', 'stale', 'adagents.json answered HTTP 404', 1]],
      );
      assert.equal(stale.total, 1);
      const active = await list('?status=active&limit=500');
      assert.ok(active.publishers.every((p: Json) => p.status === 'active'));
      assert.equal(active.total, active.count);
      assert.equal(active.total + 1, (await list('?limit=1')).total);
    });
  });

  describe('search', () => {
    it('finds part of a domain: those starting with it first, then a label starting with it, then the rest', async () => {
      const body = await list('?q=planet');
      assert.deepEqual(
        body.publishers.map((p: Json) => p.domain),
        ['planet.example', 'planetary.example', 'news.planet.example', 'dailyplanet.example'],
      );
      assert.equal(body.total, 4);
    });

    it('takes what people paste: any case, a URL', async () => {
      assert.deepEqual(
        (await list('?q=HTTPS://Planet.Example/some/page')).publishers.map((p: Json) => p.domain),
        ['planet.example', 'news.planet.example', 'dailyplanet.example'],
      );
      assert.deepEqual(
        (await list('?q=DAILY')).publishers.map((p: Json) => p.domain),
        ['dailyplanet.example'],
      );
      assert.deepEqual((await list('?q=nothing-like-this')).publishers, []);
    });

    it('matches internationalized domains in Unicode and in punycode', async () => {
      assert.deepEqual(
        (await list(`?q=${encodeURIComponent('münchen')}`)).publishers.map((p: Json) => p.domain),
        ['xn--mnchen-3ya.example'],
      );
      assert.deepEqual(
        (await list('?q=xn--mnchen')).publishers.map((p: Json) => p.domain),
        ['xn--mnchen-3ya.example'],
      );
    });

    it('pages through ranked results without skipping or repeating', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const body: Json = await list(`?q=planet&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...body.publishers.map((p: Json) => p.domain));
        cursor = body.cursor;
      } while (cursor);
      assert.deepEqual(seen, ['planet.example', 'planetary.example', 'news.planet.example', 'dailyplanet.example']);
    });
  });

  describe('refusals', () => {
    it('400 for a malformed cursor, a limit out of bounds, an unknown status or an empty search', async () => {
      const get = (query: string) => fetch(`${server.url}/api/registry/publishers${query}`);
      await assertRejected(await get('?cursor=not-a-cursor'), { error: 'invalid_cursor' });
      await assertRejected(
        await get(`?cursor=${Buffer.from(JSON.stringify({ domain: 'a.example', rank: '9' })).toString('base64url')}`),
        { error: 'invalid_cursor' },
      );
      for (const limit of ['0', '501', 'many'])
        await assertRejected(await get(`?limit=${limit}`), { error: 'validation_failed' });
      await assertRejected(await get('?status=gone'), { error: 'validation_failed' });
      await assertRejected(await get(`?q=${'a'.repeat(65)}`), { error: 'validation_failed' });
      await assertRejected(await get('?q=https://'), { error: 'validation_failed', in: 'querystring', field: 'q' });
    });
  });
});
