import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { recordConnectionAttempts } from '../../net/local-servers.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { adminKey } from '../../support/server.ts';
import { agentCredential, assertError, startProbeWorld, type ProbeWorld } from './support.ts';

const formatsPath = '/api/public/agent-formats';
const productsPath = '/api/public/agent-products';
const brief = 'Premium video for a coffee launch';

/** The two endpoints that call one task of an agent: list_creative_formats and get_products. */
eachEngine('GET /api/public/agent-formats and /agent-products', (engine) => {
  let world: ProbeWorld;
  before(async () => {
    world = await startProbeWorld(engine);
  });
  after(() => world.close());
  beforeEach(() => world.clock.advance(61_000));
  const formats = (url: string, headers: Record<string, string> = agentCredential) =>
    world.get(formatsPath, { url }, headers);
  const products = (url: string, text = brief, headers: Record<string, string> = agentCredential) =>
    world.get(productsPath, { url, brief: text }, headers);

  describe('agent-formats', () => {
    it('the creative agent’s formats, as it answered, conforming to the published schema', async () => {
      const { status, body } = await formats(world.agents.creative);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.agent_url, world.agents.creative);
      assert.equal(body.protocol, 'mcp');
      assert.ok(Number.isInteger(body.latency_ms));
      const listed = body.response.formats as Json[];
      assert.ok(listed.length > 0);
      assert.ok(
        listed.every(
          (f) => typeof f.format_id.id === 'string' && f.format_id.agent_url === 'http://agents.example/creative/mcp',
        ),
      );
      assert.equal(body.response.context, undefined);
      assert.deepEqual(body.schema_issues, []);
      assert.equal(body.probed_at, world.clock.now().toISOString());
      assert.equal(body.success, true);
      assert.deepEqual(
        body.formats,
        listed,
        'the formats at the top too, where the protocol’s registry client reads them',
      );
    });

    it('502 agent_bad_response for an answer without formats, with the published schema not even reached', async () => {
      assertError(
        await formats(`${world.hostile}/fake/mcp`),
        502,
        'agent_bad_response',
        /answered list_creative_formats without a formats array/,
      );
    });

    it('502 agent_auth_required when the agent wants a credential and none was given', async () => {
      assertError(
        await formats(world.agents.creative, {}),
        502,
        'agent_auth_required',
        /pass it in the ap-agent-authorization header/,
      );
    });

    it('502 not_an_agent and agent_unreachable as discover-agent says them', async () => {
      assertError(await formats(`${world.hostile}/shop`), 502, 'not_an_agent');
      assertError(await formats(world.down), 502, 'agent_unreachable');
    });
  });

  describe('agent-products', () => {
    it('the sales agent’s products for the brief, conforming to the published schema, kept a minute per brief', async () => {
      const { status, body } = await products(world.agents.sales);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.protocol, 'mcp');
      const found = body.response.products as Json[];
      assert.ok(found.length > 0);
      assert.equal(body.success, true);
      assert.deepEqual(body.products, found);
      assert.ok(found.every((p) => typeof p.product_id === 'string'));
      assert.deepEqual(body.schema_issues, []);

      const asked = world.fetcher.requests;
      assert.deepEqual((await products(world.agents.sales)).body, body, 'the same brief: the kept answer');
      assert.equal(world.fetcher.requests, asked);
      const other = await products(world.agents.sales, 'Podcast audio for runners');
      assert.equal(other.status, 200);
      assert.ok(world.fetcher.requests > asked, 'another brief is asked');
    });

    it('502 agent_task_failed with the agent’s error code, for an agent that refuses the brief or lacks the task', async () => {
      assertError(
        await products(`${world.hostile}/fake/mcp`),
        502,
        'agent_task_failed',
        /answered get_products with POLICY_VIOLATION: No tobacco\./,
      );
      const signals = await products(world.agents.signals);
      assertError(
        signals,
        502,
        'agent_task_failed',
        /^http:\/\/agents\.example\/signals\/mcp answered get_products with /,
      );
    });

    it('without a brief, the agent’s catalog (buying_mode wholesale), kept apart from the briefs’ answers', async () => {
      const briefed = await products(world.agents.sales);
      const { status, body } = await world.get(productsPath, { url: world.agents.sales }, agentCredential);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.success, true);
      assert.deepEqual(body.products, body.response.products);
      assert.deepEqual(body.schema_issues, []);
      const ids = (answer: Json) => new Set((answer.products as Json[]).map((p) => p.product_id as string));
      assert.ok(ids(body).size > ids(briefed.body).size, 'the whole catalog, not the brief’s picks');
      assert.ok([...ids(briefed.body)].every((id) => ids(body).has(id)));
      assert.equal(body.response.proposals, undefined, 'wholesale answers no proposals');
    });

    it('400 for an empty or too long brief, asking no one', async () => {
      const before = world.fetcher.requests;
      assertError(await products(world.agents.sales, ''), 400, 'validation_failed');
      assertError(await products(world.agents.sales, 'x'.repeat(2001)), 400, 'validation_failed');
      assertError(await products('not a url'), 400, 'invalid_request', /not an absolute URL/);
      assert.equal(world.fetcher.requests, before);
    });
  });

  describe('SSRF, both endpoints', () => {
    it('400 url_not_public for private hosts and redirects to the metadata address, never connected to', async () => {
      const attempts = recordConnectionAttempts();
      try {
        assertError(
          await formats('http://intranet.example/mcp'),
          400,
          'url_not_public',
          /10\.1\.2\.3, which is private/,
        );
        assertError(
          await formats(`${world.hostile}/to-metadata`),
          400,
          'url_not_public',
          /169\.254\.169\.254 is linkLocal/,
        );
        assertError(await products('http://metadata.example/mcp'), 400, 'url_not_public', /169\.254\.169\.254/);
        assertError(await products(`${world.hostile}/to-loopback`), 400, 'url_not_public', /127\.0\.0\.1 is loopback/);
        assertError(await products(world.loopback), 400, 'url_not_public', /127\.0\.0\.1 is loopback/);
      } finally {
        attempts.stop();
      }
      assert.deepEqual(
        attempts.attempts.filter((a) => /^(10\.1\.2\.3|169\.254\.169\.254) /.test(a)),
        [],
      );
    });
  });

  describe('rate limits, both endpoints', () => {
    it('share the per-IP budget with discover-agent: 429 with retry_after; a user’s own budget', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await formats(world.agents.creative)).status, 200);
      for (let i = 0; i < 2; i++) assert.equal((await products(world.agents.sales)).status, 200);
      for (const refused of [
        await formats(world.agents.creative),
        await products(world.agents.sales),
        await world.get('/api/public/discover-agent', { url: world.agents.sales }),
      ]) {
        assertError(refused, 429, 'rate_limited');
        assert.ok(refused.body.retry_after >= 1 && refused.body.retry_after <= 60);
      }
      const asUser = { ...agentCredential, authorization: `Bearer ${adminKey}` };
      assert.equal((await products(world.agents.sales, brief, asUser)).status, 200);
      assert.equal((await formats(world.agents.creative, asUser)).status, 200);
    });
  });
});
