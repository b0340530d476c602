import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOrganization } from '../../src/auth/index.ts';
import { systemClock } from '../../src/clock.ts';
import type { Database } from '../../src/db/database.ts';
import { loadMirrorConfig, startMirror, type RunningMirror } from '../../src/mirror/index.ts';
import {
  changeAgent,
  enrollAgent,
  operatorFor,
  removeAgent,
  type EnrollmentContext,
} from '../../src/registry/agents/index.ts';
import type { Principal } from '../../src/auth/index.ts';
import { engines } from '../support/engines.ts';
import { startUpstream, type Upstream } from '../support/mirror.ts';
import type { Json } from '../support/http.ts';
import { Random } from '../support/random.ts';
import { publisherDomains, RandomWorld, type Question } from '../support/random-authorization-world.ts';
import { adminKey, asAdmin, testConfig } from '../support/server.ts';

/**
 * A mirror against its upstream on loopback: random changes to the registry (re-crawls granting,
 * revoking and changing authorizations, publishers going stale and coming back, community saves
 * of property entries and brands, agents enrolled, hidden and removed) while both are asked, the
 * upstream killed and restarted in the middle, and the mirror's cursor made to expire (410,
 * bootstrap again). Afterwards every lookup, resolution and authorization answer of the mirror
 * equals the upstream's, and the mirror stands at the upstream's last event. A failure names its seed; MIRROR_SEED replays it.
 */
const seed = Number(process.env['MIRROR_SEED'] ?? 20261129);
const changesPerPhase = 700;
const agentUrls = Array.from({ length: 12 }, (_, i) => `https://sales.agent${i}.example/mcp`);
const operatorDomains = Array.from({ length: 8 }, (_, i) => `op${i}.example`);

describe('ap mirror answers as its upstream does', () => {
  const postgres = engines.find((e) => e.name === 'postgres')!;
  const random = new Random(seed);
  const world = new RandomWorld(random);
  let db: Database;
  let upstream: Upstream;
  let mirror: RunningMirror;
  let enrollment: EnrollmentContext;
  let operator: Principal;
  const enrolled = new Map<string, 'public' | 'members_only'>();
  /** Statuses the mirror answered while the changes ran: all 200 once it was ready. */
  const mirrorStatuses = new Map<number, number>();
  let asking = true;
  let asked: Promise<void> | undefined;
  /** Settles when the next change is made: the questions are asked again after each, not in a busy loop. */
  let changed = () => {};
  const nextChange = () => new Promise<void>((resolve) => (changed = resolve));

  before(async () => {
    db = await postgres.openMigrated();
    await world.build(db);
    upstream = await startUpstream(db, 0);
    const org = await createOrganization(db, { slug: 'mirror-members', name: 'Mirror Members' });
    operator = operatorFor(org);
    enrollment = { db, clock: systemClock, config: testConfig() };
    mirror = await startMirror(
      loadMirrorConfig({ from: upstream.url, token: adminKey, port: '0' }, { LOG_LEVEL: 'silent' }),
    );
    await mirror.app.mirror!.until((m) => m.live);
    asked = askWhileChanging();
  });
  after(async () => {
    asking = false;
    changed();
    await asked;
    await mirror?.close();
    await upstream?.app.close();
    await db?.close();
  });

  /** Both asked the same questions, one after another, after each change as long as the changes run. */
  async function askWhileChanging(): Promise<void> {
    while (asking) {
      await nextChange();
      const questions = world.questions(20);
      const [, mirrored] = await Promise.all([
        checks(upstream.url, questions).catch(() => undefined),
        fetch(`${mirror.url}/api/registry/validate/property-authorization`, bulk(questions)),
      ]);
      mirrorStatuses.set(mirrored.status, (mirrorStatuses.get(mirrored.status) ?? 0) + 1);
      await mirrored.arrayBuffer();
    }
  }

  /** Random changes until `count` are made: re-crawls mostly, saves and enrollments among them. */
  async function change(count: number): Promise<void> {
    for (let made = 0; made < count;) {
      made += await world.change(db);
      if (random.chance(0.5)) made += await save();
      if (random.chance(0.2)) made += await saveBrand();
      if (random.chance(0.5)) made += await agentChange();
      changed();
    }
  }

  async function save(): Promise<number> {
    const domain = `community${random.int(0, 5)}.example`;
    const res = await fetch(`${upstream.url}/api/properties/save`, {
      method: 'POST',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      body: JSON.stringify({
        publisher_domain: domain,
        authorized_agents: [{ url: random.pick(agentUrls) }],
        properties: [{ type: 'website', name: domain, identifiers: [{ type: 'domain', value: domain }] }],
      }),
    }).catch(() => undefined);
    // While the upstream is away no save is made: the mirror has nothing to follow of it either.
    await res?.arrayBuffer();
    return res?.ok ? 1 : 0;
  }

  async function saveBrand(): Promise<number> {
    const domain = `brand${random.int(0, 5)}.example`;
    const res = await fetch(`${upstream.url}/api/brands/save`, {
      method: 'POST',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      body: JSON.stringify({ domain, brand_name: `Brand ${random.int(0, 1000)}` }),
    }).catch(() => undefined);
    await res?.arrayBuffer();
    return res?.ok ? 1 : 0;
  }

  async function agentChange(): Promise<number> {
    const url = random.pick(agentUrls);
    const visibility = enrolled.get(url);
    if (visibility === undefined) {
      await enrollAgent(enrollment, operator, {
        agent_url: url,
        type: 'sales',
        name: `Agent ${url}`,
        description: null,
        visibility: 'public',
      });
      enrolled.set(url, 'public');
    } else if (random.chance(0.3)) {
      await removeAgent(enrollment, operator, url);
      enrolled.delete(url);
    } else {
      const next = visibility === 'public' ? 'members_only' : 'public';
      await changeAgent(enrollment, operator, url, { visibility: next });
      enrolled.set(url, next);
    }
    return 1;
  }

  it(
    'follows 2,100 changes through an upstream restart and an expired cursor, then answers alike',
    { timeout: 300_000 },
    async (t) => {
      await t.test('while the upstream serves', () => change(changesPerPhase));

      await t.test('while the upstream is down and after it returns', async () => {
        const { port } = upstream;
        await upstream.app.close();
        await mirror.app.mirror!.until((m) => !m.streaming);
        await change(changesPerPhase / 2);
        upstream = await startUpstream(db, port);
        await change(changesPerPhase / 2);
        assert.equal(mirror.app.mirror!.bootstraps, 1, 'resumed from its cursor, not bootstrapped again');
      });

      await t.test('after its cursor expired upstream', async () => {
        const { port } = upstream;
        await upstream.app.close();
        await mirror.app.mirror!.until((m) => !m.streaming);
        await change(changesPerPhase / 2);
        // Retention took the mirror's cursor (and everything before it) while it was away.
        await db.query('delete from registry_events where event_id <= $1', [mirror.app.mirror!.cursor]);
        upstream = await startUpstream(db, port);
        await change(changesPerPhase / 2);
        await mirror.app.mirror!.until((m) => m.bootstraps === 2);
      });

      asking = false;
      changed();
      await asked;
      const head = await lastEvent();
      await mirror.app.mirror!.reached(head);
      assert.equal(mirror.app.mirror!.cursor, head, 'the mirror stands at the upstream’s last event');
      assert.deepEqual([...mirrorStatuses.keys()], [200], 'the mirror answered every check while changes ran');
      // The upstream's own catalog members, current as of now (it reloads them in the background).
      await upstream.app.agentSearch.reload(upstream.app.agentEnrollment.db);

      await t.test('every check', async () => {
        const questions = world.questions(3000);
        assert.deepEqual(await checks(mirror.url, questions), await checks(upstream.url, questions));
      });
      await t.test('every lookup and publisher view', async () => {
        const identifiers = world.questions(400).flatMap((q) => (q.identifier ? [q.identifier] : []));
        const paths = [
          ...[...publisherDomains, ...operatorDomains, 'silent0.example'].flatMap((d) => [
            `/api/registry/lookup/domain/${d}`,
            `/api/registry/publisher?domain=${d}`,
          ]),
          ...agentUrls.map((a) => `/api/registry/lookup/agent/${encodeURIComponent(a)}/domains`),
          ...identifiers.map(
            (i) => `/api/registry/lookup/property?${new URLSearchParams({ type: i.type, value: i.value })}`,
          ),
          '/api/registry/publishers?limit=500',
          '/api/registry/publishers?status=stale&limit=500',
        ];
        for (const path of paths) assert.deepEqual(await get(mirror.url, path), await get(upstream.url, path), path);
      });
      await t.test('every resolution', async () => {
        const community = Array.from({ length: 6 }, (_, i) => `community${i}.example`);
        const brands = Array.from({ length: 6 }, (_, i) => `brand${i}.example`);
        const paths = [...publisherDomains, ...community, ...brands, ...operatorDomains].flatMap((d) => [
          `/api/brands/resolve?domain=${d}`,
          `/api/properties/resolve?domain=${d}`,
        ]);
        const found = new Set<string>();
        for (const path of paths) {
          const mirrored = await get(mirror.url, path);
          assert.deepEqual(mirrored, await get(upstream.url, path), path);
          if (mirrored.status === 200) found.add(path.slice(0, path.indexOf('?')));
        }
        // Both kinds were there to compare, not only 404s.
        assert.deepEqual([...found].sort(), ['/api/brands/resolve', '/api/properties/resolve']);
      });
    },
  );

  async function lastEvent(): Promise<string> {
    const [row] = await db.query<{ event_id: string }>(
      'select event_id from registry_events order by event_id desc limit 1',
    );
    return row!.event_id;
  }
});

function bulk(questions: readonly Question[]): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ checks: questions }),
  };
}

/** The answers to `questions`, without when each was given. */
async function checks(base: string, questions: readonly Question[]): Promise<Json[]> {
  const out: Json[] = [];
  for (let i = 0; i < questions.length; i += 1000) {
    const res = await fetch(`${base}/api/registry/validate/property-authorization`, bulk(questions.slice(i, i + 1000)));
    const body = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(body));
    for (const { checked_at: _, ...answer } of body['results'] as Json[]) out.push(answer);
  }
  return out;
}

async function get(base: string, path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, body: (await res.json()) as Json };
}
