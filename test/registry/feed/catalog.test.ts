import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { publishAdagents } from '../../support/authorization-world.ts';
import { eachEngine } from '../../support/engines.ts';
import { readToEnd } from '../../support/feed.ts';
import { json, type Json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

/**
 * The spec's re-bootstrap paths: the property catalog and the collections sync, each a paged
 * snapshot whose feed cursor is taken before its first page. A client that loads every page and
 * then applies the feed from that cursor misses nothing, even what changed while it paged.
 */
eachEngine('the catalog and the collections sync', (engine) => {
  let server: TestServer;
  const listing = async (
    path: string,
    query: Record<string, string> = {},
    headers: Record<string, string> = asAdmin,
  ) => {
    const res = await fetch(`${server.url}/api/registry/${path}?${new URLSearchParams(query)}`, { headers });
    return { status: res.status, body: await json(res) };
  };

  const save = async (domain: string, name: string) => {
    const res = await postJson(`${server.url}/api/properties/save`, {
      publisher_domain: domain,
      authorized_agents: [],
      properties: [{ type: 'website', name }],
    });
    assert.ok(res.status === 200 || res.status === 201, `${domain}: ${res.status} ${await res.text()}`);
  };
  const entry = (n: number) => `contributed-${n}.example`;

  // Each crawled publisher has two properties and two collections, renamed at each new version.
  const versions = new Map<number, number>();
  const publisher = (n: number) => `pub-${n}.example`;
  const crawl = async (n: number) => {
    const version = (versions.get(n) ?? 0) + 1;
    versions.set(n, version);
    const domain = publisher(n);
    await publishAdagents(server.db, domain, {
      properties: [
        {
          property_id: 'site',
          property_type: 'website',
          name: `Site ${n} v${version}`,
          identifiers: [{ type: 'domain', value: domain }],
          tags: ['news'],
        },
        {
          property_id: 'app',
          property_type: 'mobile_app',
          name: `App ${n} v${version}`,
          identifiers: [{ type: 'ios_bundle', value: `com.pub${n}.app` }],
          tags: ['app'],
        },
      ],
      collections: ['show', 'news'].map((id) => ({
        collection_id: id,
        name: `${id} ${n} v${version}`,
        kind: 'series',
        distribution: [
          { publisher_domain: 'youtube.com', identifiers: [{ type: 'youtube_channel_id', value: `UC-${id}-${n}` }] },
        ],
      })),
      authorized_agents: [
        {
          url: 'https://sales.example/mcp',
          authorized_for: 'All',
          authorization_type: 'property_tags',
          property_tags: ['news'],
        },
      ],
    });
  };
  /** Which publisher an item or event belongs to, to write to it again. */
  const publisherNumber = (domain: string) => Number(/^pub-(\d+)\.example$/.exec(domain)?.[1]);

  before(async () => {
    server = await startTestServer(engine, {
      env: {
        RATE_LIMIT_SAVES_PER_HOUR: '10000',
        RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '10000',
        RATE_LIMIT_SAVES_PER_HOUR_PER_ORG: '10000',
      },
    });
    for (let n = 0; n < 12; n++) await save(entry(n), `Contributed ${n}`);
    for (let n = 0; n < 8; n++) await crawl(n);
  });
  after(() => server.close());

  /** Every page of a listing, `limit` items each, with `between(firstPage)` racing each page after the first. */
  const pageThrough = async (path: string, limit: number, between: (first: Json[]) => Promise<void>) => {
    const pages: Json[][] = [];
    let token: string | undefined;
    let cursor: string | null | undefined;
    do {
      const [{ status, body }] = await Promise.all([
        listing(path, { limit: String(limit), ...(token ? { page_token: token } : {}) }),
        pages.length > 0 ? between(pages[0]!) : undefined,
      ]);
      assert.equal(status, 200, JSON.stringify(body));
      if (cursor === undefined) cursor = body.cursor;
      assert.equal(body.cursor, cursor, 'every page carries the cursor taken before the first');
      assert.ok(body.items.length <= limit);
      pages.push(body.items);
      token = body.next_page_token ?? undefined;
      assert.equal(body.has_more, token !== undefined);
    } while (token);
    assert.ok(pages.length > 2, `paged (${pages.length} pages)`);
    return { items: pages.flat(), cursor: cursor ?? undefined };
  };

  const everything = async (path: string) => {
    const { status, body } = await listing(path, { limit: '1000' });
    assert.equal(status, 200);
    assert.equal(body.has_more, false);
    return body.items as Json[];
  };
  const keyOf = (item: Json) => `${item.entity_type} ${item.entity_id}`;
  /** An event's payload as the listing's item carries the entity: the state without what only describes the change. */
  const stateOf = (event: Json): Json => {
    if (event.payload.entry) return event.payload.entry;
    const { changed_fields: _changed, ...state } = event.payload;
    return state;
  };

  /**
   * The bootstrap contract: each entity exactly once across the pages, none that existed before the
   * first page missing, and the pages plus the feed from their cursor (types of the listing) equal
   * to the listing read afresh, for the entity types whose events carry their whole state.
   */
  const assertBootstrap = async (
    path: string,
    types: string,
    paged: { items: Json[]; cursor: string | undefined },
    existing: Json[],
    wholeState: string[],
  ) => {
    const keys = paged.items.map(keyOf);
    assert.equal(new Set(keys).size, keys.length, 'no entity twice');
    for (const item of existing)
      assert.ok(keys.includes(keyOf(item)), `${keyOf(item)}, there before the first page, is in the pages`);

    const mirror = new Map(
      paged.items.filter((i) => wholeState.includes(i.entity_type)).map((i) => [keyOf(i), i.data]),
    );
    const { events } = await readToEnd(server.url, { cursor: paged.cursor, types, limit: 7 });
    for (const event of events.filter((e) => wholeState.includes(e.entity_type)))
      mirror.set(keyOf(event), stateOf(event));

    const source = new Map(
      (await everything(path)).filter((i) => wholeState.includes(i.entity_type)).map((i) => [keyOf(i), i.data]),
    );
    assert.ok(
      source.size > existing.filter((i) => wholeState.includes(i.entity_type)).length,
      'entities were added while paging',
    );
    assert.deepEqual(mirror, source);
    return { events, source };
  };

  describe('the catalog', () => {
    it('pages through property entries, publishers and their properties with identifiers and tags', async () => {
      const items = await everything('catalog');
      const types = new Set(items.map((i) => i.entity_type));
      assert.deepEqual([...types].sort(), ['property', 'publisher']);
      assert.equal(items.filter((i) => i.entity_type === 'publisher').length, versions.size);
      const site = items.find(
        (i) => i.data.property?.property_id === 'site' && i.data.publisher_domain === publisher(0),
      );
      assert.deepEqual(site?.data.identifiers, [{ type: 'domain', value: publisher(0) }]);
      assert.deepEqual(site?.data.property.tags, ['news']);
      assert.ok(items.some((i) => i.data.source === 'community' && i.data.publisher_domain === entry(0)));
      // Collections and authorizations are not the catalog's.
      assert.ok(!items.some((i) => i.data.collection_rid || i.data.agent_url));
    });

    it('gives every entity once, and the feed from its cursor carries each change made while paging', async () => {
      const existing = await everything('catalog');
      let next = 0;
      const written = new Set<string>();
      // After each page: a contributed entry revised and one added, a publisher recrawled and one added;
      // after the first, also a revision of an entry and of a publisher that page already showed.
      const between = async (first: Json[]) => {
        if (next === 0) {
          const shown = first.find((i) => i.data.source === 'community')!;
          await save(shown.data.publisher_domain, 'Revised after the first page');
          written.add(shown.entity_id);
        }
        next++;
        await save(entry(next % 12), `Contributed ${next % 12} revised ${next}`);
        await save(entry(100 + next), `Contributed ${100 + next}`);
        await crawl(next % 8);
        await crawl(100 + next);
      };
      const paged = await pageThrough('catalog', 5, between);
      assert.ok(next >= 2, 'writes overlapped the paging');
      const { events } = await assertBootstrap('catalog', 'property.*,publisher.*', paged, existing, ['property']);

      // The revision made right after the first page, of an entry that page showed, came by the feed.
      const [revised] = written;
      assert.ok(
        events.some(
          (e) => e.entity_id === revised && e.payload.entry?.properties[0].name === 'Revised after the first page',
        ),
      );
      // Publishers crawled while paging are in the catalog, once, now or by the feed.
      const domains = new Set(
        [...paged.items, ...events].filter((x) => x.entity_type === 'publisher').map((x) => x.entity_id),
      );
      for (let n = 101; n <= 100 + next; n++) assert.ok(domains.has(publisher(n)), publisher(n));
    });

    it('requires a credential', async () => {
      assert.equal((await listing('catalog', {}, {})).status, 401);
    });
  });

  describe('the collections sync', () => {
    it('pages through the collections with their distribution identifiers, and nothing else', async () => {
      const items = await everything('catalog/collections/sync');
      assert.ok(items.length >= 16);
      assert.ok(items.every((i) => i.entity_type === 'collection'));
      const show = items.find((i) => i.data.publisher_domain === publisher(0) && i.data.collection_id === 'show');
      assert.deepEqual(show?.data.identifiers, [
        { type: 'youtube_channel_id', value: 'UC-show-0', publisher_domain: 'youtube.com' },
      ]);
    });

    it('gives every collection once, and the feed from its cursor carries each change made while paging', async () => {
      const existing = await everything('catalog/collections/sync');
      let next = 0;
      let renamed: number | undefined;
      // After the first page, its publisher's collections are renamed (already shown: only the feed
      // can tell); after each page, another publisher is recrawled and a new one added.
      const between = async (first: Json[]) => {
        if (next === 0) {
          renamed = publisherNumber(first[0]!.data.publisher_domain);
          await crawl(renamed);
        }
        next++;
        await crawl((renamed! + next) % 8);
        await crawl(200 + next);
      };
      const paged = await pageThrough('catalog/collections/sync', 3, between);
      assert.ok(next >= 2, 'writes overlapped the paging');
      const { events, source } = await assertBootstrap('catalog/collections/sync', 'collection.*', paged, existing, [
        'collection',
      ]);

      const shown = paged.items.find((i) => i.data.publisher_domain === publisher(renamed!))!;
      assert.ok(
        events.some((e) => e.entity_id === shown.entity_id && e.event_type === 'collection.updated'),
        'the rename of a collection the first page showed is in the feed after the cursor',
      );
      assert.notEqual(source.get(keyOf(shown))?.name, shown.data.name);
    });

    it('requires a credential', async () => {
      assert.equal((await listing('catalog/collections/sync', {}, {})).status, 401);
    });
  });

  describe('bad page tokens and limits', () => {
    const forge = (fields: Record<string, unknown>) => Buffer.from(JSON.stringify(fields)).toString('base64url');
    const uuid = '0190a5b2-0000-7000-8000-000000000000';

    for (const [path, of] of [
      ['catalog', 'catalog'],
      ['catalog/collections/sync', 'collections'],
    ] as const) {
      it(`${path}: 400 for a limit out of range and for a page token it did not issue`, async () => {
        for (const limit of ['0', '1001', 'many']) {
          const { status, body } = await listing(path, { limit });
          assert.equal(status, 400, limit);
          assert.equal(body.error, 'validation_failed');
          assert.equal(body.details[0].field, 'limit');
        }
        for (const token of [
          'not-a-token',
          forge({ of, cursor: 'x', section: '0' }),
          forge({ of, cursor: uuid, section: '0', after: 'not-a-uuid' }),
          forge({ of, cursor: uuid, section: '9' }),
          forge({ of: 'someone-else', cursor: uuid, section: '0' }),
          // The registry snapshot's own token: its section numbers mean other sections.
          forge({ cursor: uuid, section: '0' }),
        ]) {
          const { status, body } = await listing(path, { page_token: token });
          assert.equal(status, 400, token);
          assert.equal(body.error, 'invalid_cursor', token);
        }
        assert.equal((await listing(path, { page_token: 'x'.repeat(1025) })).status, 400);
        assert.equal((await listing(path, { page_token: forge({ of, cursor: uuid, section: '0' }) })).status, 200);
      });
    }

    it('refuses a token of one listing in another, the registry snapshot included', async () => {
      const catalogToken = (await listing('catalog', { limit: '1' })).body.next_page_token;
      const collectionsToken = (await listing('catalog/collections/sync', { limit: '1' })).body.next_page_token;
      const snapshotToken = (await listing('snapshot', { limit: '1' })).body.next_page_token;
      for (const [path, token] of [
        ['catalog/collections/sync', catalogToken],
        ['snapshot', catalogToken],
        ['catalog', collectionsToken],
        ['catalog', snapshotToken],
      ]) {
        const { status, body } = await listing(path, { page_token: token });
        assert.equal(status, 400, `${path} with another listing's token`);
        assert.equal(body.error, 'invalid_cursor');
      }
      assert.equal((await listing('snapshot', { page_token: snapshotToken })).status, 200);
    });
  });
});
