import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { InventoryProfile } from '../../../src/registry/agents/search/inventory-profile.ts';
import type { ProfileEntry } from '../../../src/registry/agents/search/profile-index.ts';
import { ProfilePublisher } from '../../../src/registry/agents/search/profile-publisher.ts';
import { agents, buildWorld, dailyPlanet, publishAdagents } from '../../support/authorization-world.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { assertValidEvent, type EventRow } from '../properties/feed.ts';

/**
 * `agent.profile_updated` and `agent.removed` from inventory profiles (issue 19, section 4): each
 * change published once, by one instance at a time, compared with what was published before (so a
 * second instance, or a restarted one, publishes nothing twice); private agents stay out.
 */
eachEngine('agent profile events', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  let since = '';

  const caughtUp = async () => {
    const [last] = await server.db.query<{ id: string }>('select max(event_id::text) as id from registry_events');
    await server.app.authorizationIndex.reached(last!.id);
    await server.app.agentSearch.reload(server.db);
  };
  const profiles = () => server.app.agentSearch.profiles.current(server.app.authorizationIndex.index);
  /** The agent events written since the last call, each valid against the published schema. */
  const newEvents = async () => {
    const rows = await server.db.query<EventRow>(
      `select event_id, event_type, entity_type, entity_id, payload, actor, created_at from registry_events where entity_type = 'agent' and event_type <> 'agent.discovered' and event_id::text > $1 order by event_id`,
      [since],
    );
    if (rows.length > 0) since = String(rows.at(-1)!.event_id);
    for (const row of rows) assertValidEvent(row);
    return rows;
  };

  before(async () => {
    server = await startTestServer(engine, { deps: { clock } });
    await buildWorld(server.db);
    await caughtUp();
    await newEvents();
  });
  after(async () => {
    await server.close();
  });

  it('publishes every public profile once, then only changes, whichever instance publishes', async () => {
    const first = new ProfilePublisher();
    const written = await first.publish(server.db, profiles(), clock.now());
    const events = await newEvents();
    assert.equal(written, events.length);
    assert.deepEqual(new Set(events.map((e) => e.entity_id)), new Set([...profiles().keys()]));
    assert.ok(events.every((e) => e.event_type === 'agent.profile_updated'));
    const meridian = events.find((e) => e.entity_id === agents.meridian)!.payload as Record<string, unknown>;
    assert.deepEqual([meridian['type'], meridian['property_types']], ['sales', ['mobile_app', 'website']]);

    assert.equal(await first.publish(server.db, profiles(), clock.now()), 0, 'nothing changed');
    assert.equal(
      await new ProfilePublisher().publish(server.db, profiles(), clock.now()),
      0,
      'another (or a restarted) instance finds it all published',
    );
    assert.deepEqual(await newEvents(), []);
  });

  it('publishes a changed profile with its changed fields, once, and an agent no publisher authorizes any more as removed', async () => {
    // Daily Planet drops Meridian (its profile shrinks) and AdNet (Daily Planet was its only publisher).
    const document = dailyPlanet({ withMeridian: false });
    document['authorized_agents'] = (document['authorized_agents'] as Array<{ url: string }>).filter(
      (a) => a.url !== agents.adnet,
    );
    await publishAdagents(server.db, 'dailyplanet.example', document);
    await caughtUp();
    const [a, b] = [new ProfilePublisher(), new ProfilePublisher()];
    const counts = await Promise.all([
      a.publish(server.db, profiles(), clock.now()),
      b.publish(server.db, profiles(), clock.now()),
    ]);
    const events = await newEvents();
    assert.equal(
      counts[0]! + counts[1]!,
      events.length,
      'two instances at once: one publishes, the other finds it done',
    );
    const byAgent = new Map(events.map((e) => [String(e.entity_id), e]));
    assert.equal(events.length, byAgent.size, 'one event per agent');
    assert.equal(byAgent.get(agents.adnet)?.event_type, 'agent.removed');
    const changed = byAgent.get(agents.meridian)!;
    assert.equal(changed.event_type, 'agent.profile_updated');
    assert.ok(
      (changed.payload['changed_fields'] as string[]).includes('property_count'),
      JSON.stringify(changed.payload),
    );
  });

  it('keeps private agents out of the feed', async () => {
    await seedOrganization(server.db, { slug: 'quiet' });
    await proveOwnership(server.db, 'quiet', 'quiet.example', clock.now());
    const res = await postJson(
      `${server.url}/api/registry/agents`,
      { agent_url: 'https://sales.quiet.example/mcp', type: 'sales', name: 'Quiet', visibility: 'private' },
      bearer(await createApiKeyFor(server.db, 'quiet')),
    );
    assert.equal(res.status, 201);
    await caughtUp();
    assert.ok(profiles().has('https://sales.quiet.example/mcp'), 'it has a profile, for its organization’s searches');
    await new ProfilePublisher().publish(server.db, profiles(), clock.now());
    assert.deepEqual(
      (await newEvents()).map((e) => e.entity_id),
      [],
    );
  });

  it('carries the profile again as inventory_profile, each list at most 250 values, naming the lists it cut', async () => {
    const agent = 'https://sales.wide.example/mcp';
    const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
    const profile: InventoryProfile = {
      agent_url: agent,
      channels: ['display'],
      property_types: ['website'],
      markets: ['US'],
      categories: [],
      tags: many(300, (i) => `tag-${String(i).padStart(3, '0')}`),
      delivery_types: ['guaranteed'],
      format_ids: many(260, (i) => ({ agent_url: 'https://creative.wide.example/mcp', id: `format_${i}` })),
      property_count: 300,
      publisher_count: 2,
      has_tmp: false,
      category_taxonomy: null,
      updated_at: clock.now().toISOString(),
    };
    await new ProfilePublisher().publish(
      server.db,
      new Map<string, ProfileEntry>([...profiles(), [agent, { profile, extras: undefined }]]),
      clock.now(),
    );
    const [event] = (await newEvents()).filter((e) => e.entity_id === agent);
    const payload = event!.payload as Record<string, Record<string, unknown[]> & unknown[]>;
    assert.deepEqual(payload['truncated_fields'], ['tags', 'format_ids']);
    assert.deepEqual(payload['tags'], profile.tags.slice(0, 250));
    assert.deepEqual(payload['inventory_profile']!['tags'], profile.tags.slice(0, 250));
    assert.equal(payload['inventory_profile']!['format_ids']!.length, 250);
    assert.deepEqual(payload['inventory_profile']!['channels'], ['display']);
    assert.equal(payload['inventory_profile']!['property_count'], 300);
    assert.ok(JSON.stringify(payload).length < 64 * 1024, `${JSON.stringify(payload).length} characters`);
  });
});
