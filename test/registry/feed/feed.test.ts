import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { allEventIds, assertValidPage, eventKeys, getFeed, readToEnd, writeEvents } from '../../support/feed.ts';
import { createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

eachEngine('change feed pages', (engine) => {
  let server: TestServer;
  let ids: string[];

  before(async () => {
    server = await startTestServer(engine);
    // 40 events in rotation: property.created, authorization.granted, publisher.adagents_changed, agent.discovered.
    for (let i = 0; i < 40; i += 8) await writeEvents(server.db, 8, i);
    ids = await allEventIds(server.db);
  });
  after(() => server.close());

  describe('access and shape', () => {
    it('requires a credential', async () => {
      const { status, body } = await getFeed(server.url, {}, {});
      assert.equal(status, 401);
      assert.equal(body.error, 'unauthorized');
    });

    it('serves the earliest events first without a cursor, each valid against the published schemas', async () => {
      const { status, body } = await getFeed(server.url, { limit: 10 });
      assert.equal(status, 200);
      assertValidPage(body);
      assert.deepEqual(
        body.events.map((e: { event_id: string }) => e.event_id),
        ids.slice(0, 10),
      );
      assert.equal(body.cursor, ids[9]);
      assert.equal(body.has_more, true);
      assert.deepEqual(Object.keys(body.events[0]), eventKeys);
      for (const id of body.events.map((e: { event_id: string }) => e.event_id))
        assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    });

    it('reports freshness: generation time, the newest matching event, the lag and the retention', async () => {
      const { body } = await getFeed(server.url, { limit: 1 });
      const [newest] = await server.db.query<{ created_at: Date }>(
        'select created_at from registry_events order by event_id desc limit 1',
      );
      assert.equal(body.freshness.latest_event_created_at, newest!.created_at.toISOString());
      assert.equal(body.freshness.retention_days, 90);
      assert.ok(Math.abs(Date.parse(body.freshness.generated_at) - Date.now()) < 5000);
      assert.ok(Number.isInteger(body.freshness.lag_seconds) && body.freshness.lag_seconds >= 0);
    });

    it('gives created_at as the millisecond of the event id, so both orders agree', async () => {
      const { body } = await getFeed(server.url, { limit: 40 });
      for (const event of body.events) {
        assert.equal(parseInt(event.event_id.replaceAll('-', '').slice(0, 12), 16), Date.parse(event.created_at));
      }
    });
  });

  describe('paging', () => {
    it('walks every event once, in order, at any page size', async () => {
      for (const limit of [1, 7, 40, 10000]) {
        const { events, cursor } = await readToEnd(server.url, { limit });
        assert.deepEqual(
          events.map((e) => e.event_id),
          ids,
          `limit ${limit}`,
        );
        assert.equal(cursor, ids.at(-1));
      }
    });

    it('defaults to 100 events a page', async () => {
      await writeEvents(server.db, 80, 100);
      const { body } = await getFeed(server.url);
      assert.equal(body.events.length, 100);
      assert.equal(body.has_more, true);
      ids = await allEventIds(server.db);
    });

    it('refuses a limit outside 1 to 10,000 with 400', async () => {
      for (const limit of [0, 10001, -1, 'many']) {
        const { status, body } = await getFeed(server.url, { limit });
        assert.equal(status, 400, `limit ${limit}`);
        assert.equal(body.error, 'validation_failed');
        assert.equal(body.details[0].field, 'limit');
      }
    });

    it('answers a caught-up poll with the cursor it was given, so polling again is safe', async () => {
      const head = ids.at(-1)!;
      const { body } = await getFeed(server.url, { cursor: head });
      assert.deepEqual(body.events, []);
      assert.equal(body.cursor, head);
      assert.equal(body.has_more, false);
      await writeEvents(server.db, 1, 500);
      const next = await getFeed(server.url, { cursor: body.cursor });
      assert.equal(next.body.events.length, 1);
      assert.ok(next.body.events[0].event_id > head);
      ids = await allEventIds(server.db);
    });

    it('takes an upper-case cursor as the same id', async () => {
      const { status, body } = await getFeed(server.url, { cursor: ids[0]!.toUpperCase(), limit: 1 });
      assert.equal(status, 200);
      assert.equal(body.events[0].event_id, ids[1]);
    });
  });

  describe('type filters', () => {
    const typesOf = (events: Json[]) => new Set(events.map((e) => e.event_type as string));

    it('matches glob patterns, and returns only matching events in id order', async () => {
      const { events } = await readToEnd(server.url, { types: 'property.*', limit: 5 });
      assert.deepEqual(typesOf(events), new Set(['property.created']));
      const all = await server.db.query<{ event_id: string }>(
        `select event_id from registry_events where event_type like 'property.%' order by event_id`,
      );
      assert.deepEqual(
        events.map((e) => e.event_id),
        all.map((r) => r.event_id),
      );
    });

    it('takes several patterns, a suffix glob and an exact type', async () => {
      const { events } = await readToEnd(server.url, { types: '*.granted, agent.discovered', limit: 1000 });
      assert.deepEqual(typesOf(events), new Set(['authorization.granted', 'agent.discovered']));
      const { events: created } = await readToEnd(server.url, { types: '*.created' });
      assert.deepEqual(typesOf(created), new Set(['property.created']));
    });

    it('keeps the cursor of a filter with nothing new, and reports freshness for that filter only', async () => {
      const { body } = await getFeed(server.url, { types: 'collection.*', cursor: ids[3] });
      assert.deepEqual(body.events, []);
      assert.equal(body.cursor, ids[3]);
      assert.equal(body.freshness.latest_event_created_at, null);
      assert.equal(body.freshness.lag_seconds, null);
      const none = await getFeed(server.url, { types: 'collection.*' });
      assert.equal(none.body.cursor, null);
    });

    it('refuses a pattern that matches no event type, or is not a pattern, with 400 naming types', async () => {
      for (const types of ['proprety.*', 'property.created;drop', 'x'.repeat(65)]) {
        const { status, body } = await getFeed(server.url, { types });
        assert.equal(status, 400, types);
        assert.equal(body.error, 'validation_failed');
        assert.equal(body.details[0].field, 'types');
      }
    });
  });

  describe('cursors that cannot be honoured', () => {
    it('answers 410 cursor_expired for a well-formed id that is not in the log, telling how to re-bootstrap', async () => {
      for (const cursor of [uuidv7(), '00000000-0000-7000-8000-000000000000']) {
        const { status, body } = await getFeed(server.url, { cursor });
        assert.equal(status, 410);
        assert.equal(body.error, 'cursor_expired');
        // Worded as the spec's 410: the three re-bootstrap paths, as this server serves them.
        for (const path of [
          '/api/registry/agents/search',
          '/api/registry/catalog',
          '/api/registry/catalog/collections/sync',
        ]) {
          assert.ok(
            body.message.includes(`${path} `) || body.message.includes(`${path},`),
            `names ${path}: ${body.message}`,
          );
        }
        assert.match(body.message, /re-bootstrap/i);
      }
    });

    it('names re-bootstrap paths this server serves', async () => {
      const { body } = await getFeed(server.url, { cursor: uuidv7() });
      const named = [...new Set(String(body.message).match(/\/api\/registry\/[a-z/]+[a-z]/g))];
      assert.ok(named.length >= 4, named.join(' '));
      for (const path of named) {
        const res = await fetch(`${server.url}${path}?limit=1`, { headers: asAdmin });
        assert.equal(res.status, 200, path);
        assert.equal(typeof (await json(res)).has_more, 'boolean', path);
      }
    });

    it('answers 400 for a cursor that is not a UUID', async () => {
      const { status, body } = await getFeed(server.url, { cursor: 'yesterday' });
      assert.equal(status, 400);
      assert.equal(body.details[0].field, 'cursor');
    });
  });

  describe('events from saves', () => {
    it('carries the whole entry in property events, valid against the schema', async () => {
      const org = await seedOrganization(server.db);
      const key = await createApiKeyFor(server.db, org.slug);
      await proveOwnership(server.db, org.slug, 'feed-save.example');
      const before = ids.at(-1)!;
      const save = (name: string) =>
        postJson(
          `${server.url}/api/properties/save`,
          { publisher_domain: 'feed-save.example', authorized_agents: [], properties: [{ type: 'website', name }] },
          { authorization: `Bearer ${key}` },
        );
      assert.equal((await save('First')).status, 201);
      assert.equal((await save('Second')).status, 200);
      const { body } = await getFeed(server.url, { cursor: before, types: 'property.*' });
      assertValidPage(body);
      assert.deepEqual(
        body.events.map((e: { event_type: string }) => e.event_type),
        ['property.created', 'property.updated'],
      );
      const resolved = await (
        await fetch(`${server.url}/api/properties/resolve?domain=feed-save.example`, { headers: asAdmin })
      ).json();
      assert.deepEqual(body.events[1].payload.entry, resolved);
      assert.deepEqual(body.events[1].payload.changed_fields, ['properties']);
    });
  });
});
