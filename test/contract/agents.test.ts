import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REGISTRY_EVENT_SCHEMA_ID, validateSchema } from '../../src/protocol/schemas.ts';
import { ProfilePublisher } from '../../src/registry/agents/search/profile-publisher.ts';
import { startContractRegistry, type ContractRegistry } from '../support/contract.ts';
import { eachEngine } from '../support/engines.ts';
import type { Json } from '../support/http.ts';

/**
 * Agent discovery as the protocol's registry client calls it (its listAgents, searchAgents,
 * getAgentCompliance and getFeed methods): the demo registry with this deployment's agents enrolled
 * and probed, each request as the client sends it, and the fields it reads.
 */
const meridian = 'https://sales.meridian-sales.example/mcp';

eachEngine('the registry client’s agent discovery', (engine) => {
  let registry: ContractRegistry;
  let sales: string;

  before(async () => {
    registry = await startContractRegistry(engine, { env: { AGENTS: 'true', PROBE_WORKER: 'true' } });
    const { app, db } = registry.server;
    await app.demoAgents;
    // A probe pass begun after the enrollments: every deployment agent is probed once it settles.
    const pass = app.agentProber!.nextPass();
    app.agentProber!.wake();
    await pass;
    await app.agentSearch.reload(db);
    sales = `http://localhost:${new URL(registry.server.url).port}/sales/mcp`;
  });
  after(() => registry.close());

  const agentsOf = (body: Json) => body['agents'] as Json[];

  describe('listAgents', () => {
    it('{ type: sales, health, capabilities, properties, compliance }: url, source, member, health, capabilities, compliance and property summary', async () => {
      const { status, body } = await registry.get(
        '/api/registry/agents?type=sales&health=true&capabilities=true&properties=true&compliance=true',
      );
      assert.equal(status, 200);
      assert.equal(body['count'], 1);
      assert.deepEqual(body['sources'], { registered: 1, discovered: 0 });
      const [agent] = agentsOf(body);
      assert.equal(agent!['url'], sales);
      assert.equal(agent!['name'], 'AP test deployment: sales');
      assert.equal(agent!['type'], 'sales');
      assert.equal(agent!['source'], 'registered');
      assert.deepEqual(agent!['member'], { slug: 'ap-test-deployment', display_name: 'AP test deployment' });
      assert.equal(agent!['added_date'], agent!['enrolled_at']);

      const health = agent!['health'] as Json;
      assert.equal(health['online'], true);
      assert.equal(health['checked_at'], health['last_probed_at']);
      assert.match(health['checked_at'], /^\d{4}-\d\d-\d\dT/);
      assert.equal(health['response_time_ms'], health['latency_ms']);
      assert.ok(health['tools_count'] > 0, JSON.stringify(health));

      const capabilities = agent!['capabilities'] as Json;
      assert.equal(capabilities['tools_count'], health['tools_count']);

      const compliance = agent!['compliance'] as Json;
      assert.equal(compliance['status'], 'passing');
      assert.equal(compliance['lifecycle_stage'], 'production');
      assert.equal(compliance['headline'], 'all 7 checks pass');
      assert.equal(compliance['streak_days'], 0);
      assert.equal(compliance['last_checked_at'], health['checked_at']);
      assert.deepEqual(Object.values(compliance['tracks']), Array(7).fill('pass'));
      assert.equal(compliance['verified'], true);
      assert.deepEqual(compliance['verified_roles'], ['media-buy']);

      // No publisher of the demo world authorizes the deployment's agent.
      assert.deepEqual(agent!['publisher_domains'], []);
      assert.deepEqual(agent!['property_summary'], { total_count: 0, count_by_type: {}, tags: [], publisher_count: 0 });
    });

    it('{ verified: true } and { verification_mode }: the agents holding the badge (spec); none verified live', async () => {
      const all = await registry.get('/api/registry/agents?compliance=true');
      const holding = agentsOf(all.body)
        .filter((a) => (a['compliance'] as Json)['verified'])
        .map((a) => a['url']);
      assert.ok(holding.includes(sales), JSON.stringify(holding));
      for (const query of ['verified=true', 'verification_mode=spec', 'verified=true&verification_mode=spec']) {
        const { status, body } = await registry.get(`/api/registry/agents?${query}`);
        assert.equal(status, 200, query);
        assert.deepEqual(
          agentsOf(body).map((a) => a['url']),
          holding,
          query,
        );
      }
      for (const query of ['verification_mode=live', 'verification_mode=spec&verification_mode=live']) {
        const { status, body } = await registry.get(`/api/registry/agents?${query}`);
        assert.equal(status, 200, query);
        assert.deepEqual(body['agents'], [], query);
        assert.equal(body['count'], 0, query);
      }
    });

    it('{ type: si } and { type: unknown }, which no enrolled agent has, and the measurement filters: accepted', async () => {
      for (const query of [
        'type=si',
        'type=unknown',
        'metric_id=viewability&metric_id=attention&accreditation=MRC&q=view',
      ]) {
        const { status, body } = await registry.get(`/api/registry/agents?${query}`);
        assert.equal(status, 200, query);
        assert.deepEqual(body['agents'], [], query);
      }
      assert.equal((await registry.get('/api/registry/agents?verification_mode=sometimes')).status, 400);
    });
  });

  describe('searchAgents', () => {
    it('{ type: sales, sort: relevance }: url, name, type, inventory_profile, match, and the probed agent’s compliance_summary', async () => {
      const { status, body } = await registry.get('/api/registry/agents/search?type=sales&sort=relevance&limit=200');
      assert.equal(status, 200);
      const results = body['results'] as Json[];
      assert.equal(body['has_more'], false);
      const byUrl = new Map(results.map((r) => [r['url'], r]));
      for (const result of results) {
        assert.equal(result['url'], result['agent_url']);
        assert.equal(result['type'], 'sales');
        assert.deepEqual(result['match'], {
          score: result['relevance_score'],
          matched_filters: result['matched_filters'],
        });
        const {
          agent_url: _url,
          updated_at: _updated,
          relevance_score: _score,
          matched_filters: _matched,
          url: _u,
          name: _n,
          type: _t,
          inventory_profile,
          match: _m,
          compliance_summary: _c,
          ...flat
        } = result;
        assert.deepEqual(inventory_profile, flat, 'the profile fields, grouped');
      }
      const graph = byUrl.get(meridian)!;
      assert.ok(graph, JSON.stringify([...byUrl.keys()]));
      assert.equal(graph['name'], meridian, 'an agent only publishers name goes by its URL');
      assert.equal(graph['compliance_summary'], undefined);
      // The Meridian agent sells cityrecipes, dailyharbor, metroweekly and trailmag inventory.
      assert.equal((graph['inventory_profile'] as Json)['publisher_count'], 4);
      const own = byUrl.get(sales)!;
      assert.equal(own['name'], 'AP test deployment: sales');
      assert.equal((own['compliance_summary'] as Json)['status'], 'passing');
      assert.equal((own['compliance_summary'] as Json)['lifecycle_stage'], 'production');
    });

    it('{ type: creative }: no creative agent has an inventory profile; the legacy si matches none', async () => {
      for (const type of ['creative', 'si']) {
        const { status, body } = await registry.get(`/api/registry/agents/search?type=${type}&sort=relevance`);
        assert.equal(status, 200, type);
        assert.deepEqual(body['results'], [], type);
      }
      assert.equal((await registry.get('/api/registry/agents/search?sort=newest')).status, 400);
    });
  });

  describe('getAgentCompliance', () => {
    it('answers an enrolled agent’s checks and history, anonymously for a public one', async () => {
      const { status, body } = await registry.get(`/api/registry/agents/${encodeURIComponent(sales)}/compliance`, {
        anonymous: true,
      });
      assert.equal(status, 200);
      assert.equal(body['agent_url'], sales);
      assert.equal(body['status'], 'passing');
      assert.equal(body['lifecycle_stage'], 'production');
      assert.equal(body['headline'], 'all 7 checks pass');
      assert.deepEqual([body['storyboards_passing'], body['storyboards_total']], [7, 7]);
      assert.equal(body['status_changed_at'], body['last_checked_at']);
      assert.equal(body['last_passed_at'], body['last_checked_at']);
      assert.equal(body['last_failed_at'], null);
      assert.equal(body['check_interval_hours'], 0.25);
      assert.ok((body['declared_specialisms'] as string[]).length > 0);
      assert.equal((body['checks'] as Json[]).length, 7);
      assert.equal(body['verified'], true);
      assert.deepEqual(body['history'], [
        {
          changed_at: body['last_checked_at'],
          previous_status: 'unknown',
          current_status: 'passing',
          headline: 'all 7 checks pass',
          checks_passing: 7,
          checks_total: 7,
        },
      ]);
    });

    it('answers 404 not_found for an agent the catalog does not hold (the client’s null), unlike a path we do not serve', async () => {
      const unknown = await registry.get(`/api/registry/agents/${encodeURIComponent(meridian)}/compliance`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body['error'], 'not_found');
      const path = await registry.get(`/api/registry/agents/${encodeURIComponent(sales)}/compliance/extra`);
      assert.equal(path.status, 404);
      assert.equal(path.body['error'], 'route_not_found');
      assert.equal((await registry.get('/api/registry/agents/not%20a%20url/compliance')).status, 400);
      // A long agent URL, percent-encoded in the path as the client sends it, is still asked about.
      const long = `https://agents.example/${'segment/'.repeat(40)}mcp`;
      const longAnswer = await registry.get(`/api/registry/agents/${encodeURIComponent(long)}/compliance`);
      assert.deepEqual([longAnswer.status, longAnswer.body['error']], [404, 'not_found']);
    });
  });

  describe('getFeed', () => {
    it('agent.profile_updated carries the inventory_profile a follower keeps, and agent.compliance_changed a compliance summary', async () => {
      const { app, db } = registry.server;
      assert.ok(
        (await new ProfilePublisher().publish(
          db,
          app.agentSearch.profiles.current(app.authorizationIndex.index),
          new Date(),
        )) > 0,
      );
      const search = await registry.get('/api/registry/agents/search?limit=200');
      const profiles = new Map((search.body['results'] as Json[]).map((r) => [r['url'], r['inventory_profile']]));

      const { status, body } = await registry.get(
        '/api/registry/feed?types=agent.profile_updated,agent.compliance_changed&limit=1000',
      );
      assert.equal(status, 200);
      const events = body['events'] as Json[];
      for (const event of events)
        assert.deepEqual(validateSchema(REGISTRY_EVENT_SCHEMA_ID, event).errors, [], event['event_type']);

      // The catalog's own events (an enrollment: name and type) leave the inventory as it was; the profiles' carry it.
      const updated = events.filter(
        (e) => e['event_type'] === 'agent.profile_updated' && e['actor'] === 'pipeline:agent-profiles',
      );
      assert.deepEqual(new Set(updated.map((e) => e['entity_id'])), new Set(profiles.keys()));
      for (const event of updated)
        assert.deepEqual(event['payload']['inventory_profile'], profiles.get(event['entity_id']), event['entity_id']);
      assert.equal(updated.find((e) => e['entity_id'] === sales)!['payload']['name'], 'AP test deployment: sales');
      const enrolled = events.filter(
        (e) => e['event_type'] === 'agent.profile_updated' && e['actor'] !== 'pipeline:agent-profiles',
      );
      assert.ok(enrolled.some((e) => e['entity_id'] === sales && e['payload']['name'] === 'AP test deployment: sales'));
      assert.ok(enrolled.every((e) => e['payload']['inventory_profile'] === undefined));

      const changed = events.find((e) => e['event_type'] === 'agent.compliance_changed' && e['entity_id'] === sales)!;
      assert.deepEqual(
        [changed['payload']['previous_status'], changed['payload']['current_status']],
        ['unknown', 'passing'],
      );
      const summary = changed['payload']['compliance_summary'] as Json;
      assert.equal(summary['status'], 'passing');
      assert.equal(summary['headline'], 'all 7 checks pass');
      assert.deepEqual(summary['tracks'], changed['payload']['tracks']);
    });
  });
});
