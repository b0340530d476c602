import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

/**
 * GET /api/registry/agents/{url}/compliance: an agent's compliance, to exactly whoever sees it in
 * the list (anonymous: public; API tier: also members_only; its organization: also private), and
 * 404 not_found to anyone else, as for an agent not enrolled.
 */
eachEngine('an agent’s compliance', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const viewers: Record<string, Record<string, string> | undefined> = { anonymous: undefined, admin: asAdmin };
  const enrolled = {
    public: 'https://public.quality.example/mcp',
    members_only: 'https://members.quality.example/mcp',
    private: 'https://private.quality.example/mcp',
  };

  before(async () => {
    server = await startTestServer(engine, { deps: { clock } });
    for (const [who, apiTier] of [
      ['owner', false],
      ['member', true],
      ['outsider', false],
    ] as const) {
      await seedOrganization(server.db, { slug: who, apiTier });
      viewers[who] = bearer(await createApiKeyFor(server.db, who));
    }
    await proveOwnership(server.db, 'owner', 'quality.example', clock.now());
    for (const [visibility, agent_url] of Object.entries(enrolled)) {
      const res = await postJson(
        `${server.url}/api/registry/agents`,
        { agent_url, type: 'sales', name: `Quality ${visibility}`, visibility },
        viewers['owner'],
      );
      assert.equal(res.status, 201, await res.text());
    }
  });
  after(() => server.close());

  const compliance = async (url: string, as?: Record<string, string>) => {
    const res = await fetch(
      `${server.url}/api/registry/agents/${encodeURIComponent(url)}/compliance`,
      as ? { headers: as } : {},
    );
    return { status: res.status, body: await json(res) };
  };

  it('is shown to exactly those who see the agent in the list, and is 404 not_found to the others', async () => {
    for (const [who, as] of Object.entries(viewers)) {
      const listed = new Set(
        (
          (await json(await fetch(`${server.url}/api/registry/agents`, as ? { headers: as } : {}))).agents as Json[]
        ).map((a) => a.agent_url),
      );
      for (const url of Object.values(enrolled)) {
        const { status, body } = await compliance(url, as);
        assert.equal(status, listed.has(url) ? 200 : 404, `${who} ${url}`);
        if (status === 404) assert.equal(body.error, 'not_found', `${who} ${url}`);
      }
    }
    // The tiers, spelled out.
    assert.equal((await compliance(enrolled.public)).status, 200);
    assert.equal((await compliance(enrolled.members_only)).status, 404);
    assert.equal((await compliance(enrolled.members_only, viewers['member'])).status, 200);
    assert.equal((await compliance(enrolled.private, viewers['member'])).status, 404);
    assert.equal((await compliance(enrolled.private, viewers['owner'])).status, 200);
  });

  it('before the first probe: unknown, no checks, no history', async () => {
    const { status, body } = await compliance(enrolled.public);
    assert.equal(status, 200);
    assert.deepEqual(body, {
      agent_url: enrolled.public,
      status: 'unknown',
      lifecycle_stage: 'production',
      tracks: {},
      streak_days: 0,
      last_checked_at: null,
      headline: null,
      verified: false,
      verified_roles: [],
      status_changed_at: null,
      last_passed_at: null,
      last_failed_at: null,
      storyboards_passing: 0,
      storyboards_total: 0,
      check_interval_hours: 0.25,
      declared_specialisms: [],
      checked_at: null,
      checks: [],
      verification: { verified: false, role: null, specialisms: [], verified_at: null },
      history: [],
    });
  });

  it('compares the URL in canonical form, and refuses what is not a URL or a credential it cannot verify', async () => {
    assert.equal((await compliance('HTTPS://PUBLIC.Quality.example/mcp')).body.agent_url, enrolled.public);
    const bad = await compliance('not a url');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'validation_failed');
    assert.equal((await compliance(enrolled.public, { authorization: 'Bearer not-a-credential' })).status, 401);
  });
});
