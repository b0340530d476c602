import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { saveAuthoritative } from '../../../src/registry/properties/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';
import { assertValidEvent, eventsOf, writeCounts } from './feed.ts';

const agent = (name: string) => ({ url: `https://${name}.sellers.example/ap` });

eachEngine('property history and rollback', (engine) => {
  let server: TestServer;
  let id: string;
  const history = (query: string) => fetch(`${server.url}/api/properties/history?${query}`);
  const rollback = (body: unknown, headers?: Record<string, string>) =>
    postJson(`${server.url}/api/properties/rollback`, body, headers);
  const resolve = async (domain: string) => json(await fetch(`${server.url}/api/properties/resolve?domain=${domain}`));
  const numbers = (page: Json) => page.revisions.map((r: Json) => r.revision_number);

  before(async () => {
    server = await startTestServer(engine, {
      env: { RATE_LIMIT_SAVES_PER_HOUR: '1000', RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '1000' },
    });
    const save = (body: unknown) => postJson(`${server.url}/api/properties/save`, body);
    // Revision 1: one agent and a site; 2: a second agent; 3: the site renamed, with a contact.
    const created = await save({
      publisher_domain: 'news.example',
      authorized_agents: [agent('first')],
      properties: [{ type: 'website', name: 'News' }],
    });
    id = (await json(created)).id;
    await save({
      publisher_domain: 'news.example',
      authorized_agents: [agent('first'), agent('second')],
      properties: [{ type: 'website', name: 'News' }],
    });
    await save({
      publisher_domain: 'news.example',
      authorized_agents: [agent('first'), agent('second')],
      properties: [{ type: 'website', name: 'The News' }],
      contact: { email: 'ops@news.example' },
    });
    for (let i = 0; i < 25; i++) await save({ publisher_domain: 'long.example', authorized_agents: [agent(`a${i}`)] });
    await server.db.transaction((tx) =>
      saveAuthoritative(tx, 'owned.example', { authorized_agents: [agent('owned')], inventory: [], contact: null }),
    );
  });
  after(() => server.close());

  describe('history', () => {
    it('lists revisions newest first with every field of the revision record', async () => {
      const res = await history('domain=news.example');
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.equal(body.domain, 'news.example');
      assert.equal(body.total, 3);
      assert.deepEqual(numbers(body), [3, 2, 1]);
      const [latest, , first] = body.revisions;
      assert.deepEqual(Object.keys(latest).sort(), [
        'created_at',
        'edit_summary',
        'editor_name',
        'is_rollback',
        'revision_number',
        'source',
      ]);
      assert.equal(latest.editor_name, 'admin/AP_ADMIN_KEY');
      assert.equal(latest.source, 'community');
      assert.equal(latest.is_rollback, false);
      assert.match(latest.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(typeof first.edit_summary, 'string');
      assert.ok(Date.parse(latest.created_at) >= Date.parse(first.created_at));
    });

    it('normalizes the domain as saves do', async () => {
      assert.equal((await json(await history('domain=HTTPS%3A%2F%2FNews.Example%2F'))).total, 3);
    });

    it('marks a publisher’s own adagents.json revisions as the system’s', async () => {
      const body = await json(await history('domain=owned.example'));
      assert.equal(body.total, 1);
      assert.equal(body.revisions[0].editor_name, 'system');
      assert.equal(body.revisions[0].source, 'adagents_json');
    });

    it('pages with limit and offset, 20 by default and at most 100', async () => {
      const first = await json(await history('domain=long.example'));
      assert.equal(first.total, 25);
      assert.deepEqual(
        numbers(first),
        Array.from({ length: 20 }, (_, i) => 25 - i),
      );
      const page = await json(await history('domain=long.example&limit=10&offset=20'));
      assert.equal(page.total, 25);
      assert.deepEqual(numbers(page), [5, 4, 3, 2, 1]);
      assert.deepEqual(numbers(await json(await history('domain=long.example&limit=100&offset=30'))), []);
      for (const query of ['limit=101', 'limit=0', 'offset=-1', 'limit=ten']) {
        const res = await history(`domain=long.example&${query}`);
        assert.equal(res.status, 400, query);
        assert.equal((await json(res)).error, 'validation_failed', query);
      }
    });

    it('answers 404 for an unknown domain, 400 without one or for an invalid one', async () => {
      const missing = await history('domain=unknown.example');
      assert.equal(missing.status, 404);
      assert.equal((await json(missing)).error, 'not_found');
      assert.equal((await json(await history(''))).error, 'validation_failed');
      assert.equal((await json(await history('domain=news.example%3A80'))).error, 'invalid_domain');
    });

    it('is public: no credential needed, and a wrong one is ignored', async () => {
      assert.equal(
        (
          await fetch(`${server.url}/api/properties/history?domain=news.example`, {
            headers: { authorization: 'Bearer wrong' },
          })
        ).status,
        200,
      );
    });
  });

  describe('rollback', () => {
    it('restores an earlier revision as a new one marked is_rollback with rolled_back_to', async () => {
      const res = await rollback({ domain: 'News.Example', to_revision: 1 });
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.equal(body.success, true);
      assert.equal(body.id, id);
      assert.equal(body.revision_number, 4);

      const entry = await resolve('news.example');
      assert.deepEqual(entry.authorized_agents, [agent('first')]);
      assert.deepEqual(entry.properties, [{ type: 'website', name: 'News' }]);
      assert.equal(entry.contact, undefined);
      assert.equal(entry.source, 'community');
      assert.equal(entry.revision_number, 4);

      const page = await json(await history('domain=news.example'));
      assert.equal(page.total, 4);
      const [latest, previous] = page.revisions;
      assert.equal(latest.revision_number, 4);
      assert.equal(latest.is_rollback, true);
      assert.equal(latest.rolled_back_to, 1);
      assert.equal(latest.editor_name, 'admin/AP_ADMIN_KEY');
      assert.equal(previous.is_rollback, false);
      assert.equal('rolled_back_to' in previous, false);
    });

    it('appends a property.updated event naming what the rollback changed', async () => {
      const events = await eventsOf(server.db, id);
      assert.deepEqual(
        events.map((e) => e.event_type),
        ['property.created', 'property.updated', 'property.updated', 'property.updated'],
      );
      for (const event of events) assertValidEvent(event);
      const last = events.at(-1)!;
      assert.equal(last.payload.property_rid, id);
      assert.deepEqual([...(last.payload.changed_fields as string[])].sort(), [
        'authorized_agents',
        'contact',
        'properties',
      ]);
    });

    it('can roll forward again to a revision made after the one restored', async () => {
      const res = await rollback({ domain: 'news.example', to_revision: 3 });
      assert.equal(res.status, 200);
      assert.equal((await json(res)).revision_number, 5);
      assert.deepEqual((await resolve('news.example')).contact, { email: 'ops@news.example' });
      assert.equal((await eventsOf(server.db, id)).length, 5);
    });

    it('refuses what cannot be rolled back, writing no revision and no event', async () => {
      const cases: [unknown, number, string][] = [
        [{ domain: 'news.example', to_revision: 5 }, 400, 'invalid_request'],
        [{ domain: 'news.example', to_revision: 9 }, 400, 'invalid_request'],
        [{ domain: 'news.example', to_revision: 0 }, 400, 'validation_failed'],
        [{ domain: 'news.example' }, 400, 'validation_failed'],
        [{ domain: 'news.example:443', to_revision: 1 }, 400, 'invalid_domain'],
        [{ domain: 'unknown.example', to_revision: 1 }, 404, 'not_found'],
        [{ domain: 'owned.example', to_revision: 1 }, 409, 'authoritative_entry'],
      ];
      for (const [body, status, code] of cases) {
        const before = await writeCounts(server.db);
        const res = await rollback(body);
        assert.equal(res.status, status, JSON.stringify(body));
        assert.equal((await json(res)).error, code, JSON.stringify(body));
        assert.deepEqual(await writeCounts(server.db), before, JSON.stringify(body));
      }
      assert.equal((await resolve('owned.example')).source, 'adagents_json');
    });

    it('needs a credential and a JSON body', async () => {
      const before = await writeCounts(server.db);
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        const res = await rollback({ domain: 'news.example', to_revision: 1 }, headers);
        assert.equal(res.status, 401);
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
      }
      const plain = await fetch(`${server.url}/api/properties/rollback`, {
        method: 'POST',
        headers: { ...asAdmin, 'content-type': 'text/plain' },
        body: JSON.stringify({ domain: 'news.example', to_revision: 1 }),
      });
      assert.equal(plain.status, 415);
      assert.deepEqual(await writeCounts(server.db), before);
      assert.equal((await resolve('news.example')).revision_number, 5);
    });
  });
});
