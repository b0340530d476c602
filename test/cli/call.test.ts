import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { publicTestCredential } from '../../src/config.ts';
import { testTenant } from '../support/agents.ts';
import { canonicalAgentUrl } from '../../src/protocol/agent-url.ts';
import { publishAdagents } from '../support/authorization-world.ts';
import { runAp } from '../support/cli.ts';
import { engines } from '../support/engines.ts';
import { adminKey, startTestServer, type TestServer } from '../support/server.ts';

/** `ap call` and `ap tools` as a buyer's engineer runs them: against the test deployment, and a tenant with long tasks. */
describe('ap call and ap tools', () => {
  let deployment: TestServer;
  let tasks: TestServer;
  const { tenant } = testTenant();
  // The agents are on loopback, which the SSRF-safe client refuses unless named.
  const env = () => ({
    AP_TOKEN: publicTestCredential,
    AP_FETCH_ALLOW: `${new URL(deployment.url).host},${new URL(tasks.url).host}`,
  });

  before(async () => {
    deployment = await startTestServer(engines[0]!, { env: { AGENTS: 'true' } });
    tasks = await startTestServer(engines[0]!, { deps: { tenants: [tenant] } });
  });
  after(async () => {
    await deployment.close();
    await tasks.close();
  });

  it('prints the payload of get_products over MCP, arguments from --args', async () => {
    const { code, stdout, stderr } = await runAp(
      ['call', `${deployment.url}/sales/mcp`, 'get_products', '--args', '{"brief":"recipes"}', '--json'],
      env(),
    );
    assert.equal(code, 0, stderr);
    const payload = JSON.parse(stdout) as { products: unknown[] };
    assert.ok(payload.products.length > 0);
  });

  it('reads the arguments from standard input, and calls over A2A when asked', async () => {
    const { code, stdout, stderr } = await runAp(
      ['call', `${deployment.url}/sales/mcp`, 'get_products', '-', '--protocol', 'a2a', '--json'],
      env(),
      '{"brief":"recipes"}',
    );
    assert.equal(code, 0, stderr);
    assert.ok((JSON.parse(stdout) as { products: unknown[] }).products.length > 0);
  });

  it('exits 1 with the typed error when the agent refuses, as JSON with --json', async () => {
    const { code, stdout, stderr } = await runAp(
      [
        'call',
        `${deployment.url}/sales/mcp`,
        'create_media_buy',
        '--args',
        '{"account":{"account_id":"nobody"}}',
        '--json',
      ],
      env(),
    );
    assert.equal(code, 1);
    assert.equal(stdout, '');
    const { error } = JSON.parse(stderr) as {
      error: { kind: string; code: string; message: string; retryable: boolean };
    };
    assert.equal(error.kind, 'agent');
    assert.match(error.code, /^[A-Z_]+$/);
    assert.equal(error.retryable, false);
  });

  it('exits 2 on bad input: arguments that are not JSON, or two sources of them', async () => {
    const notJson = await runAp(['call', `${deployment.url}/sales/mcp`, 'get_products', '--args', '{brief'], env());
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /not JSON/);
    const twice = await runAp(
      ['call', `${deployment.url}/sales/mcp`, 'get_products', '--args', '{}', '-'],
      env(),
      '{}',
    );
    assert.equal(twice.code, 2);
    const badProtocol = await runAp(
      ['call', `${deployment.url}/sales/mcp`, 'get_products', '--protocol', 'soap'],
      env(),
    );
    assert.equal(badProtocol.code, 2);
  });

  it('exits 2 for an agent URL or registry that is not a URL', async () => {
    const badAgent = await runAp(['call', 'notaurl', 'get_products'], env());
    assert.equal(badAgent.code, 2, badAgent.stderr);
    assert.match(badAgent.stderr, /INVALID_AGENT_URL/);
    const badRegistry = await runAp(
      ['call', `${deployment.url}/sales/mcp`, 'get_products', '--registry', 'nope', '--publisher', 'x.example'],
      env(),
    );
    assert.equal(badRegistry.code, 2);
    assert.equal((await runAp(['tools', 'notaurl'], env())).code, 2);
  });

  it('exits 4 at --timeout when the agent never answers, at once rather than when the request would end', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const started = performance.now();
      const { code, stderr } = await runAp(
        ['call', `http://${host}/mcp`, 'get_products', '--timeout', '1', '--allow', host],
        env(),
      );
      assert.equal(code, 4, stderr);
      assert.match(stderr, /TIMEOUT/);
      assert.ok(performance.now() - started < 20_000, `took ${Math.round(performance.now() - started)} ms`);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('exits 3 when the URL is not an agent, and when the address is not allowed', async () => {
    const notAgent = await runAp(['call', `${deployment.url}/nothing`, 'get_products'], env());
    assert.equal(notAgent.code, 3, notAgent.stderr);
    assert.match(notAgent.stderr, /NOT_AN_AGENT/);
    const refused = await runAp(['call', `${deployment.url}/sales/mcp`, 'get_products'], {
      ...env(),
      AP_FETCH_ALLOW: '',
    });
    assert.equal(refused.code, 3);
    // Said once, with what would let it through.
    const host = new URL(deployment.url).host;
    assert.equal(refused.stderr.match(/fetches may only reach public addresses/g)?.length, 1, refused.stderr);
    assert.match(refused.stderr, new RegExp(`suggestion: .*--allow ${host.replace('.', '\\.')}`));
  });

  it("calls the agent once the registry shows the publisher's adagents.json authorizes it", async () => {
    const agentUrl = `${deployment.url}/sales/mcp`;
    await publishAdagents(deployment.db, 'cooking-weekly.example', {
      properties: [
        {
          property_id: 'site',
          property_type: 'website',
          name: 'Cooking Weekly',
          identifiers: [{ type: 'domain', value: 'cooking-weekly.example' }],
        },
      ],
      authorized_agents: [
        {
          url: agentUrl,
          authorized_for: 'All inventory',
          authorization_type: 'property_ids',
          property_ids: ['site'],
          delegation_type: 'direct',
        },
      ],
    });
    await deployment.app.authorizationIndex.until((f) => f.index.grantsOf(canonicalAgentUrl(agentUrl)!).length > 0);
    const { code, stdout, stderr } = await runAp(
      [
        'call',
        agentUrl,
        'get_products',
        '--args',
        '{"brief":"recipes"}',
        '--registry',
        deployment.url,
        '--publisher',
        'cooking-weekly.example',
        '--json',
      ],
      env(),
    );
    assert.equal(code, 0, stderr);
    assert.ok((JSON.parse(stdout) as { products: unknown[] }).products.length > 0);
  });

  it('exits 5 when the publisher, as the registry knows it, has not authorized the agent', async () => {
    const { code, stderr } = await runAp(
      [
        'call',
        `${deployment.url}/sales/mcp`,
        'get_products',
        '--registry',
        deployment.url,
        '--publisher',
        'nobody.example',
      ],
      env(),
    );
    assert.equal(code, 5, stderr);
    assert.match(stderr, /NOT_AUTHORIZED_BY_PUBLISHER/);
  });

  it('answers a long task at once without --wait, and its result with --wait', async () => {
    const callEnv = { ...env(), AP_TOKEN: adminKey };
    const started = await runAp(
      ['call', `${tasks.url}/test/mcp`, 'build_thing', '--args', JSON.stringify({ name: randomUUID() }), '--json'],
      callEnv,
    );
    assert.equal(started.code, 0, started.stderr);
    const pending = JSON.parse(started.stdout) as { task_id: string; status: string };
    assert.ok(['submitted', 'working'].includes(pending.status));
    const name = randomUUID();
    const waited = await runAp(
      ['call', `${tasks.url}/test/mcp`, 'build_thing', '--args', JSON.stringify({ name }), '--wait'],
      callEnv,
    );
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal((JSON.parse(waited.stdout) as { name: string }).name, name);
    assert.match(waited.stderr, /task .*: (submitted|working)/);
  });

  it('lists the tasks with their arguments', async () => {
    const { code, stdout, stderr } = await runAp(['tools', `${deployment.url}/sales/mcp`], env());
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^create_media_buy .*idempotency_key/m);
    const json = await runAp(['tools', `${deployment.url}/sales/mcp`, '--json'], env());
    const tools = JSON.parse(json.stdout) as Array<{ name: string; inputSchema?: unknown }>;
    assert.ok(tools.some((t) => t.name === 'get_products' && t.inputSchema));
  });
});
