import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Authenticator } from '../../../src/auth/authenticator.ts';
import type { Principal, Standing } from '../../../src/auth/principal.ts';
import { saveAuthoritative } from '../../../src/registry/properties/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';
import { assertValidEvent, eventsOf, writeCounts } from './feed.ts';

const seededAgents = [{ url: 'https://sales.planet.example/ap', authorized_for: 'All inventory' }];

eachEngine('property saves', (engine) => {
  let server: TestServer;
  let seededId: string;
  const save = (body: unknown, headers?: Record<string, string>) =>
    postJson(`${server.url}/api/properties/save`, body, headers);
  const resolve = async (domain: string) =>
    fetch(`${server.url}/api/properties/resolve?domain=${encodeURIComponent(domain)}`);
  const revisionsOf = async (domain: string) =>
    (
      await server.db.query<{ revision_number: number }>(
        `select r.revision_number from property_revisions r join properties p on p.id = r.property_id
         where p.publisher_domain = $1 order by r.revision_number`,
        [domain],
      )
    ).map((r) => r.revision_number);

  /** Sends a request that must be refused, and shows it wrote no revision and no event. */
  const refused = async (send: () => Promise<Response>, status: number, code: string, label = ''): Promise<Json> => {
    const before = await writeCounts(server.db);
    const res = await send();
    assert.equal(res.status, status, label);
    const body = await json(res);
    assert.equal(body.error, code, label);
    assert.deepEqual(await writeCounts(server.db), before, `${label}: a refused save wrote nothing`);
    return body;
  };

  before(async () => {
    server = await startTestServer(engine, {
      env: { RATE_LIMIT_SAVES_PER_HOUR: '1000', RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '1000' },
    });
    const { row } = await server.db.transaction((tx) =>
      saveAuthoritative(tx, 'planet.example', {
        authorized_agents: seededAgents,
        inventory: [{ type: 'website', name: 'Daily Planet' }],
        contact: null,
      }),
    );
    seededId = row.id;
  });
  after(() => server.close());

  describe('creating and updating', () => {
    let id: string;

    it('creates a community entry: 201 with success, message and id, and no revision_number or domain', async () => {
      const res = await save({
        publisher_domain: 'HTTPS://Pub.Example/',
        authorized_agents: [{ url: 'https://agent.seller.example/ap', authorized_for: 'Display' }],
        properties: [{ type: 'website', name: 'Pub Example' }],
        contact: { name: 'Ad Ops', email: 'adops@pub.example' },
      });
      assert.equal(res.status, 201);
      const body = await json(res);
      assert.deepEqual(Object.keys(body).sort(), ['id', 'message', 'success']);
      assert.equal(body.success, true);
      assert.match(body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      id = body.id;

      const entry = await json(await resolve('pub.example'));
      assert.equal(entry.id, id);
      assert.equal(entry.publisher_domain, 'pub.example');
      assert.equal(entry.source, 'community');
      assert.equal(entry.status, 'active');
      assert.deepEqual(entry.authorized_agents, [
        { url: 'https://agent.seller.example/ap', authorized_for: 'Display' },
      ]);
      assert.deepEqual(entry.properties, [{ type: 'website', name: 'Pub Example' }]);
      assert.deepEqual(entry.contact, { name: 'Ad Ops', email: 'adops@pub.example' });
      assert.equal(entry.revision_number, 1);
      assert.deepEqual(await revisionsOf('pub.example'), [1]);
    });

    it('appends exactly one property.created event, valid against the feed schema', async () => {
      const events = await eventsOf(server.db, id);
      assert.equal(events.length, 1);
      const event = assertValidEvent(events[0]!);
      assert.equal(event.event_type, 'property.created');
      assert.equal(event.entity_type, 'property');
      assert.equal(event.entity_id, id);
      const payload = events[0]!.payload;
      assert.equal(payload.property_rid, id);
      assert.equal(payload.classification, 'property');
      assert.equal(payload.source, 'contributed');
      assert.deepEqual(payload.identifiers, [{ type: 'domain', value: 'pub.example' }]);
      assert.match(events[0]!.actor, /^api:api_key:[0-9a-f-]{36}$/);
    });

    it('updates it: 200 with revision_number, and one property.updated naming what changed', async () => {
      const res = await save({
        publisher_domain: 'pub.example',
        authorized_agents: [{ url: 'https://agent.seller.example/ap', authorized_for: 'Display and video' }],
        properties: [{ type: 'website', name: 'Pub Example' }],
        contact: { name: 'Ad Ops', email: 'adops@pub.example' },
      });
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.deepEqual(Object.keys(body).sort(), ['id', 'message', 'revision_number', 'success']);
      assert.equal(body.id, id);
      assert.equal(body.revision_number, 2);
      assert.equal((await json(await resolve('pub.example'))).authorized_agents[0].authorized_for, 'Display and video');

      const events = await eventsOf(server.db, id);
      assert.deepEqual(
        events.map((e) => e.event_type),
        ['property.created', 'property.updated'],
      );
      const updated = events[1]!;
      assertValidEvent(updated);
      assert.equal(updated.payload.property_rid, id);
      assert.deepEqual(updated.payload.changed_fields, ['authorized_agents']);
    });

    it('names every changed field; leaving properties and contact out clears them', async () => {
      const res = await save({
        publisher_domain: 'pub.example',
        authorized_agents: [{ url: 'https://agent.seller.example/ap', authorized_for: 'Display and video' }],
      });
      assert.equal(res.status, 200);
      assert.equal((await json(res)).revision_number, 3);
      const entry = await json(await resolve('pub.example'));
      assert.deepEqual(entry.properties, []);
      assert.equal(entry.contact, undefined);
      const events = await eventsOf(server.db, id);
      assert.equal(events.length, 3);
      assert.equal(events[2]!.event_type, 'property.updated');
      assert.deepEqual([...(events[2]!.payload.changed_fields as string[])].sort(), ['contact', 'properties']);
      assertValidEvent(events[2]!);
    });

    it('a save with identical content adds a revision but no event, however the JSON is written', async () => {
      const res = await save({
        authorized_agents: [{ authorized_for: 'Display and video', url: 'https://agent.seller.example/ap' }],
        publisher_domain: 'Pub.Example.',
      });
      assert.equal(res.status, 200);
      assert.equal((await json(res)).revision_number, 4);
      assert.deepEqual(await revisionsOf('pub.example'), [1, 2, 3, 4]);
      assert.equal((await eventsOf(server.db, id)).length, 3);
    });

    it('stores an internationalized domain in its ASCII form', async () => {
      const res = await save({ publisher_domain: 'Bücher.example', authorized_agents: [] });
      assert.equal(res.status, 201);
      const { id: created } = await json(res);
      assert.equal((await json(await resolve('xn--bcher-kva.example'))).id, created);
      const events = await eventsOf(server.db, created);
      assert.deepEqual(
        events.map((e) => e.payload.identifiers),
        [[{ type: 'domain', value: 'xn--bcher-kva.example' }]],
      );
      assertValidEvent(events[0]!);
    });
  });

  describe('50 concurrent saves of one new publisher domain', () => {
    const agentsFor = (i: number) => [{ url: `https://agent${i % 3}.busy.example/ap` }];
    let responses: Json[];
    let statuses: number[];

    before(async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          save({ publisher_domain: 'busy.example', authorized_agents: agentsFor(i) }),
        ),
      );
      statuses = results.map((r) => r.status);
      responses = await Promise.all(results.map(json));
    });

    it('number the revisions exactly 1..50, with exactly one 201', async () => {
      assert.deepEqual(
        statuses.filter((s) => s !== 200 && s !== 201),
        [],
      );
      assert.equal(statuses.filter((s) => s === 201).length, 1);
      assert.deepEqual(
        await revisionsOf('busy.example'),
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      const updates = responses.filter((_, i) => statuses[i] === 200).map((r) => r.revision_number as number);
      assert.deepEqual(
        updates.sort((a, b) => a - b),
        Array.from({ length: 49 }, (_, i) => i + 2),
      );
      assert.equal(new Set(responses.map((r) => r.id)).size, 1);
    });

    it('append one property.created and a property.updated only for each real change', async () => {
      const id = responses[0]!.id as string;
      const snapshots = await server.db.query<{ revision_number: number; agents: unknown }>(
        `select revision_number, snapshot->'authorized_agents' as agents from property_revisions where property_id = $1 order by revision_number`,
        [id],
      );
      let changes = 0;
      for (let n = 1; n < snapshots.length; n++)
        if (JSON.stringify(snapshots[n]!.agents) !== JSON.stringify(snapshots[n - 1]!.agents)) changes++;

      const events = await eventsOf(server.db, id);
      assert.equal(events.filter((e) => e.event_type === 'property.created').length, 1);
      assert.equal(events[0]!.event_type, 'property.created');
      const updated = events.filter((e) => e.event_type === 'property.updated');
      assert.equal(updated.length, changes);
      assert.equal(events.length, 1 + changes);
      for (const event of updated) assert.deepEqual(event.payload.changed_fields, ['authorized_agents']);
      for (const event of events) assertValidEvent(event);
    });
  });

  describe('refused saves write no revision and no event', () => {
    const body = { publisher_domain: 'refused.example', authorized_agents: [{ url: 'https://agent.example/ap' }] };

    it('401 without a credential or with a wrong one, with WWW-Authenticate', async () => {
      for (const headers of [
        {},
        { authorization: 'Bearer wrong' },
        { authorization: 'Basic dGVzdDp0ZXN0' },
        { authorization: 'Bearer' },
      ] as Record<string, string>[]) {
        const before = await writeCounts(server.db);
        const res = await save(body, headers);
        assert.equal(res.status, 401, JSON.stringify(headers));
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm=/);
        assert.equal((await json(res)).error, 'unauthorized');
        assert.deepEqual(await writeCounts(server.db), before);
      }
      assert.equal((await resolve('refused.example')).status, 404);
    });

    it('415 for a body not sent as JSON', async () => {
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
        await refused(
          () =>
            fetch(`${server.url}/api/properties/save`, {
              method: 'POST',
              headers: { ...asAdmin, ...(contentType ? { 'content-type': contentType } : {}) },
              body: JSON.stringify(body),
            }),
          415,
          'unsupported_media_type',
          String(contentType),
        );
      }
      assert.equal((await resolve('refused.example')).status, 404);
    });

    it('400 validation_failed naming the field: missing fields, a bad e-mail, a bad agent, an unknown field', async () => {
      const agents = body.authorized_agents;
      const cases: [unknown, string][] = [
        [{ authorized_agents: agents }, 'publisher_domain'],
        [{ publisher_domain: 'refused.example' }, 'authorized_agents'],
        [{ ...body, contact: { email: 'not an e-mail' } }, 'contact.email'],
        [{ ...body, authorized_agents: [{ authorized_for: 'no url' }] }, 'authorized_agents.0.url'],
        [{ ...body, authorized_agents: [{ url: 'not a url' }] }, 'authorized_agents.0.url'],
        [{ ...body, properties: [{ type: 'website' }] }, 'properties.0.name'],
        [{ ...body, publisher_domain: '' }, 'publisher_domain'],
        [{ ...body, owner: 'me' }, 'owner'],
      ];
      for (const [request, field] of cases) {
        const error = await refused(() => save(request), 400, 'validation_failed', JSON.stringify(request));
        assert.ok(
          error.details.some((d: Json) => d.in === 'body' && d.field === field),
          `${JSON.stringify(request)}: ${JSON.stringify(error.details)}`,
        );
      }
      assert.equal((await resolve('refused.example')).status, 404);
    });

    it('400 invalid_domain for a publisher_domain that is not a host name', async () => {
      for (const domain of [
        'refused.example:8080',
        'refused.example/path',
        '127.0.0.1',
        'localhost',
        'user@refused.example',
        'bad_label.example',
      ]) {
        const error = await refused(() => save({ ...body, publisher_domain: domain }), 400, 'invalid_domain', domain);
        assert.equal(error.details[0].field, 'publisher_domain', domain);
      }
    });

    it('400 invalid_json for a malformed body', async () => {
      await refused(
        () =>
          fetch(`${server.url}/api/properties/save`, {
            method: 'POST',
            headers: { ...asAdmin, 'content-type': 'application/json' },
            body: '{"publisher_domain":',
          }),
        400,
        'invalid_json',
      );
    });

    it('409 authoritative_entry for an entry managed by its adagents.json, however the domain is written', async () => {
      for (const domain of ['planet.example', 'HTTPS://Planet.Example/']) {
        await refused(
          () => save({ publisher_domain: domain, authorized_agents: [{ url: 'https://hijack.example/ap' }] }),
          409,
          'authoritative_entry',
          domain,
        );
      }
      const entry = await json(await resolve('planet.example'));
      assert.equal(entry.id, seededId);
      assert.equal(entry.source, 'adagents_json');
      assert.deepEqual(entry.authorized_agents, seededAgents);
      assert.equal(entry.revision_number, 1);
      // The entry itself is not a property record: the crawled catalog (graph/) tells its changes.
      assert.deepEqual(await eventsOf(server.db, seededId), []);
    });

    it('409 once the publisher’s own adagents.json takes over a community entry', async () => {
      const created = await json(
        await save({
          publisher_domain: 'takeover.example',
          authorized_agents: [{ url: 'https://community.example/ap' }],
        }),
      );
      await server.db.transaction((tx) =>
        saveAuthoritative(tx, 'takeover.example', { authorized_agents: seededAgents, inventory: [], contact: null }),
      );
      await refused(
        () => save({ publisher_domain: 'takeover.example', authorized_agents: [] }),
        409,
        'authoritative_entry',
      );
      const entry = await json(await resolve('takeover.example'));
      assert.equal(entry.id, created.id);
      assert.equal(entry.source, 'adagents_json');
      // The community property record ends: stale here, with no catalog property to merge into.
      const events = await eventsOf(server.db, created.id);
      assert.deepEqual(
        events.map((e) => e.event_type),
        ['property.created', 'property.stale'],
      );
      assert.equal(events[1]!.payload.property_rid, created.id);
      for (const event of events) assertValidEvent(event);
    });
  });
});

/** Users of three organizations, standing in for the identity layer (issue 4 tests the real one). */
// Registry admins, so the proof of domain control (tested in ownership/) does not stand in the way of the limits.
const member = (slug: string): Standing => ({
  organizationId: slug,
  slug,
  role: 'member',
  apiTier: false,
  registryAdmin: true,
});
const users: Record<string, Principal> = {
  alice: { kind: 'user', subject: 'alice', organization: member('org-a'), displayName: 'Alice' },
  bob: { kind: 'user', subject: 'bob', organization: member('org-a'), displayName: 'Bob' },
  carol: { kind: 'user', subject: 'carol', organization: member('org-c'), displayName: 'Carol' },
  dave: { kind: 'user', subject: 'dave', organization: member('org-d'), displayName: 'Dave' },
};
const usersAuthenticator: Authenticator = { authenticate: async (credential) => users[credential] ?? null };
const as = (user: string) => ({ authorization: `Bearer ${user}` });

eachEngine('property save limits', (engine) => {
  let server: TestServer;
  const save = (domain: string, user: string) =>
    postJson(`${server.url}/api/properties/save`, { publisher_domain: domain, authorized_agents: [] }, as(user));

  const assertLimited = async (res: Response) => {
    assert.equal(res.status, 429);
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    const body = await json(res);
    assert.equal(body.error, 'rate_limited');
    assert.equal(body.retry_after, retryAfter);
  };

  before(async () => {
    server = await startTestServer(engine, {
      env: {
        RATE_LIMIT_SAVES_PER_HOUR: '2',
        RATE_LIMIT_SAVES_PER_HOUR_PER_ORG: '3',
        RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '6',
        BODY_LIMIT_BYTES: '4096',
      },
      deps: { authenticator: usersAuthenticator },
    });
  });
  after(() => server.close());

  // The counters carry over from test to test: each rule counts the requests that passed the rules before it
  // (per user, then per organization, then per IP).

  it('413 for a body over BODY_LIMIT_BYTES, writing nothing', async () => {
    const before = await writeCounts(server.db);
    const res = await postJson(
      `${server.url}/api/properties/save`,
      {
        publisher_domain: 'big.example',
        authorized_agents: [],
        properties: Array.from({ length: 300 }, (_, i) => ({ type: 'website', name: `Site ${i}` })),
      },
      as('alice'),
    );
    assert.equal(res.status, 413);
    assert.equal((await json(res)).error, 'payload_too_large');
    assert.deepEqual(await writeCounts(server.db), before);
  });

  it('429 with retry_after and Retry-After past the per-user hourly limit, writing nothing', async () => {
    assert.equal((await save('alice1.example', 'alice')).status, 201);
    assert.equal((await save('alice1.example', 'alice')).status, 200);
    const before = await writeCounts(server.db);
    await assertLimited(await save('alice2.example', 'alice'));
    await assertLimited(await save('alice1.example', 'alice'));
    assert.deepEqual(await writeCounts(server.db), before);
    assert.equal((await fetch(`${server.url}/api/properties/resolve?domain=alice2.example`)).status, 404);
    assert.equal(
      (await json(await fetch(`${server.url}/api/properties/resolve?domain=alice1.example`))).revision_number,
      2,
    );
  });

  it('rollbacks spend the same budget as saves', async () => {
    const before = await writeCounts(server.db);
    await assertLimited(
      await postJson(
        `${server.url}/api/properties/rollback`,
        { domain: 'alice1.example', to_revision: 1 },
        as('alice'),
      ),
    );
    assert.deepEqual(await writeCounts(server.db), before);
  });

  it('the organization’s limit holds across its users', async () => {
    assert.equal((await save('bob1.example', 'bob')).status, 201);
    const before = await writeCounts(server.db);
    await assertLimited(await save('bob2.example', 'bob'));
    assert.deepEqual(await writeCounts(server.db), before);
    // Another organization still has its budget.
    assert.equal((await save('carol1.example', 'carol')).status, 201);
  });

  it('the per-IP limit holds across users and organizations', async () => {
    assert.equal((await save('carol2.example', 'carol')).status, 201);
    assert.equal((await save('dave1.example', 'dave')).status, 201);
    const before = await writeCounts(server.db);
    await assertLimited(await save('dave2.example', 'dave'));
    assert.deepEqual(await writeCounts(server.db), before);
    const history = await json(await fetch(`${server.url}/api/properties/history?domain=dave1.example`));
    assert.equal(history.revisions[0].editor_name, 'Dave');
  });
});
