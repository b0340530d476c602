import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../../../src/db/database.ts';
import * as graph from '../../../src/registry/graph/sql/index.ts';
import { target } from '../../../src/registry/crawler/sql.ts';
import { extensionEventTypes } from '../../../src/registry/feed/event-types.ts';
import { saveCommunity } from '../../../src/registry/properties/service.ts';
import type { Principal } from '../../../src/auth/principal.ts';
import { eachEngine } from '../../support/engines.ts';
import { startFleet, type Fleet } from '../../support/publisher-fleet.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';
import { json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { assertValidEvent, type EventRow } from '../properties/feed.ts';
import { adagents, agent, property } from './documents.ts';

const ADAGENTS = '/.well-known/adagents.json';
const BRAND = '/.well-known/brand.json';
const names = Array.from({ length: 68 }, (_, i) => `pub-${i}`).concat(['manager', 'house']);
const d = (i: number) => `pub-${i}.ap.test`;

eachEngine('crawler against a fleet of publishers', (engine) => {
  let fleet: Fleet;
  let server: TestServer;
  let seen = '00000000-0000-0000-0000-000000000000';

  before(async () => {
    fleet = await startFleet(names);
    server = await startTestServer(engine, {
      env: {
        CRAWL_WORKER: 'false',
        CRAWL_HOST_DELAY_MS: '0',
        CRAWL_TIMEOUT_MS: '800',
        CRAWL_MAX_BYTES: '65536',
        CRAWL_MAX_HOPS: '2',
      },
      deps: { fetcher: fleet.fetcher() },
    });
  });
  after(async () => {
    // Every event of a published type any scenario wrote is valid against core/registry-event.json.
    const all = await server.db.query<EventRow>(
      'select * from registry_events where event_type <> all($1) order by event_id',
      [extensionEventTypes],
    );
    assert.ok(all.length > 100);
    for (const event of all) assertValidEvent(event);
    await server.close();
    await fleet.close();
  });

  const crawl = (domain: string) => server.app.crawler.crawl(domain);
  const serve = (
    domain: string,
    body: object | string | undefined,
    page: { status?: number; delayMs?: number; headers?: Record<string, string> } = {},
  ) => fleet.serve(domain, ADAGENTS, body === undefined ? undefined : { body, ...page });
  /** The events of published types written since the last call, oldest first. */
  const newEvents = async () => {
    const rows = await server.db.query<EventRow>(
      'select * from registry_events where event_id > $1 and event_type <> all($2) order by event_id',
      [seen, extensionEventTypes],
    );
    if (rows.length > 0) seen = rows.at(-1)!.event_id;
    return rows;
  };
  const types = (rows: EventRow[]) => rows.map((e) => e.event_type);
  const ofType = (rows: EventRow[], type: string) => rows.filter((e) => e.event_type === type);

  describe('a valid file', () => {
    const domain = d(0);
    before(async () => {
      await newEvents();
      serve(
        domain,
        adagents(domain, {
          properties: [
            property('main', domain),
            property('app', 'app.pub-0.example', {
              property_type: 'mobile_app',
              identifiers: [{ type: 'bundle_id', value: 'com.pub0.app' }],
              tags: ['apps'],
            }),
          ],
          collections: [
            {
              collection_id: 'evening_news',
              name: 'Evening News',
              kind: 'series',
              distribution: [
                { publisher_domain: 'youtube.com', identifiers: [{ type: 'youtube_channel_id', value: 'UC123' }] },
              ],
            },
          ],
          agents: [
            agent('https://sales.example/ap', ['main'], {
              signing_keys: [
                { kid: 'k1', kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
              ],
            }),
            {
              url: 'https://APPS.example:443/ap',
              authorized_for: 'Apps',
              authorization_type: 'property_tags',
              property_tags: ['apps'],
              delegation_type: 'delegated',
            },
            {
              url: 'https://network.example/ap',
              authorized_for: 'Run of network',
              authorization_type: 'publisher_properties',
              publisher_properties: [{ publisher_domain: d(1), selection_type: 'all' }],
              delegation_type: 'ad_network',
            },
          ],
        }),
      );
    });

    it('projects the publisher, its properties, collections and authorizations, each as one event', async () => {
      const report = await crawl(domain);
      assert.equal(report.adagents, 'found');
      assert.equal(report.properties, 2);
      assert.equal(report.agents, 3);
      const events = await newEvents();
      assert.deepEqual(types(events), [
        'publisher.adagents_discovered',
        'agent.discovered',
        'agent.discovered',
        'agent.discovered',
        'property.created',
        'property.created',
        'collection.created',
        'authorization.granted',
        'authorization.granted',
        'authorization.granted',
      ]);
      // The crawl's count also has what resolve now answers for the publisher's entry.
      const [resolution] = await server.db.query<EventRow>(
        `select * from registry_events where event_type = 'resolution.property_updated' and payload->>'domain' = $1`,
        [domain],
      );
      assert.equal(resolution?.payload['resolution'] !== undefined, true);
      assert.equal(report.events, events.length + 1);
      const [discovered] = events;
      assert.deepEqual(discovered!.payload, {
        publisher_domain: domain,
        source: 'adagents_json',
        status: 'active',
        agent_count: 3,
        property_count: 2,
        collection_count: 1,
        manager_domain: null,
        discovery_method: 'well_known',
        document_url: `https://${domain}/.well-known/adagents.json`,
        discovered_at: discovered!.payload.discovered_at,
      });
      assert.ok(!Number.isNaN(Date.parse(String(discovered!.payload.discovered_at))));
      const created = ofType(events, 'property.created')[0]!;
      assert.deepEqual(created.payload.identifiers, [{ type: 'domain', value: domain }]);
      assert.equal(created.payload.source, 'authoritative');
      assert.equal(created.payload.classification, 'property');
      // Agent URLs are compared canonically: the default port and the host's case go.
      assert.deepEqual(
        ofType(events, 'agent.discovered').map((e) => e.entity_id),
        ['https://sales.example/ap', 'https://APPS.example:443/ap', 'https://network.example/ap'],
      );
      const granted = ofType(events, 'authorization.granted');
      assert.equal(granted[1]!.payload.agent_url_canonical, 'https://apps.example/ap');
      assert.deepEqual(granted[0]!.payload.signing_keys, [
        { kid: 'k1', kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
      ]);
      assert.equal(granted[2]!.payload.delegation_type, 'ad_network');
      // The publisher whose properties the network may sell is queued for its own crawl.
      assert.ok(await target(server.db, d(1)));
    });

    it('answers both directions of the graph: identifier → agents and agent → properties', async () => {
      const bySite = await graph.agentsForIdentifier(server.db, 'domain', domain);
      assert.deepEqual(
        bySite.map((r) => r.agent_url),
        ['https://sales.example/ap'],
      );
      const byApp = await graph.agentsForIdentifier(server.db, 'bundle_id', 'com.pub0.app');
      assert.deepEqual(
        byApp.map((r) => r.agent_url),
        ['https://APPS.example:443/ap'],
      );
      const appsAgent = await graph.propertiesForAgent(server.db, 'https://apps.example/ap');
      assert.deepEqual(
        appsAgent.map((r) => r.name),
        ['Site app'],
      );
      const scopes = (await graph.authorizationsOf(server.db, domain)).find(
        (a) => a.authorization_type === 'publisher_properties',
      )!.scopes;
      assert.deepEqual(scopes, [{ target_publisher: d(1), kind: 'all', value: '' }]);
    });

    it('makes the entry authoritative: resolve shows the file, a community save answers 409', async () => {
      const entry = await json(await fetch(`${server.url}/api/properties/resolve?domain=${domain}`));
      assert.equal(entry.source, 'adagents_json');
      assert.deepEqual(entry.properties, [
        { type: 'website', name: 'Site main' },
        { type: 'mobile_app', name: 'Site app' },
      ]);
      const save = await postJson(
        `${server.url}/api/properties/save`,
        { publisher_domain: domain, authorized_agents: [] },
        asAdmin,
      );
      assert.equal(save.status, 409);
      assert.equal((await json(save)).error, 'authoritative_entry');
    });

    it('writes nothing when a re-crawl finds the same file', async () => {
      const report = await crawl(domain);
      assert.equal(report.events, 0);
      assert.deepEqual(await newEvents(), []);
      const history = await json(await fetch(`${server.url}/api/properties/history?domain=${domain}`));
      assert.equal(history.total, 1);
    });
  });

  it('projects nothing from an invalid file and says why', async () => {
    await newEvents();
    serve(d(1), { authorized_agents: [{ url: 'not a url' }] });
    const report = await crawl(d(1));
    assert.equal(report.adagents, 'invalid');
    assert.match(report.problem!, /does not match the schema/);
    assert.equal(await graph.publisher(server.db, d(1)), undefined);
    assert.deepEqual(await newEvents(), []);
    serve(d(1), '{ not json');
    assert.match((await crawl(d(1))).problem!, /not valid JSON/);
  });

  describe('authoritative_location', () => {
    it('follows the pointer to the managed file and names its manager', async () => {
      await newEvents();
      serve(d(2), { authoritative_location: 'https://manager.ap.test/files/pub-2.json' });
      fleet.serve('manager.ap.test', '/files/pub-2.json', { body: adagents(d(2)) });
      const report = await crawl(d(2));
      assert.equal(report.adagents, 'found');
      const [discovered] = await newEvents();
      assert.equal(discovered!.event_type, 'publisher.adagents_discovered');
      assert.equal(discovered!.payload.manager_domain, 'manager.ap.test');
      assert.equal(discovered!.payload.discovery_method, 'authoritative_location');
      assert.equal((await graph.publisher(server.db, d(2)))!.document_url, 'https://manager.ap.test/files/pub-2.json');
    });

    it('refuses a loop and a chain longer than the hop limit', async () => {
      serve(d(3), { authoritative_location: 'https://manager.ap.test/files/loop.json' });
      fleet.serve('manager.ap.test', '/files/loop.json', {
        body: { authoritative_location: `https://${d(3)}${ADAGENTS}` },
      });
      const loop = await crawl(d(3));
      assert.equal(loop.adagents, 'invalid');
      assert.match(loop.problem!, /loop/);

      serve(d(4), { authoritative_location: 'https://manager.ap.test/files/hop1.json' });
      fleet.serve('manager.ap.test', '/files/hop1.json', {
        body: { authoritative_location: 'https://manager.ap.test/files/hop2.json' },
      });
      fleet.serve('manager.ap.test', '/files/hop2.json', {
        body: { authoritative_location: 'https://manager.ap.test/files/hop3.json' },
      });
      fleet.serve('manager.ap.test', '/files/hop3.json', { body: adagents(d(4)) });
      const long = await crawl(d(4));
      assert.equal(long.adagents, 'invalid');
      assert.match(long.problem!, /more than 2 hops/);
      assert.equal(await graph.publisher(server.db, d(4)), undefined);
    });
  });

  it('an agent added then removed: granted then revoked, with the publisher change naming it', async () => {
    const domain = d(5);
    serve(domain, adagents(domain));
    await crawl(domain);
    await newEvents();

    serve(
      domain,
      adagents(domain, {
        agents: [agent('https://sales.example/ap', ['main']), agent('https://new-seller.example/ap', ['main'])],
      }),
    );
    await crawl(domain);
    const added = await newEvents();
    assert.deepEqual(types(added), ['publisher.adagents_changed', 'agent.discovered', 'authorization.granted']);
    assert.deepEqual(added[0]!.payload.agents_added, ['https://new-seller.example/ap']);
    assert.deepEqual(added[0]!.payload.changed_fields, ['authorized_agents']);
    const grantId = added[2]!.entity_id;

    serve(domain, adagents(domain));
    await crawl(domain);
    const removed = await newEvents();
    assert.deepEqual(types(removed), ['publisher.adagents_changed', 'authorization.revoked']);
    assert.deepEqual(removed[0]!.payload.agents_removed, ['https://new-seller.example/ap']);
    assert.equal(removed[1]!.entity_id, grantId);
    assert.equal(removed[1]!.payload.agent_url, 'https://new-seller.example/ap');
    assert.deepEqual(
      (await graph.agentsForIdentifier(server.db, 'domain', domain)).map((r) => r.agent_url),
      ['https://sales.example/ap'],
    );

    // The agent is known to the registry already: seeing it again is not a discovery.
    serve(
      domain,
      adagents(domain, {
        agents: [agent('https://sales.example/ap', ['main']), agent('https://new-seller.example/ap', ['main'])],
      }),
    );
    await crawl(domain);
    assert.deepEqual(types(await newEvents()), ['publisher.adagents_changed', 'authorization.granted']);
  });

  it('two crawls of one changed file at once tell each change once', async () => {
    const domain = d(67);
    serve(domain, adagents(domain));
    await crawl(domain);
    await newEvents();
    serve(
      domain,
      adagents(domain, {
        properties: [property('main', domain, { name: 'Renamed' })],
        agents: [agent('https://sales.example/ap', ['main']), agent('https://twice.example/ap', ['main'])],
      }),
    );
    const reports = await Promise.all([crawl(domain), crawl(domain)]);
    // Four published events and the entry's resolution.property_updated, told by one crawl only.
    assert.deepEqual(reports.map((r) => r.events).sort(), [0, 5]);
    assert.deepEqual(types(await newEvents()), [
      'publisher.adagents_changed',
      'agent.discovered',
      'property.updated',
      'authorization.granted',
    ]);
  });

  it('a property changed: updated, naming the fields; an authorization’s terms changed: modified', async () => {
    const domain = d(6);
    serve(domain, adagents(domain));
    await crawl(domain);
    const [created] = ofType(await newEvents(), 'property.created');
    serve(
      domain,
      adagents(domain, {
        properties: [property('main', domain, { name: 'The Daily Six' })],
        agents: [agent('https://sales.example/ap', ['main'], { delegation_type: 'delegated' })],
      }),
    );
    await crawl(domain);
    const events = await newEvents();
    assert.deepEqual(types(events), ['publisher.adagents_changed', 'property.updated', 'authorization.modified']);
    assert.equal(events[1]!.entity_id, created!.entity_id);
    assert.deepEqual(events[1]!.payload.changed_fields, ['name']);
    assert.equal((events[1]!.payload.property as { name: string }).name, 'The Daily Six');
    assert.deepEqual(events[2]!.payload.changed_fields, ['delegation_type']);
    assert.equal(events[2]!.payload.delegation_type, 'delegated');
  });

  it('404 marks the properties stale; a passing crawl reactivates them', async () => {
    const domain = d(7);
    serve(
      domain,
      adagents(domain, {
        properties: [property('main', domain), property('second', `second.${domain}`)],
        agents: [agent('https://sales.example/ap', ['main', 'second'])],
      }),
    );
    await crawl(domain);
    await newEvents();

    serve(domain, undefined);
    const gone = await crawl(domain);
    assert.equal(gone.adagents, 'absent');
    const stale = await newEvents();
    assert.deepEqual(types(stale), ['publisher.adagents_changed', 'property.stale', 'property.stale']);
    assert.equal(stale[0]!.payload.status, 'stale');
    assert.match(String(stale[1]!.payload.reason), /HTTP 404/);
    assert.equal((await graph.publisher(server.db, domain))!.status, 'stale');
    assert.equal((await json(await fetch(`${server.url}/api/properties/resolve?domain=${domain}`))).status, 'stale');
    // A stale property authorizes nobody.
    assert.deepEqual(await graph.agentsForIdentifier(server.db, 'domain', domain), []);
    // Still absent: nothing more to say.
    await crawl(domain);
    assert.deepEqual(await newEvents(), []);

    serve(
      domain,
      adagents(domain, {
        properties: [property('main', domain), property('second', `second.${domain}`)],
        agents: [agent('https://sales.example/ap', ['main', 'second'])],
      }),
    );
    await crawl(domain);
    const back = await newEvents();
    assert.deepEqual(types(back), ['publisher.adagents_changed', 'property.reactivated', 'property.reactivated']);
    assert.equal(back[0]!.payload.status, 'active');
    assert.deepEqual(
      back.map((e) => e.entity_id),
      stale.map((e) => e.entity_id),
    );
    assert.equal((await graph.publisher(server.db, domain))!.status, 'active');
    assert.deepEqual(
      (await graph.agentsForIdentifier(server.db, 'domain', domain)).map((r) => r.agent_url),
      ['https://sales.example/ap'],
    );
  });

  it('410 and an invalid re-crawl mark stale too', async () => {
    for (const [i, broken] of [
      [8, { status: 410, body: 'gone' }],
      [9, { body: { properties: [] } }],
    ] as const) {
      serve(d(i), adagents(d(i)));
      await crawl(d(i));
      await newEvents();
      fleet.serve(d(i), ADAGENTS, broken);
      await crawl(d(i));
      assert.deepEqual(types(await newEvents()), ['publisher.adagents_changed', 'property.stale']);
    }
  });

  it('a timeout and a 5xx keep the last good data and back off', async () => {
    const domain = d(10);
    serve(domain, adagents(domain));
    await crawl(domain);
    await newEvents();
    const before = await graph.propertiesOf(server.db, domain);

    serve(domain, adagents(domain), { delayMs: 3000 });
    const slow = await crawl(domain);
    assert.equal(slow.adagents, 'transient');
    assert.match(slow.problem!, /did not answer within 800 ms/);
    const afterTimeout = await target(server.db, domain);
    assert.equal(afterTimeout!.failures, 1);

    serve(domain, 'upstream error', { status: 503 });
    const failed = await crawl(domain);
    assert.equal(failed.adagents, 'transient');
    const afterFailure = await target(server.db, domain);
    assert.equal(afterFailure!.failures, 2);
    // Backing off: the first retry a minute or so away, the next about twice that; both well inside the day.
    const wait = (t: Date) => (t.getTime() - Date.now()) / 1000;
    assert.ok(wait(afterTimeout!.next_crawl_at) > 40 && wait(afterTimeout!.next_crawl_at) < 90);
    assert.ok(wait(afterFailure!.next_crawl_at) > 100 && wait(afterFailure!.next_crawl_at) < 160);

    serve(domain, 'slow down', { status: 429, headers: { 'retry-after': '3600' } });
    await crawl(domain);
    assert.ok(wait((await target(server.db, domain))!.next_crawl_at) >= 3500);

    assert.deepEqual(await newEvents(), []);
    assert.deepEqual(
      await graph.propertiesOf(server.db, domain),
      before.map((row) => ({ ...row, last_resolved_at: row.last_resolved_at })),
    );
    assert.equal((await graph.publisher(server.db, domain))!.status, 'active');

    serve(domain, adagents(domain));
    await crawl(domain);
    assert.equal((await target(server.db, domain))!.failures, 0);
  });

  it('refuses an oversized file', async () => {
    const domain = d(11);
    const padding = Array.from({ length: 2000 }, (_, i) => property(`p${i}`, `site${i}.${domain}`));
    serve(domain, adagents(domain, { properties: padding }));
    const report = await crawl(domain);
    assert.equal(report.adagents, 'invalid');
    assert.match(report.problem!, /more than 65536 bytes/);
    assert.equal(await graph.publisher(server.db, domain), undefined);
  });

  it('two records of one site merge when a file declares them as one property', async () => {
    const domain = d(12);
    serve(
      domain,
      adagents(domain, {
        properties: [property('main', domain), property('mobile', `m.${domain}`)],
        agents: [agent('https://sales.example/ap', ['main', 'mobile'])],
      }),
    );
    await crawl(domain);
    const [main, mobile] = ofType(await newEvents(), 'property.created');
    serve(
      domain,
      adagents(domain, {
        properties: [
          property('main', domain, {
            identifiers: [
              { type: 'domain', value: domain },
              { type: 'domain', value: `m.${domain}` },
            ],
          }),
        ],
      }),
    );
    await crawl(domain);
    const events = await newEvents();
    assert.deepEqual(types(events), [
      'publisher.adagents_changed',
      'property.merged',
      'property.updated',
      'authorization.modified',
    ]);
    assert.deepEqual(events[1]!.payload, {
      alias_rid: mobile!.entity_id,
      canonical_rid: main!.entity_id,
      evidence: 'adagents_json',
      publisher_domain: domain,
    });
    assert.deepEqual(
      (await graph.agentsForIdentifier(server.db, 'domain', `m.${domain}`)).map((r) => r.property_rid),
      [main!.entity_id],
    );
  });

  it('collections: created, updated, removed', async () => {
    const domain = d(13);
    const show = (name: string) => ({
      collection_id: 'show',
      name,
      distribution: [{ publisher_domain: 'youtube.com', identifiers: [{ type: 'youtube_channel_id', value: 'UC13' }] }],
    });
    serve(domain, adagents(domain, { collections: [show('The Show'), { collection_id: 'other', name: 'Other' }] }));
    await crawl(domain);
    assert.equal(ofType(await newEvents(), 'collection.created').length, 2);
    serve(domain, adagents(domain, { collections: [show('The Show, Season 2')] }));
    await crawl(domain);
    const events = await newEvents();
    assert.deepEqual(types(events), ['publisher.adagents_changed', 'collection.updated', 'collection.removed']);
    assert.deepEqual(events[1]!.payload.changed_fields, ['name']);
    assert.equal(events[2]!.payload.status, 'removed');
    // Declared again: the same record, active again.
    serve(
      domain,
      adagents(domain, { collections: [show('The Show, Season 2'), { collection_id: 'other', name: 'Other' }] }),
    );
    await crawl(domain);
    const back = await newEvents();
    assert.deepEqual(types(back), ['publisher.adagents_changed', 'collection.updated']);
    assert.equal(back[1]!.entity_id, events[2]!.entity_id);
    assert.deepEqual([back[1]!.payload.changed_fields, back[1]!.payload.status], [['status'], 'active']);
  });

  it('a community entry the publisher’s own file takes over is merged into its site property', async () => {
    const domain = d(14);
    const admin: Principal = {
      kind: 'api_key',
      subject: 'k',
      displayName: 'Admin',
      organization: { organizationId: 'o', slug: 'o', role: 'admin', apiTier: true, registryAdmin: true },
    };
    await newEvents();
    const { row } = await saveCommunity(
      server.db,
      domain,
      { authorized_agents: [{ url: 'https://community.example/ap' }], inventory: [], contact: null },
      admin,
      async () => {},
    );
    await newEvents();
    serve(domain, adagents(domain));
    await crawl(domain);
    const events = await newEvents();
    const site = ofType(events, 'property.created')[0]!;
    const merged = ofType(events, 'property.merged');
    assert.deepEqual(
      merged.map((e) => e.payload),
      [{ alias_rid: row.id, canonical_rid: site.entity_id, evidence: 'adagents_json', publisher_domain: domain }],
    );
    // Told after the property it points to exists.
    assert.equal(events.at(-1), merged[0]);
  });

  describe('brand.json', () => {
    const house = 'house.ap.test';
    before(() => {
      fleet.serve(house, BRAND, {
        body: {
          house: {
            domain: house,
            name: 'House Holdings',
            architecture: 'house_of_brands',
            agents: [
              {
                type: 'sales',
                url: 'https://sell.house.example/ap',
                id: 'house_sales',
                jwks_uri: 'https://sell.house.example/.well-known/jwks.json',
              },
            ],
          },
          brands: [
            {
              id: 'house_main',
              names: [{ en: 'House' }],
              keller_type: 'master',
              url: `https://${house}`,
              properties: [{ type: 'website', identifier: house }],
            },
            {
              id: 'fizz',
              names: [{ en: 'Fizz' }],
              keller_type: 'sub_brand',
              parent_brand: 'house_main',
              url: 'https://fizz.ap.test',
              properties: [
                { type: 'website', identifier: 'fizz.ap.test' },
                { type: 'website', identifier: 'fizz-shop.ap.test' },
                { type: 'website', identifier: d(0), relationship: 'delegated' },
              ],
            },
          ],
        },
      });
      // A brand's own file pointing at its house.
      fleet.serve(d(15), BRAND, { body: { house } });
      fleet.serve(d(16), BRAND, {
        body: {
          agents: [
            {
              type: 'buying',
              url: 'https://buyer.pub16.example/ap',
              id: 'buyer',
              jwks_uri: 'https://buyer.pub16.example/jwks.json',
            },
          ],
        },
      });
    });

    it('projects the house, its brands and sub-brands as authoritative brands', async () => {
      await newEvents();
      const report = await crawl(house);
      assert.equal(report.brand, 'found');
      assert.equal(report.adagents, 'absent');
      // The publisher property the house now declares carries the operator side in the feed.
      const declared = ofType(await newEvents(), 'property.updated');
      assert.deepEqual(
        declared.map((e) => [e.payload.publisher_domain, e.payload.changed_fields, e.payload.operator_declarations]),
        [
          [
            d(0),
            ['operator_declarations'],
            [
              {
                operator_domain: house,
                brand_id: 'fizz',
                relationship: 'delegated',
                agents: ['https://sell.house.example/ap'],
              },
            ],
          ],
        ],
      );
      const fizz = await json(await fetch(`${server.url}/api/brands/resolve?domain=fizz.ap.test`));
      assert.deepEqual(
        { ...fizz, canonical_id: undefined },
        {
          canonical_id: undefined,
          canonical_domain: 'fizz.ap.test',
          brand_name: 'Fizz',
          keller_type: 'sub_brand',
          house_domain: house,
          source: 'brand_json',
        },
      );
      // Another site of the brand resolves to it.
      assert.equal(
        (await json(await fetch(`${server.url}/api/brands/resolve?domain=fizz-shop.ap.test`))).canonical_domain,
        'fizz.ap.test',
      );
      assert.equal((await json(await fetch(`${server.url}/api/brands/resolve?domain=${house}`))).keller_type, 'master');
      const save = await postJson(
        `${server.url}/api/brands/save`,
        { domain: 'fizz.ap.test', brand_name: 'Hijacked' },
        asAdmin,
      );
      assert.equal(save.status, 409);
      // Unchanged on re-crawl: no new revision.
      await crawl(house);
      assert.equal((await json(await fetch(`${server.url}/api/brands/history?domain=fizz.ap.test`))).total, 1);
    });

    it('projects the operator’s agents with jwks_uri and the properties it declares with their relationship', async () => {
      assert.deepEqual(
        (await graph.operatorAgents(server.db, house)).map((a) => [a.agent_id, a.agent_type, a.url, a.jwks_uri]),
        [['house_sales', 'sales', 'https://sell.house.example/ap', 'https://sell.house.example/.well-known/jwks.json']],
      );
      assert.deepEqual(
        (await graph.operatorProperties(server.db, house)).map((p) => [p.brand_id, p.identifier, p.relationship]),
        [
          ['fizz', 'fizz-shop.ap.test', 'owned'],
          ['fizz', 'fizz.ap.test', 'owned'],
          ['fizz', d(0), 'delegated'],
          ['house_main', house, 'owned'],
        ].sort((a, b) => (a.join() < b.join() ? -1 : 1)),
      );
    });

    it('follows a brand’s pointer to its house, and reads an agents-only file', async () => {
      assert.equal((await crawl(d(15))).brand, 'found');
      assert.equal((await graph.operatorAgents(server.db, house)).length, 1);
      await crawl(d(16));
      assert.deepEqual(
        (await graph.operatorAgents(server.db, d(16))).map((a) => a.jwks_uri),
        ['https://buyer.pub16.example/jwks.json'],
      );
    });
  });

  it('crawls fifty publishers at once, each discovered exactly once', async () => {
    const domains = Array.from({ length: 50 }, (_, i) => d(i + 17));
    for (const domain of domains)
      serve(domain, adagents(domain, { agents: [agent('https://fleet-seller.example/ap', ['main'])] }));
    await newEvents();
    const reports = await Promise.all(domains.map((domain) => crawl(domain)));
    assert.deepEqual(
      reports.filter((r) => r.adagents !== 'found').map((r) => [r.domain, r.adagents, r.problem]),
      [],
      'every file found',
    );
    const events = await newEvents();
    assert.deepEqual(
      ofType(events, 'publisher.adagents_discovered')
        .map((e) => e.entity_id)
        .sort(),
      [...domains].sort(),
    );
    assert.equal(ofType(events, 'agent.discovered').length, 1);
    assert.equal(ofType(events, 'authorization.granted').length, domains.length);
    // Each host was asked for its file once.
    for (const domain of domains) assert.equal(fleet.requests(domain).filter((p) => p === ADAGENTS).length, 1);
    await assertSnapshotMatchesGraph(server.url, server.db);
    // Operators see the crawls in /metrics.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.ok(Number(/^crawls_total\{outcome="found"\} (\d+)$/m.exec(metrics)?.[1]) >= 50, metrics);
    assert.match(metrics, /^crawls_total\{outcome="transient"\} [1-9]/m);
  });
});

/** The snapshot holds every record of the graph, keyed as the feed's events are (a mirror bootstraps from it). */
async function assertSnapshotMatchesGraph(base: string, db: Queryable): Promise<void> {
  const items: Array<{ entity_type: string; entity_id: string; data: Record<string, unknown> }> = [];
  let token: string | null = null;
  do {
    const page = await json(
      await fetch(`${base}/api/registry/snapshot?limit=200${token ? `&page_token=${token}` : ''}`, {
        headers: asAdmin,
      }),
    );
    items.push(...page.items);
    token = page.next_page_token;
  } while (token);
  const ids = (type: string) =>
    items
      .filter((i) => i.entity_type === type)
      .map((i) => i.entity_id)
      .sort();
  const rows = async (sql: string) => (await db.query<{ id: string }>(sql)).map((r) => r.id).sort();
  assert.deepEqual(ids('publisher'), await rows('select domain as id from publishers'));
  assert.deepEqual(ids('authorization'), await rows('select id::text as id from authorizations'));
  assert.deepEqual(ids('collection'), await rows('select collection_rid::text as id from catalog_collections'));
  assert.deepEqual(
    ids('property'),
    await rows(
      `select property_rid::text as id from catalog_properties union all select id::text from properties where source = 'community'`,
    ),
  );
}
