import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../../src/db/database.ts';
import { parseAllowList } from '../../../../src/net/allow-list.ts';
import {
  ProbeWorker,
  complianceDetail,
  probeStates,
  type ProbeState,
} from '../../../../src/registry/agents/probing/index.ts';
import { publicToken, startSignals } from '../../../agents/signals/harness.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import { anotherPool } from '../../../support/feed.ts';
import type { TestServer } from '../../../support/server.ts';
import { assertValidEvent, type EventRow } from '../../properties/feed.ts';
import { tcpProxy } from '../../../support/tcp-proxy.ts';
import { CountingFetch, enrollAgent, startFakeMcpAgent } from './support.ts';

const hour = 3_600_000;

eachEngine('probing enrolled agents', (engine) => {
  const clock = new ManualClock();
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let fake: Awaited<ReturnType<typeof startFakeMcpAgent>>;
  let fetcher: CountingFetch;
  let worker: ProbeWorker;
  let healthy: string;
  let seen = '00000000-0000-0000-0000-000000000000';

  before(async () => {
    server = await startSignals(engine, { clock });
    // The agent is reached through a proxy, so the test can take it down.
    proxy = await tcpProxy(new URL(server.url).host);
    // Capabilities that fail the published schema: no `ap` block, an unknown protocol.
    fake = await startFakeMcpAgent({ supported_protocols: ['telepathy'], specialisms: ['signal-owned'] });
    fetcher = new CountingFetch({ allow: parseAllowList(`${proxy.host},${fake.host}`), timeoutMs: 2000 });
    worker = probeWorker(server.db);
    healthy = `http://${proxy.host}/signals/mcp`;
  });
  after(async () => {
    // Every event any scenario wrote is valid against core/registry-event.json.
    const all = await server.db.query<EventRow>('select * from registry_events order by event_id');
    assert.ok(all.length >= 5, `only ${all.length} events`);
    for (const event of all) assertValidEvent(event);
    await worker.stop();
    await fetcher.close();
    await fake.close();
    await proxy.close();
    await server.close();
  });

  const probeWorker = (db: Database, concurrency = 4) =>
    new ProbeWorker({
      db,
      fetcher,
      clock,
      log: server.app.log,
      settings: { concurrency, authorization: () => `Bearer ${publicToken}` },
    });
  const state = async (url: string): Promise<ProbeState> =>
    (await probeStates(server.db, [url], clock.now())).get(url)!;
  /** The events written since the last call, oldest first. */
  const newEvents = async () => {
    const rows = await server.db.query<EventRow>(
      'select * from registry_events where event_id > $1 order by event_id',
      [seen],
    );
    if (rows.length > 0) seen = rows.at(-1)!.event_id;
    return rows;
  };

  describe('a healthy agent', () => {
    it('is reachable, compliant on every check, and earns the badge once', async () => {
      await newEvents();
      await enrollAgent(server.db, healthy, 'signals', clock.now());
      const reports = await worker.probeDue();
      assert.deepEqual(reports, [
        { agentUrl: healthy, outcome: 'recorded', reachable: true, fetchedCapabilities: true },
      ]);

      const { health, capabilities, compliance, verification } = await state(healthy);
      assert.equal(health.reachable, true);
      assert.equal(typeof health.latency_ms, 'number');
      assert.deepEqual(health.protocols, ['mcp', 'a2a']);
      assert.equal(health.last_probed_at, clock.now().toISOString());
      assert.deepEqual(
        capabilities && {
          protocols: capabilities.supported_protocols,
          age: capabilities.age_seconds,
          stale: capabilities.stale,
        },
        { protocols: ['signals'], age: 0, stale: false },
      );
      assert.deepEqual(
        compliance.checks.filter((c) => !c.passed),
        [],
      );
      assert.equal(compliance.checks.length, 7);
      assert.equal(compliance.status, 'passing');
      assert.deepEqual(verification, {
        verified: true,
        role: 'signals',
        specialisms: ['signal-owned'],
        verified_at: clock.now().toISOString(),
      });

      const events = await newEvents();
      assert.deepEqual(
        events.map((e) => e.event_type),
        ['agent.compliance_changed', 'agent.verification_earned'],
      );
      assert.deepEqual(events[0]!.payload, {
        agent_url: healthy,
        previous_status: 'unknown',
        current_status: 'passing',
        headline: 'all 7 checks pass',
        tracks: Object.fromEntries(compliance.checks.map((c) => [c.name, 'pass'])),
        storyboards_passing: 7,
        storyboards_total: 7,
        storyboards: compliance.checks.map((c) => ({
          storyboard_id: c.name,
          status: 'passing',
          steps_passed: 1,
          steps_total: 1,
        })),
        // What a follower keeps of the agent's compliance (the registry client's AgentCompliance).
        compliance_summary: {
          status: 'passing',
          lifecycle_stage: 'production',
          tracks: Object.fromEntries(compliance.checks.map((c) => [c.name, 'pass'])),
          streak_days: 0,
          last_checked_at: clock.now().toISOString(),
          headline: 'all 7 checks pass',
          verified: true,
          verified_roles: ['signals'],
        },
      });
      assert.deepEqual(events[1]!.payload, {
        agent_url: healthy,
        role: 'signals',
        verified_specialisms: ['signal-owned'],
        ap_version: '3',
      });
      assert.equal(events[1]!.entity_id, healthy);
    });

    it('is not due again before its interval, and within 24 h uses its cached capabilities, their age shown', async () => {
      const calls = fetcher.capabilityCalls;
      assert.deepEqual(await worker.probeDue(), []);
      clock.advance(hour);
      assert.deepEqual(await worker.probeDue(), [
        { agentUrl: healthy, outcome: 'recorded', reachable: true, fetchedCapabilities: false },
      ]);
      assert.equal(fetcher.capabilityCalls, calls);
      const { capabilities, compliance } = await state(healthy);
      assert.equal(capabilities!.age_seconds, 3600);
      assert.equal(capabilities!.stale, false);
      assert.equal(compliance.status, 'passing');
      assert.deepEqual(await newEvents(), [], 'nothing changed');
    });

    it('fetches its capabilities again once they are 24 h old', async () => {
      const calls = fetcher.capabilityCalls;
      clock.advance(23 * hour);
      assert.deepEqual(await worker.probeDue(), [
        { agentUrl: healthy, outcome: 'recorded', reachable: true, fetchedCapabilities: true },
      ]);
      assert.equal(fetcher.capabilityCalls, calls + 1);
      const { capabilities } = await state(healthy);
      assert.equal(capabilities!.fetched_at, clock.now().toISOString());
      assert.equal(capabilities!.age_seconds, 0);
      assert.deepEqual(await newEvents(), []);
    });
  });

  describe('an agent that goes down', () => {
    it('is unreachable without a latency, and loses its badge once, with a reason', async () => {
      await proxy.close();
      clock.advance(hour);
      assert.deepEqual(await worker.probeDue(), [
        { agentUrl: healthy, outcome: 'recorded', reachable: false, fetchedCapabilities: false },
      ]);
      const { health, capabilities, compliance, verification } = await state(healthy);
      assert.equal(health.reachable, false);
      assert.equal(health.latency_ms, undefined);
      assert.deepEqual(health.protocols, []);
      assert.match(health.error!, /^connection_failed: /);
      assert.equal(compliance.status, 'failing');
      assert.deepEqual(compliance.checks[0]!.passed, false);
      assert.ok(compliance.checks.slice(1).every((c) => c.skipped));
      // The last capabilities stay, their age showing.
      assert.equal(capabilities!.age_seconds, 3600);
      assert.equal(verification.verified, false);
      assert.match(verification.reason!, /^compliance check reachable failed: connection_failed/);

      const events = await newEvents();
      assert.deepEqual(
        events.map((e) => e.event_type),
        ['agent.compliance_changed', 'agent.verification_lost'],
      );
      assert.equal(events[0]!.payload['previous_status'], 'passing');
      assert.equal(events[0]!.payload['current_status'], 'failing');
      assert.equal(events[1]!.payload['role'], 'signals');
      assert.match(events[1]!.payload['reason'] as string, /reachable/);

      clock.advance(hour);
      assert.equal((await worker.probeDue()).length, 1);
      assert.deepEqual(await newEvents(), [], 'still down: no new event');
    });

    it('shows its capabilities stale once they are older than 24 h', async () => {
      clock.advance(23 * hour);
      await worker.probeDue();
      const { capabilities } = await state(healthy);
      assert.equal(capabilities!.stale, true);
      assert.equal(capabilities!.age_seconds, 25 * 3600);
    });
  });

  describe('its compliance history', () => {
    it('keeps since when its status holds, its last passing and failing probes, and each change of its checks', async () => {
      // Probed passing at t0, t0+1h and t0+24h, then failing at t0+25h, t0+26h and t0+49h (now).
      const t0 = clock.now().getTime() - 49 * hour;
      const at = (hours: number) => new Date(t0 + hours * hour).toISOString();
      const detail = (await complianceDetail(server.db, healthy, clock.now(), hour / 4))!;
      assert.equal(detail.status, 'failing');
      assert.equal(detail.status_changed_at, at(25));
      assert.equal(detail.streak_days, 1);
      assert.equal(detail.last_passed_at, at(24));
      assert.equal(detail.last_failed_at, at(49));
      assert.equal(detail.last_checked_at, at(49));
      assert.equal(detail.check_interval_hours, 0.25);
      const [down, up] = detail.history;
      assert.equal(detail.history.length, 2);
      assert.match(down!.headline!, /^reachable: connection_failed/);
      assert.deepEqual(down, {
        changed_at: at(25),
        previous_status: 'passing',
        current_status: 'failing',
        headline: down!.headline,
        checks_passing: 0,
        checks_total: 7,
      });
      assert.deepEqual(up, {
        changed_at: at(0),
        previous_status: 'unknown',
        current_status: 'passing',
        headline: 'all 7 checks pass',
        checks_passing: 7,
        checks_total: 7,
      });
      assert.match(detail.headline!, /^reachable: connection_failed/);
    });

    it('is kept for a private agent too, whose probes change no feed event (the feed shows the public catalog)', async () => {
      const url = `${fake.url}/private/mcp`;
      await enrollAgent(server.db, url, 'signals', clock.now());
      await server.db.query(`update registry_agents set visibility = 'private' where agent_url = $1`, [url]);
      await newEvents();
      await worker.probeDue();
      assert.deepEqual(await newEvents(), []);
      const detail = (await complianceDetail(server.db, url, clock.now(), hour / 4))!;
      assert.equal(detail.status, 'failing');
      assert.deepEqual(
        detail.history.map((c) => [c.previous_status, c.current_status]),
        [['unknown', 'failing']],
      );
      await server.db.query('delete from registry_agents where agent_url = $1', [url]);
      assert.equal(await complianceDetail(server.db, url, clock.now(), hour / 4), undefined, 'gone with its agent');
      assert.equal(
        (await server.db.query('select 1 from registry_agent_compliance_changes where agent_url = $1', [url])).length,
        0,
      );
    });
  });

  describe('an agent whose capabilities fail the schema', () => {
    it('fails the capabilities check and emits agent.compliance_changed once', async () => {
      const url = `${fake.url}/invalid/mcp`;
      await newEvents();
      await enrollAgent(server.db, url, 'signals', clock.now());
      await worker.probeDue();
      const { health, compliance, verification } = await state(url);
      assert.equal(health.reachable, true);
      assert.deepEqual(health.protocols, ['mcp']);
      const check = compliance.checks.find((c) => c.name === 'capabilities_valid')!;
      assert.equal(check.passed, false);
      assert.match(check.message, /not valid against protocol\/get-ap-capabilities-response\.json/);
      assert.equal(compliance.checks.find((c) => c.name === 'error_envelope')!.passed, true);
      assert.equal(compliance.status, 'failing');
      assert.equal(verification.verified, false);
      const events = await newEvents();
      assert.deepEqual(
        events.map((e) => e.event_type),
        ['agent.compliance_changed'],
      );
      assert.equal((events[0]!.payload['tracks'] as Record<string, string>)['capabilities_valid'], 'fail');

      clock.advance(hour);
      await worker.probeDue();
      assert.deepEqual(await newEvents(), [], 'the same failure again: no new event');
    });
  });

  describe('a measurement agent', () => {
    it('shows its metric catalog with every accreditation unverified by the registry, and earns no badge', async () => {
      const measuring = await startFakeMcpAgent({
        ap: { major_versions: [3], idempotency: { supported: true, replay_ttl_seconds: 86400 } },
        supported_protocols: ['governance'],
        measurement: {
          metrics: [
            {
              metric_id: 'viewability',
              unit: 'percent',
              accreditations: [{ accrediting_body: 'MRC', verified_by_registry: true }, { note: 'no body' }],
            },
            { unit: 'no id' },
          ],
        },
      });
      const probing = new CountingFetch({ allow: parseAllowList(measuring.host) });
      try {
        const url = `${measuring.url}/mcp`;
        await enrollAgent(server.db, url, 'measurement', clock.now());
        const prober = new ProbeWorker({ db: server.db, fetcher: probing, clock, log: server.app.log });
        await prober.probeDue();
        const { capabilities, compliance, verification } = await state(url);
        assert.deepEqual(capabilities!.metrics, [
          {
            metric_id: 'viewability',
            unit: 'percent',
            accreditations: [{ accrediting_body: 'MRC', verified_by_registry: false }],
          },
        ]);
        assert.equal(compliance.checks.find((c) => c.name === 'capabilities_valid')!.passed, true);
        assert.deepEqual(verification, {
          verified: false,
          role: null,
          specialisms: [],
          verified_at: null,
          reason: 'a measurement agent has no badge role',
        });
      } finally {
        await probing.close();
        await measuring.close();
      }
    });
  });

  describe('several workers', () => {
    it('never probe the same agent twice in one round, and each change emits one event', async () => {
      const urls = Array.from({ length: 6 }, (_, i) => `${fake.url}/shared-${i}/mcp`);
      for (const url of urls) await enrollAgent(server.db, url, 'signals', clock.now());
      await newEvents();
      const otherDb = engine.name === 'postgres' ? await anotherPool(server.db, 4) : server.db;
      try {
        const workers = [probeWorker(server.db, 1), probeWorker(otherDb, 1), probeWorker(otherDb, 2)];
        const rounds = await Promise.all(workers.map((w) => w.probeDue()));
        const probed = rounds.flat().map((r) => r.agentUrl);
        assert.deepEqual(
          [...probed].sort(),
          [...urls].sort(),
          `each agent probed exactly once: ${JSON.stringify(rounds.map((r) => r.length))}`,
        );
        assert.ok(
          rounds.filter((r) => r.length > 0).length >= 2,
          `the workers shared the round: ${JSON.stringify(rounds.map((r) => r.length))}`,
        );
        const events = await newEvents();
        assert.deepEqual(events.map((e) => e.entity_id).sort(), [...urls].sort());
        assert.ok(events.every((e) => e.event_type === 'agent.compliance_changed'));
      } finally {
        if (otherDb !== server.db) await otherDb.close();
      }
    });
  });

  describe('unenrolling', () => {
    it('drops the agent from the queue and its state', async () => {
      const url = `${fake.url}/leaving/mcp`;
      await enrollAgent(server.db, url, 'signals', clock.now());
      await server.db.query('delete from registry_agents where agent_url = $1', [url]);
      assert.equal((await probeStates(server.db, [url])).size, 0);
      assert.ok((await worker.probeDue()).every((r) => r.agentUrl !== url));
    });
  });
});
