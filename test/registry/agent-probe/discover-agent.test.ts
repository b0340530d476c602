import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { parse } from 'yaml';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { recordConnectionAttempts } from '../../net/local-servers.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { adminKey } from '../../support/server.ts';
import { agentCredential, assertError, startProbeWorld, type ProbeWorld } from './support.ts';

const path = '/api/public/discover-agent';

eachEngine('GET /api/public/discover-agent', (engine) => {
  let world: ProbeWorld;
  before(async () => {
    world = await startProbeWorld(engine);
  });
  after(() => world.close());
  // A fresh minute for each test: the per-IP budget is 5 probes, and answers are kept a minute.
  beforeEach(() => world.clock.advance(61_000));
  const discover = (url: string, headers: Record<string, string> = agentCredential) =>
    world.get(path, { url }, headers);

  describe('an agent of the test deployment', () => {
    it('speaks MCP and A2A: its tools with their input schemas, its card and its capabilities', async () => {
      const { status, body } = await discover(world.agents.sales);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.agent_url, world.agents.sales);
      assert.deepEqual(body.protocols, ['mcp', 'a2a']);
      assert.equal(body.auth_required, false);
      assert.ok(Number.isInteger(body.latency_ms) && body.latency_ms >= 0);
      assert.deepEqual(body.problems, {});
      assert.equal(body.mcp.url, world.agents.sales);
      assert.equal(typeof body.mcp.protocol_version, 'string');
      const tools = body.mcp.tools as Json[];
      assert.ok(tools.some((t) => t.name === 'get_ap_capabilities'));
      const getProducts = tools.find((t) => t.name === 'get_products')!;
      assert.equal(getProducts.input_schema.type, 'object');
      assert.ok('brief' in getProducts.input_schema.properties, 'the input schema lists get_products’ arguments');
      assert.equal(body.a2a.card_url, 'http://agents.example/sales/.well-known/agent-card.json');
      assert.ok(
        (body.a2a.card.skills as Json[]).some((s) => s.id === 'get_products'),
        'the card as served, with its skills',
      );
      assert.deepEqual(body.capabilities.supported_protocols, ['media_buy']);
      assert.equal(body.capabilities.context, undefined);
      assert.deepEqual(
        validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', body.capabilities).errors,
        [],
      );
      assert.equal(body.probed_at, world.clock.now().toISOString());
      // What the protocol's registry client reads.
      assert.equal(body.name, body.a2a.card.name);
      assert.equal(body.description, body.a2a.card.description);
      assert.equal(body.type, 'sales');
      assert.equal(body.tools_count, tools.length);
      assert.deepEqual(
        body.tools.map((t: Json) => t.name),
        tools.map((t) => t.name),
      );
      assert.equal(typeof body.stats, 'object');
    });

    it('without a credential: its public card over A2A, and says it asks for one', async () => {
      const { status, body } = await discover(world.agents.signals, {});
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.protocols, ['a2a']);
      assert.equal(body.auth_required, true);
      assert.equal(body.mcp, null);
      assert.match(body.problems.mcp, /needs a credential/);
      assert.ok((body.a2a.card.skills as Json[]).some((s) => s.id === 'get_signals'));
      assert.equal(body.capabilities, null, 'get_ap_capabilities over A2A is refused too');
      assert.equal(typeof body.problems.capabilities, 'string');
      assert.equal(body.type, 'signals', 'typed by the tasks its card lists');
      assert.ok((body.tools as Json[]).some((t) => t.name === 'get_signals'));
      assert.equal(body.tools_count, (body.a2a.card.skills as Json[]).length);
    });

    it('is one agent however its URL is spelled, and is asked once a minute: answers are kept, per credential', async () => {
      const before = world.fetcher.requests;
      const first = await discover(world.agents.creative);
      assert.equal(first.status, 200);
      const asked = world.fetcher.requests;
      assert.ok(asked > before);
      const again = await discover('HTTP://Agents.Example:80/creative/mcp#top');
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body, 'the kept answer');
      assert.equal(world.fetcher.requests, asked, 'the agent was not asked again');

      const anonymous = await discover(world.agents.creative, {});
      assert.equal(anonymous.body.auth_required, true, 'another credential is another question');
      assert.ok(world.fetcher.requests > asked);

      world.clock.advance(61_000);
      const later = await discover(world.agents.creative);
      assert.equal(later.body.probed_at, world.clock.now().toISOString(), 'asked again after a minute');
    });
  });

  describe('what is not an agent', () => {
    it('502 not_an_agent for a web page', async () => {
      assertError(
        await discover(`${world.hostile}/shop`),
        502,
        'not_an_agent',
        /^http:\/\/hostile\.example\/shop answered, but not as an agent: MCP: .+; A2A: /,
      );
    });

    it('502 agent_unreachable when nothing answers, the name does not resolve, or the answer is too large', async () => {
      assertError(
        await discover(world.down),
        502,
        'agent_unreachable',
        /^Could not reach http:\/\/down\.example\/mcp: .*ECONNREFUSED/,
      );
      assertError(
        await discover('https://nowhere.example/mcp'),
        502,
        'agent_unreachable',
        /nowhere\.example could not be resolved/,
      );
      assertError(await discover(`${world.hostile}/huge`), 502, 'agent_unreachable', /sent more than 1048576 bytes/);
    });

    it('502 agent_auth_required for an endpoint that answers 401 and serves no card, saying whether a credential was given', async () => {
      assertError(
        await discover(`${world.hostile}/locked/mcp`, {}),
        502,
        'agent_auth_required',
        /asks for a credential \(401\); pass it in the ap-agent-authorization header/,
      );
      assertError(
        await discover(`${world.hostile}/locked/mcp`),
        502,
        'agent_auth_required',
        /refused the credential given/,
      );
    });
  });

  describe('SSRF', () => {
    it('400 url_not_public for a host resolving to a private, link-local or loopback address, connecting nowhere', async () => {
      const attempts = recordConnectionAttempts();
      try {
        for (const [url, shown] of [
          ['http://intranet.example/mcp', 'intranet.example resolves to 10.1.2.3, which is private'],
          ['http://metadata.example/latest/meta-data', 'metadata.example resolves to 169.254.169.254'],
          ['https://split.example/mcp', 'split.example resolves to 192.168.0.7'],
          [world.loopback, '127.0.0.1 is loopback'],
          ['http://[::1]:8080/mcp', '::1 is loopback'],
          ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is linkLocal'],
        ] as const) {
          world.clock.advance(15_000); // six probes: more than a minute's budget at once
          const answer = await discover(url);
          assertError(answer, 400, 'url_not_public');
          assert.ok(answer.body.message.includes(shown), `${url}: ${answer.body.message}`);
        }
      } finally {
        attempts.stop();
      }
      const refused = ['10.1.2.3', '169.254.169.254', '192.168.0.7', '::1'];
      assert.deepEqual(
        attempts.attempts.filter((a) => refused.includes(a.split(' ')[0]!)),
        [],
      );
    });

    it('400 url_not_public for an agent that redirects to the metadata address or to loopback, which is never connected to', async () => {
      const attempts = recordConnectionAttempts();
      try {
        assertError(
          await discover(`${world.hostile}/to-metadata`),
          400,
          'url_not_public',
          /169\.254\.169\.254 is linkLocal/,
        );
        assertError(await discover(`${world.hostile}/to-loopback`), 400, 'url_not_public', /127\.0\.0\.1 is loopback/);
      } finally {
        attempts.stop();
      }
      assert.ok(!attempts.attempts.some((a) => a.startsWith('169.254.169.254')), attempts.attempts.join(', '));
    });
  });

  describe('bad input', () => {
    it('400 with the catalogue’s body, asking no one', async () => {
      const before = world.fetcher.requests;
      const missing = await world.get(path, {});
      assertError(missing, 400, 'validation_failed');
      assert.equal(missing.body.details[0].in, 'querystring');
      for (const [url, reason] of [
        ['sales.example/mcp', /not an absolute URL/],
        ['ftp://sales.example/mcp', /https \(or http\)/],
        ['http://user:secret@sales.example/mcp', /carries no credentials/],
      ] as const) {
        const answer = await discover(url);
        assertError(answer, 400, 'invalid_request', reason);
        assert.deepEqual(
          answer.body.details.map((d: Json) => [d.in, d.field]),
          [['querystring', 'url']],
        );
      }
      assertError(await discover(`https://sales.example/${'a'.repeat(2100)}`), 400, 'validation_failed');
      assert.equal(world.fetcher.requests, before);
    });
  });

  describe('rate limits', () => {
    it('5 probes a minute per IP without a credential, then 429 with retry_after; a user has a budget of its own', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await discover(world.agents.sales)).status, 200, `probe ${i + 1}`);
      const refused = await discover(world.agents.sales);
      assertError(refused, 429, 'rate_limited');
      assert.ok(
        Number.isInteger(refused.body.retry_after) && refused.body.retry_after > 0 && refused.body.retry_after <= 60,
      );
      assert.equal(refused.headers.get('retry-after'), String(refused.body.retry_after));
      // The budget is the three endpoints’.
      assertError(
        await world.get('/api/public/agent-formats', { url: world.agents.sales }, agentCredential),
        429,
        'rate_limited',
      );

      const asUser = { ...agentCredential, authorization: `Bearer ${adminKey}` };
      for (let i = 0; i < 8; i++)
        assert.equal((await discover(world.agents.sales, asUser)).status, 200, `user probe ${i + 1}`);
      assertError(await discover(world.agents.sales, asUser), 429, 'rate_limited');

      world.clock.advance(61_000);
      assert.equal((await discover(world.agents.sales)).status, 200, 'a minute later');
    });

    it('one address gets at most four users’ budgets, however many keys it sends', async () => {
      world.clock.advance(61_000);
      const keys = await Promise.all(
        Array.from({ length: 5 }, async () =>
          createApiKeyFor(world.server.db, (await seedOrganization(world.server.db)).slug),
        ),
      );
      const as = (key: string) => ({ ...agentCredential, authorization: `Bearer ${key}` });
      for (const key of keys.slice(0, 4))
        for (let i = 0; i < 8; i++) assert.equal((await discover(world.agents.sales, as(key))).status, 200);
      assertError(await discover(world.agents.sales, as(keys[4]!)), 429, 'rate_limited');
    });
  });

  it('the three probing endpoints are in the OpenAPI document, with examples of their parameters and answers', async () => {
    const doc = parse(await (await fetch(`${world.server.url}/openapi/registry.yaml`)).text()) as {
      paths: Record<string, { get: Json }>;
    };
    for (const endpoint of ['discover-agent', 'agent-formats', 'agent-products']) {
      const operation = doc.paths[`/api/public/${endpoint}`]!.get;
      assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '400', '429', '500', '502']);
      assert.ok(operation.responses['200'].content['application/json'].example, `${endpoint}: an example answer`);
      for (const parameter of operation.parameters as Json[])
        assert.ok(parameter.example, `${endpoint}: ${parameter.name} has an example`);
      assert.ok((operation.parameters as Json[]).some((p) => p.in === 'header' && p.name === 'ap-agent-authorization'));
    }
  });
});
