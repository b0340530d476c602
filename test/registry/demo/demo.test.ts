import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyKey } from '../../../src/auth/api-keys/service.ts';
import { systemClock } from '../../../src/clock.ts';
import type { Database } from '../../../src/db/database.ts';
import { saveAuthoritative } from '../../../src/registry/brands/index.ts';
import { enqueueKnownDomains } from '../../../src/registry/crawler/sql.ts';
import { seedDemo } from '../../../src/registry/demo/index.ts';
import { engines, eachEngine, type TestEngine } from '../../support/engines.ts';
import { anotherPool, assertValidPage, getFeed } from '../../support/feed.ts';
import { json, type Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const count = async (db: Database, table: string, where = 'true') =>
  (await db.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`))[0]!.n;

/** A fresh, migrated database of the engine, with no server on it. */
async function emptyDatabase(engine: TestEngine): Promise<Database> {
  const db = await engine.openMigrated();
  return db;
}

eachEngine('the demo registry', (engine) => {
  describe('on a first start with AP_DEMO=true', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(engine, { env: { AP_DEMO: 'true' } });
    });
    after(() => server.close());

    const get = async (path: string) => {
      const res = await fetch(`${server.url}${path}`);
      return { status: res.status, body: await json(res) };
    };

    it('seeds houses whose brands and sub-brands resolve over the HTTP API', async () => {
      const coffee = await get('/api/brands/resolve?domain=trailhead-coffee.example');
      assert.equal(coffee.status, 200);
      assert.deepEqual(
        { ...coffee.body, canonical_id: undefined },
        {
          canonical_id: undefined,
          canonical_domain: 'trailhead-coffee.example',
          brand_name: 'Trailhead Coffee',
          keller_type: 'independent',
          house_domain: 'northwind-group.example',
          source: 'brand_json',
        },
      );
      const outdoor = await get('/api/brands/resolve?domain=northwind-outdoor.example');
      assert.equal(outdoor.body.keller_type, 'sub_brand');
      assert.equal(outdoor.body.house_domain, 'northwind-group.example');
      // A house no brand of its own claims resolves to itself, as its own master brand.
      const house = await get('/api/brands/resolve?domain=orbit-home.example');
      assert.equal(house.body.brand_name, 'Orbit Home Holdings');
      assert.equal(house.body.keller_type, 'master');
      const listed = await get('/api/brands/registry?limit=200');
      assert.equal(listed.status, 200);
      assert.ok(listed.body.brands.length >= 18, `${listed.body.brands.length} brands`);
      // brand.json's palette (roles to hex values) becomes the manifest's color list.
      const lumen = listed.body.brands.find((b: { domain: string }) => b.domain === 'lumen-drinks.example');
      assert.deepEqual(lumen.brand_manifest.colors, [
        { hex: '#1B4D3E', type: 'primary' },
        { hex: '#F2A900', type: 'accent' },
        { hex: '#E86A33', type: 'accent' },
        { hex: '#FFFFFF', type: 'background' },
      ]);
    });

    it('seeds publishers with properties, collections and authorizations of each delegation type, and one stale property', async () => {
      const harbor = await get('/api/properties/resolve?domain=dailyharbor.example');
      assert.equal(harbor.status, 200);
      assert.equal(harbor.body.source, 'adagents_json');
      assert.equal(await count(server.db, 'publishers', `status = 'active'`), 6);
      assert.ok((await count(server.db, 'catalog_properties', `status = 'active'`)) >= 13);
      assert.ok((await count(server.db, 'catalog_collections')) >= 3);
      const delegations = await server.db.query<{ delegation_type: string }>(
        'select distinct delegation_type from authorizations order by 1',
      );
      assert.deepEqual(
        delegations.map((r) => r.delegation_type),
        ['ad_network', 'delegated', 'direct'],
      );
      const stale = await server.db.query<{ publisher_domain: string; property_id: string; stale_reason: string }>(
        `select publisher_domain, property_id, stale_reason from catalog_properties where status = 'stale'`,
      );
      assert.deepEqual(stale, [
        {
          publisher_domain: 'metroweekly.example',
          property_id: 'metro_events',
          stale_reason: 'no longer declared in adagents.json',
        },
      ]);
    });

    it('seeds operators: their agents and the properties they declare, with each relationship', async () => {
      const agents = await server.db.query<{ url: string }>('select url from operator_agents order by url');
      assert.deepEqual(
        agents.map((a) => a.url),
        [
          'https://sales.bluefin-network.example/mcp',
          'https://sales.cobalt-direct.example/mcp',
          'https://sales.meridian-sales.example/mcp',
          'https://sales.streamline-ctv.example/mcp',
        ],
      );
      const relationships = await server.db.query<{ relationship: string }>(
        'select distinct relationship from operator_properties order by 1',
      );
      assert.deepEqual(
        relationships.map((r) => r.relationship),
        ['ad_network', 'delegated', 'direct', 'owned'],
      );
    });

    it('tells the feed, in events the published schema accepts', async () => {
      const events: Json[] = [];
      let cursor: string | undefined;
      for (let more = true; more;) {
        const { status, body } = await getFeed(server.url, { cursor, limit: 20 });
        assert.equal(status, 200);
        assertValidPage(body);
        events.push(...body.events);
        cursor = body.cursor;
        more = body.has_more;
      }
      // Every event but the registry's own types (policy.*, resolution.*), which come only to a subscription naming them.
      assert.equal(
        events.length,
        await count(
          server.db,
          'registry_events',
          `event_type not like 'policy.%' and event_type not like 'resolution.%'`,
        ),
      );
      const types = new Set(events.map((e) => e.event_type));
      for (const type of [
        'publisher.adagents_discovered',
        'publisher.adagents_changed',
        'agent.discovered',
        'property.created',
        'property.stale',
        'collection.created',
        'authorization.granted',
      ]) {
        assert.ok(types.has(type), type);
      }
      assert.equal(events.filter((e) => e.event_type === 'publisher.adagents_discovered').length, 6);
      const stale = events.filter((e) => e.event_type === 'property.stale');
      assert.equal(stale.length, 1);
      assert.equal(stale[0]!.payload.publisher_domain, 'metroweekly.example');
    });

    it('queues none of its .example domains for crawling', async () => {
      assert.equal(await enqueueKnownDomains(server.db, new Date()), 0);
      assert.equal(await count(server.db, 'crawl_targets'), 0);
    });

    it('made no admin key, since AP_ADMIN_KEY is set', async () => {
      assert.equal(await count(server.db, 'api_keys', `name = 'demo registry'`), 0);
    });

    it('seeds once: a second seed finds data and changes nothing', async () => {
      const before = {
        events: await count(server.db, 'registry_events'),
        revisions: await count(server.db, 'brand_revisions'),
      };
      assert.deepEqual(await seedDemo(server.db, systemClock), { seeded: false });
      assert.deepEqual(
        { events: await count(server.db, 'registry_events'), revisions: await count(server.db, 'brand_revisions') },
        before,
      );
    });
  });

  it('never seeds a registry that holds anything, one brand say; that brand, not under .example, is queued for crawling', async () => {
    const server = await startTestServer(engine, {
      env: { AP_DEMO: 'true' },
      // Before the server is ready, so before the demo would seed.
      extend: async (_app, db) => {
        await db.transaction((tx) =>
          saveAuthoritative(tx, {
            domain: 'acme.ap.test',
            brand_name: 'Acme',
            brand_key: null,
            keller_type: 'master',
            house_domain: 'acme.ap.test',
            manifest: { name: 'Acme' },
            aliases: [],
          }),
        );
      },
    });
    try {
      assert.equal(await count(server.db, 'brands'), 1);
      assert.equal(await count(server.db, 'publishers'), 0);
      // The brand's own event (what resolve answers for it), nothing of the demo.
      assert.equal(await count(server.db, 'registry_events', `event_type <> 'resolution.brand_updated'`), 0);
      assert.equal(await enqueueKnownDomains(server.db, new Date()), 1);
    } finally {
      await server.close();
    }
  });

  it('leaves the registry empty with AP_DEMO=false', async () => {
    const server = await startTestServer(engine, { env: { AP_DEMO: 'false' } });
    try {
      for (const table of ['brands', 'properties', 'publishers', 'registry_events'])
        assert.equal(await count(server.db, table), 0, table);
      assert.equal((await fetch(`${server.url}/api/brands/resolve?domain=trailhead-coffee.example`)).status, 404);
    } finally {
      await server.close();
    }
  });

  it('can make an admin key of the operator organization, returned once', async () => {
    const db = await emptyDatabase(engine);
    try {
      const outcome = await seedDemo(db, systemClock, { createAdminKey: true });
      assert.ok(outcome.seeded && outcome.adminKey);
      const verified = await verifyKey(db, outcome.adminKey);
      assert.equal(verified?.principal.organization?.slug, 'admin');
      assert.equal(verified?.principal.organization?.role, 'admin');
      assert.equal(verified?.principal.organization?.registryAdmin, true);
    } finally {
      await db.close();
    }
  });
});

describe('[postgres] two instances seeding one database at once', () => {
  let db: Database;
  let other: Database;
  before(async () => {
    db = await emptyDatabase(engines.find((e) => e.name === 'postgres')!);
    other = await anotherPool(db, 2);
  });
  after(async () => {
    await other.close();
    await db.close();
  });

  it('seed once: one finds the registry empty, the other finds it seeded', async () => {
    const outcomes = await Promise.all([seedDemo(db, systemClock), seedDemo(other, systemClock)]);
    assert.deepEqual(outcomes.map((o) => o.seeded).sort(), [false, true]);
    const seeded = outcomes.find((o) => o.seeded)!;
    assert.ok(seeded.seeded);
    assert.equal(await count(db, 'registry_events'), seeded.events);
    assert.equal(await count(db, 'publishers'), 6);
  });
});
