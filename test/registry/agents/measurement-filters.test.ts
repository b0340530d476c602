import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const agent = (name: string) => `https://${name}.measure.example/mcp`;

/**
 * The agent list's measurement filters and metrics enrichment over what probing fetched: metric_id
 * (repeatable, OR), accreditation (repeatable), q (case-insensitive substring of metric_id), each
 * implying type=measurement; accreditations shown as the vendor's claims, never the registry's.
 */
eachEngine('the agent list’s measurement filters', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();

  /** What a probe records once it fetched the agent's get_ap_capabilities. */
  const fetched = (url: string, capabilities: Json) =>
    server.db.query(
      'update registry_agent_probes set capabilities = $2, capabilities_fetched_at = $3, probed_at = $3, reachable = true where agent_url = $1',
      [url, JSON.stringify(capabilities), clock.now()],
    );
  const metrics = (...list: Json[]) => ({
    ap: { major_versions: [3] },
    supported_protocols: ['measurement'],
    measurement: { metrics: list },
  });

  before(async () => {
    server = await startTestServer(engine, { deps: { clock } });
    await seedOrganization(server.db, { slug: 'measurer' });
    const as = bearer(await createApiKeyFor(server.db, 'measurer'));
    await proveOwnership(server.db, 'measurer', 'measure.example', clock.now());
    for (const [name, type] of [
      ['viewable', 'measurement'],
      ['lift', 'measurement'],
      ['silent', 'measurement'],
      ['seller', 'sales'],
    ] as const) {
      assert.equal(
        (await postJson(`${server.url}/api/registry/agents`, { agent_url: agent(name), type, name }, as)).status,
        201,
      );
    }
    await fetched(
      agent('viewable'),
      metrics(
        { metric_id: 'viewability', accreditations: [{ accrediting_body: 'MRC', verified_by_registry: true }] },
        { metric_id: 'attention_seconds', accreditations: [] },
      ),
    );
    await fetched(agent('lift'), metrics({ metric_id: 'brand_lift', accreditations: [{ accrediting_body: 'ARF' }] }));
    await fetched(
      agent('seller'),
      metrics({ metric_id: 'viewability', accreditations: [{ accrediting_body: 'MRC' }] }),
    );
  });
  after(async () => {
    await server.close();
  });

  const names = async (query: string) => {
    const res = await fetch(`${server.url}/api/registry/agents${query}`);
    assert.equal(res.status, 200, query);
    return ((await json(res)).agents as Json[]).map((a) => a.name as string);
  };

  it('matches metric ids (OR), accrediting bodies and a substring of metric ids, measurement agents only', async () => {
    assert.deepEqual(
      await names('?metric_id=viewability'),
      ['viewable'],
      'the sales agent claiming it is not a measurement agent',
    );
    assert.deepEqual(await names('?metric_id=viewability&metric_id=brand_lift'), ['lift', 'viewable']);
    assert.deepEqual(await names('?accreditation=ARF'), ['lift']);
    assert.deepEqual(await names('?accreditation=MRC&accreditation=ARF'), ['lift', 'viewable']);
    assert.deepEqual(await names('?q=VIEW'), ['viewable']);
    assert.deepEqual(await names('?q=seconds&type=measurement'), ['viewable']);
    assert.deepEqual(await names('?q=lift&accreditation=MRC'), [], 'every filter given must hold');
    assert.deepEqual(await names('?metric_id=reach'), []);
  });

  it('shows a measurement agent’s metrics with accreditations never verified by the registry', async () => {
    const res = await json(await fetch(`${server.url}/api/registry/agents?type=measurement&capabilities=true`));
    const byName = new Map((res.agents as Json[]).map((a) => [a.name, a]));
    assert.deepEqual(byName.get('viewable')!.metrics, [
      { metric_id: 'viewability', accreditations: [{ accrediting_body: 'MRC', verified_by_registry: false }] },
      { metric_id: 'attention_seconds', accreditations: [] },
    ]);
    assert.equal(byName.get('viewable')!.capabilities.stale, false);
    assert.deepEqual(byName.get('silent')!.metrics, [], 'no capabilities fetched yet');
    assert.deepEqual(
      [byName.get('silent')!.capabilities.fetched_at, byName.get('silent')!.capabilities.stale],
      [null, true],
    );
    clock.advance(25 * 3600 * 1000);
    const later = await json(await fetch(`${server.url}/api/registry/agents?type=measurement&capabilities=true`));
    assert.equal(
      (later.agents as Json[]).find((a) => a.name === 'viewable')!.capabilities.stale,
      true,
      'older than the 24-hour cache',
    );
  });
});
